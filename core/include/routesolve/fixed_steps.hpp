#pragma once
// Solving with given steps (VROOM `vehicles[].steps` in solving mode): each vehicle's steps are
// the fixed start of its route, in their order; the search routes the other tasks after them.
// split_steps() schedules every vehicle's steps and returns the problem left to solve: the tasks
// of no step, every vehicle with steps starting where and when its steps end, with what they use
// of its capacity, max_tasks, max_travel_time and max_distance taken off and its breaks not given
// as steps; a shipment picked up in the steps and not delivered there becomes a job delivering
// its amount that only that vehicle may serve. join_steps() puts each vehicle's steps in front of
// its route of the solved rest and schedules the whole route on the original problem.
//
// The capacity left is the capacity less the highest load the steps reach (the load carried
// through them from the start by the rest's job deliveries is then always room enough): exact
// for steps that only deliver and pick up jobs kept to the end of the steps, conservative when a
// shipment picked up in the steps is delivered after them.

#include <cstddef>
#include <vector>

#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"

namespace routesolve {

struct StepSplit {
  ProblemSpec rest;  ///< the problem left to solve (no steps)
  /// For each job of rest.jobs, then each shipment of rest.shipments: the task index in the
  /// original problem of the job or of the shipment's pickup.
  std::vector<std::size_t> jobs_origin, shipments_origin;
  /// Per vehicle: its scheduled steps (empty route when it has none).
  std::vector<RoutePlan> given;
};

/// Throws Error(InvalidInput) naming vehicles[i].steps[k] and the constraint when a vehicle's
/// steps cannot be scheduled (capacity, time windows, breaks, max_* limits).
StepSplit split_steps(const Problem& problem);

/// The solution of the original problem from the rest's. Throws Error(InvalidInput) naming the
/// vehicle's steps when the shipment delivery its steps left open could not be routed.
Solution join_steps(const Problem& problem, const StepSplit& split, const Problem& rest,
                    const Solution& rest_solution);

}  // namespace routesolve
