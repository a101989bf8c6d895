#pragma once
// Plan mode (VROOM's `-c`, `routesolve solve --check`): every vehicle's given steps are its whole
// route, in that order. check_plan() computes each route's times, loads, waiting, travel and
// cost in the schedule's model (breaks en route, earliest service) without refusing anything:
// each constraint the plan breaks is reported as VROOM reports it (PlanViolation), per step and
// per route:
//   delay          service (or the route's end) later than the last window allows: by how long
//   load           the load after a step exceeds the capacity
//   max_load       the load during a break exceeds its max_load
//   skills         the vehicle lacks the task's skills
//   precedence     a shipment's delivery without its pickup before it on the route, or a pickup
//                  without its delivery after it
//   missing_break  a break of the vehicle not in its steps (route)
//   max_tasks, max_travel_time, max_distance  (route)
// A step that misses every window is served on arrival (never `lead_time`: waiting is free).
// Tasks in no vehicle's steps are unassigned (not_routed). The independent validator reports
// the same constraints at the same steps.

#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"

namespace routesolve {

Solution check_plan(const Problem& problem);

}  // namespace routesolve
