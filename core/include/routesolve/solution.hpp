#pragma once
// A solution: routes of timed steps, unassigned tasks with reasons, and a summary.
// All figures are in the problem's internal units (see UnitScale); writers convert.

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "routesolve/problem.hpp"
#include "routesolve/types.hpp"

namespace routesolve {

/// Reload: a multi-trip vehicle's return to a reload location (an extension of VROOM's types).
enum class StepType { Start, Job, Pickup, Delivery, Break, End, Reload };

std::string_view to_string(StepType type) noexcept;

/// A constraint a plan breaks, as VROOM's `violations` report it (check mode): its cause
/// ("delay", "lead_time", "load", "max_tasks", "skills", "precedence", "missing_break",
/// "max_travel_time", "max_load", "max_distance") and, for "delay" and "lead_time", by how long.
struct PlanViolation {
  std::string cause;
  Duration duration = 0;
  bool operator==(const PlanViolation&) const = default;
};

struct Step {
  StepType type = StepType::Job;
  Id id = 0;                     ///< task or break id (unused for start/end)
  std::size_t task = kNone;      ///< task index for job/pickup/delivery steps
  std::size_t location = kNone;  ///< matrix index; kNone for breaks and missing start/end
  Duration arrival = 0;          ///< time the vehicle reaches the step
  Duration setup = 0;
  Duration service = 0;
  Duration waiting_time = 0;              ///< service starts at arrival + waiting_time
  Duration duration = 0;                  ///< cumulative travel time up to this step
  Distance distance = 0;                  ///< cumulative distance up to this step
  Amount load;                            ///< vehicle load after this step
  std::vector<PlanViolation> violations;  ///< check mode only
};

struct Route {
  std::size_t vehicle = 0;  ///< vehicle index
  Id vehicle_id = 0;
  std::vector<Step> steps;  ///< Start (if the vehicle has one), tasks and breaks, End (if any)
  Cost cost = 0;            ///< internal cost units, fixed cost included
  Duration setup = 0, service = 0, duration = 0, waiting_time = 0;
  Distance distance = 0;
  Amount delivery, pickup;
  int priority = 0;
  std::vector<PlanViolation> violations;  ///< check mode only: the route's and its steps' causes
};

/// Why a task could not be served.
enum class UnassignedReason {
  NoCompatibleVehicle,  ///< no vehicle has the skills
  Capacity,             ///< exceeds capacity (alone, or no room left)
  TimeWindow,           ///< its time windows cannot be met
  MaxTasks,             ///< every fitting vehicle is at its max_tasks
  MaxTravelTime,        ///< would exceed a vehicle's max_travel_time
  MaxDistance,          ///< would exceed a vehicle's max_distance
  Unreachable,          ///< no path between it and the vehicles' locations
  Break,                ///< no placement keeps every break feasible
  MaxWorkingTime,       ///< would exceed a vehicle's max_working_time
  NotRouted,            ///< feasible alone, left out by the search (e.g. time limit)
};

std::string_view to_string(UnassignedReason reason) noexcept;

struct Unassigned {
  std::size_t task = kNone;
  Id id = 0;
  TaskType type = TaskType::Job;
  UnassignedReason reason = UnassignedReason::NotRouted;
};

struct Summary {
  Cost cost = 0;  ///< the routes' costs plus balance_cost
  std::size_t routes = 0;
  std::size_t unassigned = 0;
  Duration setup = 0, service = 0, duration = 0, waiting_time = 0;
  Distance distance = 0;
  Amount delivery, pickup;
  int priority = 0;
  std::vector<PlanViolation> violations;  ///< check mode only: every route's causes
  /// Balance (ProblemSpec::balance > 0 only): the longest route's working time and the term
  /// Problem::balance_cost adds for it to `cost`.
  Duration longest_working_time = 0;
  Cost balance_cost = 0;
};

/// Working time of a route as the balance objective prices it: from the vehicle's shift start to
/// the route's end (arrival at the end step, else the last step's departure), whatever timeline
/// the route reports (the search measures it so too).
Duration working_time(const Problem& problem, const Route& route);

/// Time spent per stage, for `--profile` and the benchmark suites.
struct StageTime {
  std::string stage;
  double seconds = 0.0;
};

struct Solution {
  std::vector<Route> routes;
  std::vector<Unassigned> unassigned;
  Summary summary;
  std::vector<StageTime> profile;
  std::string backend;  ///< name of the backend that really ran
  /// Why the backend that ran is not the one asked for (a device that failed its self-test, or a
  /// device result that did not check out mid-solve); empty when nothing fell back.
  std::string fallback;
  /// Device results that did not match the host check (each one kept out of the solution).
  std::uint64_t mismatches = 0;
  std::uint64_t iterations = 0;  ///< metaheuristic iterations, all threads (0 when not counted)
  /// A plan checked as given (check_plan): its violations are reported, not refused.
  bool checked = false;
};

// ---------------------------------------------------------------------------------------------
// Plans and scheduling: solvers decide the order of visits; core computes every figure.
// ---------------------------------------------------------------------------------------------

/// One visit in a plan: a task or one of the vehicle's breaks.
struct PlannedVisit {
  bool is_break = false;
  std::size_t index = 0;  ///< task index, or break index within the vehicle
};

struct RoutePlan {
  std::size_t vehicle = 0;
  std::vector<PlannedVisit> visits;  ///< in order; breaks included or left to the scheduler
};

/// Result of scheduling a sequence of tasks for one vehicle.
struct ScheduleResult {
  bool feasible = false;
  std::optional<UnassignedReason> violation;  ///< first violated constraint when infeasible
  Route route;                                ///< filled when feasible
};

/// Schedules tasks in the given order on vehicle v, placing the vehicle's breaks where they fit
/// best (exact dynamic programme over positions x breaks taken), with the instants of
/// `timeline` (the search asks for the earliest ones, which cost one pass less).
/// Checks capacity, time windows, skills, shipment order and pairing within the route,
/// max_tasks, max_travel_time and max_distance.
ScheduleResult schedule_route(const Problem& problem, std::size_t vehicle,
                              const std::vector<std::size_t>& tasks,
                              Timeline timeline = Timeline::Earliest);

/// schedule_route's verdict alone, without building the route (no allocation once warm).
bool route_feasible(const Problem& problem, std::size_t vehicle,
                    const std::vector<std::size_t>& tasks);

/// Schedules a plan whose visits (breaks included) are in a fixed order.
ScheduleResult schedule_plan(const Problem& problem, const RoutePlan& plan,
                             Timeline timeline = Timeline::Earliest);

/// Builds a full solution (routes, summary) from routes already scheduled and the unassigned.
/// Empty routes are dropped. Throws Error(Internal) if a route is infeasible.
Solution make_solution(const Problem& problem, std::vector<Route> routes,
                       std::vector<Unassigned> unassigned);

/// The figures of a solution that carries routes only (a CVRPLIB .sol): each route's tasks
/// scheduled in their order by schedule_route and assembled by make_solution, the unassigned
/// kept. When schedule_route refuses a route, the index of the first such route instead.
std::variant<Solution, std::size_t> schedule_routes(const Problem& problem,
                                                    const Solution& routes_only,
                                                    Timeline timeline = Timeline::Vroom);

}  // namespace routesolve
