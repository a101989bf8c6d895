#pragma once
// Relocate and or-opt between tours on a WorkingSolution: the chain of 1..max_length
// consecutive jobs starting at u leaves its tour and goes next to w in w's tour, before or after
// w, forwards or reversed. Priced in O(1) per variant from arc costs, then checked by
// concatenating w's tour's prefix, the chain and its suffix. Shipment halves never move.
//
// On a SearchState (problems beyond the segment model, priced against cached route arrays and
// confirmed by schedule_route): Relocate moves one task to another position, in its route or
// another one.

#include <cstddef>
#include <vector>

#include "routesolve/search/search_state.hpp"
#include "routesolve/search/working_solution.hpp"
#include "routesolve/search/operators/operator.hpp"
#include "routesolve/search/operators/route_change.hpp"

namespace routesolve::search {

class InterRelocate {
 public:
  /// The best variant of moving u's chain next to w that beats `bound` (see operator.hpp).
  InterRelocate(const WorkingSolution& s, std::size_t u, std::size_t w, std::size_t max_length, Objective objective,
                const Score& bound = Score{});

  [[nodiscard]] Score delta() const noexcept { return delta_; }
  [[nodiscard]] bool is_valid() const noexcept { return found_; }
  void apply(WorkingSolution& s) const;
  [[nodiscard]] TouchedRoutes routes() const { return found_ ? TouchedRoutes(v1_, v2_) : TouchedRoutes(); }

  [[nodiscard]] std::size_t length() const noexcept { return length_; }

 private:
  std::size_t u_, w_, v1_ = kNone, v2_ = kNone;
  std::size_t length_ = 1;  ///< chain length
  bool reversed_ = false;   ///< the chain is inserted back to front
  bool after_ = true;       ///< after w (else before w)
  bool found_ = false;
  Score delta_;
};

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
  [[nodiscard]] TouchedRoutes routes() const { return TouchedRoutes(from_, to_); }

 private:
  const SearchState* state_;
  std::size_t task_, from_, from_position_, to_, to_position_;
};

}  // namespace routesolve::search
