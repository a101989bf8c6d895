#pragma once
// What the operators on a SearchState share (operator.hpp has their interface): the routes a
// move rewrites (RouteChange), its Score delta recomputed from the sequences, and the checks that
// make core's schedule_route the final word.

#include <cstddef>
#include <vector>

#include "routesolve/search/search_state.hpp"
#include "routesolve/search/operators/operator.hpp"
#include "routesolve/hd/score.hpp"
#include "routesolve/backend.hpp"

namespace routesolve::search {

/// A route rewritten by a move.
struct RouteChange {
  std::size_t vehicle = 0;
  std::vector<std::size_t> tasks;
};

/// Delta recomputed from scratch (sequence costs before and after): the reference for tests
/// and the pricing of intra-route moves.
Score recomputed_delta(const SearchState& state, const std::vector<RouteChange>& changes);

/// Cheap necessary checks on new sequences (skills, max_tasks, capacity totals).
bool changes_pass_filters(const SearchState& state, const std::vector<RouteChange>& changes);

/// Exact feasibility of every changed route, by core's schedule_route.
bool changes_feasible(const SearchState& state, const std::vector<RouteChange>& changes);

/// Writes the changed routes into the state.
void apply_changes(SearchState& state, std::vector<RouteChange> changes);

}  // namespace routesolve::search
