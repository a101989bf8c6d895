#pragma once
// Re-optimisation of a day under way: the problem as it is now (new jobs added, cancelled ones
// removed, drivers' shifts as they are), the plan being driven (a previous solution), and the
// time now. Every step of the plan that begins before now + frozen_horizon stays as it is: it
// becomes a given step of its vehicle (routesolve/fixed_steps.hpp), so it is never moved. The
// rest is solved again from where each vehicle's frozen steps end, starting from the plan (warm
// start: the plan's remaining routes, made feasible, enter the search late in its cooling, so
// the new plan comes in a fraction of a cold solve's work and keeps most assignments).

#include <cstddef>

#include "routesolve/backend.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"

namespace routesolve {

struct ReoptimiseOptions {
  Duration now = 0;             ///< in the problem's time units
  Duration frozen_horizon = 0;  ///< steps beginning before now + this are frozen too
  /// Warm start: the share of the annealing's work (or time budget) the plan counts as done; the
  /// search then runs the rest at its lower temperatures. false: a cold solve of the rest.
  bool warm = true;
  double warm_fraction = 0.8;
};

struct Reoptimised {
  Solution solution;
  std::size_t frozen_steps = 0;  ///< tasks and breaks kept as they were
  std::size_t moved = 0;         ///< tasks of the plan now on another vehicle or unassigned
  std::size_t cancelled = 0;     ///< plan steps whose task is no longer in the problem
};

/// `plan` is a solution read against `problem` (steps of tasks the problem no longer has carry
/// task == kNone and are dropped). `problem` must have no given steps. Throws Error(InvalidInput)
/// naming the vehicle's step when the frozen steps cannot be scheduled any more.
Reoptimised reoptimise(const Problem& problem, const Solution& plan, const ReoptimiseOptions& options,
                       const SolveOptions& solve_options);

}  // namespace routesolve
