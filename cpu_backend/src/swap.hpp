#pragma once
// Swap: exchanges the positions of two tasks (two jobs between routes; any two within one).

#include <cstddef>
#include <vector>

#include "move.hpp"

namespace routesolve::cpu::detail {

class Swap {
 public:
  Swap(const SearchState& state, std::size_t first, std::size_t second);

  /// Objective change, O(1) between routes (O(n) within one route).
  [[nodiscard]] Score delta() const;
  [[nodiscard]] bool passes_filters() const;
  [[nodiscard]] std::vector<RouteChange> changes() const;
  [[nodiscard]] bool is_valid() const { return passes_filters() && changes_feasible(*state_, changes()); }
  void apply(SearchState& state) const { apply_changes(state, changes()); }

 private:
  const SearchState* state_;
  std::size_t u_, w_, ru_, rw_, pu_, pw_;
};

}  // namespace routesolve::cpu::detail
