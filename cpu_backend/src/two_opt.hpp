#pragma once
// 2-opt: reverses a segment of one route.

#include <cstddef>
#include <vector>

#include "move.hpp"

namespace routesolve::cpu::detail {

class TwoOpt {
 public:
  /// Reverses tasks[first..last] (first < last) of vehicle v's route.
  TwoOpt(const SearchState& state, std::size_t vehicle, std::size_t first, std::size_t last);

  /// Objective change in O(1), from the route's forward and backward cost prefixes.
  [[nodiscard]] Score delta() const;
  [[nodiscard]] bool passes_filters() const;
  [[nodiscard]] std::vector<RouteChange> changes() const;
  [[nodiscard]] bool is_valid() const { return passes_filters() && changes_feasible(*state_, changes()); }
  void apply(SearchState& state) const { apply_changes(state, changes()); }

 private:
  const SearchState* state_;
  std::size_t v_, first_, last_;
};

}  // namespace routesolve::cpu::detail
