#pragma once
// Re-optimisation of a day under way: the problem as it is now (new jobs added, cancelled ones
// removed, drivers' shifts as they are), the plan being driven (a previous solution), and the
// time now. Every step of the plan that begins before now + frozen_horizon stays as it is: it
// becomes a given step of its vehicle (routesolve/fixed_steps.hpp), so it is never moved (a
// vehicle's breaks are frozen only with a frozen task: without one it has not set out). The
// rest is solved again from where each vehicle's frozen steps end, starting from the plan (warm
// start: the plan's remaining routes, made feasible, enter the search late in its cooling, so
// the new plan comes in a fraction of a cold solve's work and keeps most assignments).
//
// The state of the day may also be given in the problem (extensions of VROOM's format):
//  - `done: [ids]` (job ids, or {"type": "job" | "pickup" | "delivery", "id": ...}): tasks already
//    served. A done task and every step before it on its plan route are done, whatever the plan's
//    times say; done steps are frozen like the steps before the horizon. A done task on no route of
//    the plan is refused (done[k]).
//  - `vehicles[i].current_location` ([lon, lat]) / `current_location_index`, and `current_load`:
//    where the vehicle is now and what it carries that no remaining task of its route drops. Such
//    a vehicle's done steps (the `done` list's, or without one the plan's steps reached before
//    now) are history: their tasks leave the problem (Reoptimised::done counts them) and the
//    vehicle's route goes on from current_location (else the last place it served) no earlier
//    than now, with current_load taken off its capacity for the whole route and its limits
//    (max_tasks, max_travel_time, max_distance, max_working_time from now) less what it used. A
//    shipment such a vehicle picked up and has not delivered is refused (not supported yet).
// routesolve::solve refuses these fields (they describe a plan under way).

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
  std::size_t done = 0;  ///< tasks done by vehicles whose position is given (out of the problem)
  /// The problem `solution` is a solution of when vehicles' positions were given (the input less
  /// the tasks done, those vehicles starting where they are now); null: the input problem.
  ProblemPtr problem;
};

/// `plan` is a solution read against `problem` (steps of tasks the problem no longer has carry
/// task == kNone and are dropped). `problem` must have no given steps. Throws Error(InvalidInput)
/// naming the vehicle's step when the frozen steps cannot be scheduled any more.
Reoptimised reoptimise(const Problem& problem, const Solution& plan,
                       const ReoptimiseOptions& options, const SolveOptions& solve_options);

}  // namespace routesolve
