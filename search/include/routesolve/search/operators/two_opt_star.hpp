#pragma once
// 2-opt* on a WorkingSolution: the tours of u and w (interchangeable vehicles) exchange their
// tails so that u and w become adjacent (u -> w or w -> u). Priced in O(1) from the two arcs cut
// and the two arcs made, checked by concatenating each head with the other tail. A move whose
// tails would separate a pickup from its delivery is refused.
//
// On a SearchState (problems beyond the segment model): TwoOptStar exchanges the tails of two
// routes at any cut.

#include <cstddef>
#include <vector>

#include "routesolve/search/search_state.hpp"
#include "routesolve/search/vehicle_classes.hpp"
#include "routesolve/search/working_solution.hpp"
#include "routesolve/search/operators/operator.hpp"
#include "routesolve/search/operators/route_change.hpp"

namespace routesolve::search {

class InterTwoOptStar {
 public:
  /// The best of the two tail exchanges between the tours of u and w that beats `bound`.
  InterTwoOptStar(const WorkingSolution& s, const VehicleClasses& classes, std::size_t u, std::size_t w,
                  Objective objective, const Score& bound = Score{});

  [[nodiscard]] Score delta() const noexcept { return delta_; }
  [[nodiscard]] bool is_valid() const noexcept { return found_; }
  void apply(WorkingSolution& s) const;
  [[nodiscard]] TouchedRoutes routes() const { return found_ ? TouchedRoutes(v1_, v2_) : TouchedRoutes(); }

 private:
  std::size_t u_, w_, v1_ = kNone, v2_ = kNone;
  bool u_first_ = true;  ///< the new arc is u -> w (else w -> u)
  bool found_ = false;
  Score delta_;
};

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
  [[nodiscard]] TouchedRoutes routes() const { return TouchedRoutes(v1_, v2_); }

 private:
  /// Cost of route `head` (its first `keep_head` tasks) joined to `tail` from `keep_tail` on.
  [[nodiscard]] Cost joined_cost(std::size_t head, std::size_t keep_head, std::size_t tail,
                                 std::size_t keep_tail) const;

  const SearchState* state_;
  std::size_t v1_, keep1_, v2_, keep2_;
};

}  // namespace routesolve::search
