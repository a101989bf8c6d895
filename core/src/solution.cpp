// Solution vocabulary and make_solution(): routes checked for consistency, then summarised.

#include "routesolve/solution.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "routesolve/error.hpp"

namespace routesolve {

std::string_view to_string(TaskType type) noexcept {
  switch (type) {
    case TaskType::Job:
      return "job";
    case TaskType::Pickup:
      return "pickup";
    case TaskType::Delivery:
      return "delivery";
    case TaskType::Reload:
      return "reload";
  }
  return "?";
}

std::string_view to_string(StepType type) noexcept {
  switch (type) {
    case StepType::Start:
      return "start";
    case StepType::Job:
      return "job";
    case StepType::Pickup:
      return "pickup";
    case StepType::Delivery:
      return "delivery";
    case StepType::Break:
      return "break";
    case StepType::End:
      return "end";
    case StepType::Reload:
      return "reload";
  }
  return "unknown";
}

std::string_view to_string(UnassignedReason reason) noexcept {
  switch (reason) {
    case UnassignedReason::NoCompatibleVehicle:
      return "no_compatible_vehicle";
    case UnassignedReason::Capacity:
      return "capacity";
    case UnassignedReason::TimeWindow:
      return "time_window";
    case UnassignedReason::MaxTasks:
      return "max_tasks";
    case UnassignedReason::MaxTravelTime:
      return "max_travel_time";
    case UnassignedReason::MaxDistance:
      return "max_distance";
    case UnassignedReason::Unreachable:
      return "unreachable";
    case UnassignedReason::Break:
      return "break";
    case UnassignedReason::MaxWorkingTime:
      return "max_working_time";
    case UnassignedReason::NotRouted:
      return "not_routed";
  }
  return "unknown";
}

std::string_view to_string(Timeline timeline) noexcept {
  return timeline == Timeline::Vroom ? "vroom" : "earliest";
}

std::optional<Timeline> timeline_from_string(std::string_view name) noexcept {
  if (name == "vroom") return Timeline::Vroom;
  if (name == "earliest") return Timeline::Earliest;
  return std::nullopt;
}

namespace {

[[noreturn]] void internal(const std::string& what) {
  throw Error(ErrorCode::Internal, "make_solution: " + what);
}

bool has_task_steps(const Route& r) {
  return std::any_of(r.steps.begin(), r.steps.end(), [](const Step& s) {
    return s.type == StepType::Job || s.type == StepType::Pickup || s.type == StepType::Delivery;
  });
}

}  // namespace

Duration working_time(const Problem& problem, const Route& route) {
  const Duration begin = problem.vehicle(route.vehicle).time_window.start;
  Duration end = begin;
  for (const Step& st : route.steps) {
    if (st.type == StepType::Start)
      end = std::max(end, st.arrival);
    else if (st.type == StepType::End)
      end = st.arrival;
    else
      end = st.arrival + st.waiting_time + st.setup + st.service;
  }
  return end - begin;
}

Solution make_solution(const Problem& problem, std::vector<Route> routes,
                       std::vector<Unassigned> unassigned) {
  Solution sol;
  const std::size_t dims = problem.dimensions();
  std::vector<char> seen_task(problem.tasks().size(), 0);
  std::vector<char> seen_vehicle(problem.vehicles().size(), 0);

  auto mark_task = [&](std::size_t t, const std::string& where) {
    if (t >= seen_task.size())
      internal(where + ": task index " + std::to_string(t) + " out of range");
    if (seen_task[t]) internal(where + ": task index " + std::to_string(t) + " appears twice");
    seen_task[t] = 1;
  };

  // Routes in vehicle order, empty ones dropped.
  routes.erase(std::remove_if(routes.begin(), routes.end(),
                              [](const Route& r) { return !has_task_steps(r); }),
               routes.end());
  std::stable_sort(routes.begin(), routes.end(),
                   [](const Route& a, const Route& b) { return a.vehicle < b.vehicle; });

  for (std::size_t r = 0; r < routes.size(); ++r) {
    const Route& route = routes[r];
    const std::string where = "routes[" + std::to_string(r) + "]";
    if (route.vehicle >= seen_vehicle.size()) internal(where + ": vehicle index out of range");
    if (seen_vehicle[route.vehicle])
      internal(where + ": vehicle " + std::to_string(route.vehicle) + " used twice");
    seen_vehicle[route.vehicle] = 1;
    if (route.vehicle_id != problem.vehicle(route.vehicle).id)
      internal(where + ": vehicle id mismatch");

    // Re-derive the schedule of the visits as given: the route must be feasible.
    RoutePlan plan;
    plan.vehicle = route.vehicle;
    for (std::size_t s = 0; s < route.steps.size(); ++s) {
      const Step& step = route.steps[s];
      if (step.type == StepType::Start || step.type == StepType::End) continue;
      if (step.type == StepType::Break) {
        const auto& breaks = problem.vehicle(route.vehicle).breaks;
        std::size_t b = 0;
        while (b < breaks.size() && breaks[b].id != step.id) ++b;
        if (b == breaks.size()) internal(where + ": unknown break id " + std::to_string(step.id));
        plan.visits.push_back({true, b});
        continue;
      }
      mark_task(step.task, where + ".steps[" + std::to_string(s) + "]");
      plan.visits.push_back({false, step.task});
    }
    const ScheduleResult check = schedule_plan(problem, plan);
    if (!check.feasible)
      internal(where + ": route is infeasible (" +
               std::string(check.violation ? to_string(*check.violation) : "unknown") + ")");
  }
  for (std::size_t u = 0; u < unassigned.size(); ++u) {
    Unassigned& un = unassigned[u];
    mark_task(un.task, "unassigned[" + std::to_string(u) + "]");
    un.id = problem.task(un.task).id;
    un.type = problem.task(un.task).type;
  }

  Summary& sum = sol.summary;
  sum.delivery = Amount(dims);
  sum.pickup = Amount(dims);
  for (const Route& r : routes) {
    sum.cost += r.cost;
    sum.setup += r.setup;
    sum.service += r.service;
    sum.duration += r.duration;
    sum.waiting_time += r.waiting_time;
    sum.distance += r.distance;
    if (r.delivery.size() == dims) sum.delivery += r.delivery;
    if (r.pickup.size() == dims) sum.pickup += r.pickup;
    sum.priority += r.priority;
  }
  if (problem.spec().balance > 0.0) {
    for (const Route& r : routes)
      sum.longest_working_time = std::max(sum.longest_working_time, working_time(problem, r));
    sum.balance_cost = problem.balance_cost(sum.longest_working_time);
    sum.cost += sum.balance_cost;
  }
  sum.routes = routes.size();
  sum.unassigned = unassigned.size();
  sol.routes = std::move(routes);
  sol.unassigned = std::move(unassigned);
  return sol;
}

std::variant<Solution, std::size_t> schedule_routes(const Problem& problem,
                                                    const Solution& routes_only,
                                                    Timeline timeline) {
  std::vector<Route> routes;
  for (std::size_t k = 0; k < routes_only.routes.size(); ++k) {
    const Route& route = routes_only.routes[k];
    std::vector<std::size_t> tasks;
    for (const Step& step : route.steps)
      if (step.task != kNone && step.type != StepType::Start && step.type != StepType::End &&
          step.type != StepType::Break)
        tasks.push_back(step.task);
    ScheduleResult scheduled = schedule_route(problem, route.vehicle, tasks, timeline);
    if (!scheduled.feasible) return k;
    routes.push_back(std::move(scheduled.route));
  }
  return make_solution(problem, std::move(routes), routes_only.unassigned);
}

}  // namespace routesolve
