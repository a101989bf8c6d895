#pragma once
// Given steps in solving mode (VROOM `vehicles[].steps`). As VROOM: a starting solution, which the
// search may change (starting_routes() checks it as VROOM does and hands it over as
// SolveOptions::start_routes). routesolve's extension, steps marked `"fixed": true` (and every
// step before them on the vehicle, VehicleStepSpec::fixed): the fixed start of the route, in
// their order; the search routes the other tasks after them.
// split_steps() schedules every vehicle's fixed steps and returns the problem left to solve: the
// tasks of no fixed step, every vehicle with fixed steps starting where and when they end, with
// what they use of its capacity, max_tasks, max_travel_time and max_distance taken off and its
// breaks not given as steps; a shipment picked up in the fixed steps and not delivered there
// becomes a job delivering its amount that only that vehicle may serve. join_steps() puts each
// vehicle's fixed steps in front of its route of the solved rest and schedules the whole route
// on the original problem.
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
/// fixed steps cannot be scheduled (capacity, time windows, breaks, max_* limits).
StepSplit split_steps(const Problem& problem);

/// The solution of the original problem from the rest's, its routes with the instants of
/// `timeline`. Throws Error(InvalidInput) naming the vehicle's steps when the shipment delivery
/// its steps left open could not be routed.
Solution join_steps(const Problem& problem, const StepSplit& split, const Problem& rest,
                    const Solution& rest_solution, Timeline timeline = Timeline::Vroom);

/// The starting solution: per vehicle, the tasks of its steps after the fixed prefix, in order.
/// Refuses what VROOM refuses, with Error(InvalidInput) naming vehicles[i].steps[k]: a task the
/// vehicle lacks the skills for, a delivery before its pickup or a pickup without its delivery
/// after it, and a vehicle whose steps (fixed ones included) cannot be scheduled as one route
/// (capacity, time windows, max_tasks, max_travel_time, max_distance...).
std::vector<std::vector<std::size_t>> starting_routes(const Problem& problem);

/// Routes of `problem`'s tasks in the indices of split_steps' rest (tasks of fixed steps leave).
std::vector<std::vector<std::size_t>> rest_routes(
    const Problem& problem, const StepSplit& split, const Problem& rest,
    const std::vector<std::vector<std::size_t>>& routes);

}  // namespace routesolve
