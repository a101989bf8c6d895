#pragma once
// What every local-search operator shares: the value of a move (MoveDelta), the routes it
// rewrites (RouteChange), and the checks that make core's schedule_route the final word.

#include <cstddef>
#include <vector>

#include "routesolve/backend.hpp"
#include "search_state.hpp"

namespace routesolve::cpu::detail {

/// Change of the objective terms a move can affect (the set of assigned tasks is unchanged).
struct MoveDelta {
  Cost cost = 0;    ///< internal cost units, fixed costs included
  long routes = 0;  ///< change in the number of non-empty routes
  friend bool operator==(const MoveDelta&, const MoveDelta&) = default;
};

/// True when the move makes the solution better under the objective.
bool improves(const MoveDelta& delta, Objective objective);
/// Strict order "a is better than b" under the objective.
bool better(const MoveDelta& a, const MoveDelta& b, Objective objective);

/// A route rewritten by a move.
struct RouteChange {
  std::size_t vehicle = 0;
  std::vector<std::size_t> tasks;
};

/// Delta recomputed from scratch (sequence costs before and after): the reference for tests
/// and the pricing of intra-route moves.
MoveDelta recomputed_delta(const SearchState& state, const std::vector<RouteChange>& changes);

/// Cheap necessary checks on new sequences (skills, max_tasks, capacity totals).
bool changes_pass_filters(const SearchState& state, const std::vector<RouteChange>& changes);

/// Exact feasibility of every changed route, by core's schedule_route.
bool changes_feasible(const SearchState& state, const std::vector<RouteChange>& changes);

/// Writes the changed routes into the state.
void apply_changes(SearchState& state, std::vector<RouteChange> changes);

}  // namespace routesolve::cpu::detail
