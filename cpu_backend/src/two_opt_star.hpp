#pragma once
// 2-opt*: exchanges the tails of two routes.

#include <cstddef>
#include <vector>

#include "move.hpp"

namespace routesolve::cpu::detail {

class TwoOptStar {
 public:
  /// Route of v1 keeps its first `keep1` tasks followed by v2's tasks from `keep2` on, and
  /// route of v2 keeps its first `keep2` tasks followed by v1's tasks from `keep1` on.
  TwoOptStar(const SearchState& state, std::size_t v1, std::size_t keep1, std::size_t v2, std::size_t keep2);

  /// Objective change: O(1) when both vehicles share travel data, O(tail) otherwise.
  [[nodiscard]] Score delta() const;
  /// Skills, max_tasks, capacity totals, and no shipment split by a cut.
  [[nodiscard]] bool passes_filters() const;
  [[nodiscard]] std::vector<RouteChange> changes() const;
  [[nodiscard]] bool is_valid() const { return passes_filters() && changes_feasible(*state_, changes()); }
  void apply(SearchState& state) const { apply_changes(state, changes()); }

 private:
  /// Cost of route `head` (its first `keep_head` tasks) joined to `tail` from `keep_tail` on.
  [[nodiscard]] Cost joined_cost(std::size_t head, std::size_t keep_head, std::size_t tail,
                                 std::size_t keep_tail) const;

  const SearchState* state_;
  std::size_t v1_, keep1_, v2_, keep2_;
};

}  // namespace routesolve::cpu::detail
