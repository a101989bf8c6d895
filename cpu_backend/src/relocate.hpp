#pragma once
// Relocate: moves one task to another position, in its route or another one.

#include <cstddef>
#include <vector>

#include "move.hpp"

namespace routesolve::cpu::detail {

class Relocate {
 public:
  /// Moves `task` before the task now at `to_position` of `to_vehicle` (== size: at the end).
  /// In the same route, to_position indexes the route before the move and must differ from
  /// the task's position and the next one.
  Relocate(const SearchState& state, std::size_t task, std::size_t to_vehicle, std::size_t to_position);

  /// Objective change, O(1) between routes (O(n) within one route).
  [[nodiscard]] Score delta() const;
  /// Cheap necessary conditions (skills, max_tasks, capacity, relaxed time windows).
  [[nodiscard]] bool passes_filters() const;
  /// The routes after the move.
  [[nodiscard]] std::vector<RouteChange> changes() const;
  /// Filters, then schedule_route on the changed routes.
  [[nodiscard]] bool is_valid() const { return passes_filters() && changes_feasible(*state_, changes()); }
  void apply(SearchState& state) const { apply_changes(state, changes()); }

 private:
  const SearchState* state_;
  std::size_t task_, from_, from_position_, to_, to_position_;
};

}  // namespace routesolve::cpu::detail
