// Given steps as the fixed start of each route: the split into the problem left to solve and the
// join of its solution (routesolve/fixed_steps.hpp says what each keeps).

#include "routesolve/fixed_steps.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <span>
#include <string>
#include <utility>

#include "routesolve/error.hpp"

namespace routesolve {
namespace {

std::string step_path(std::size_t v, std::size_t k) {
  return "vehicles[" + std::to_string(v) + "].steps[" + std::to_string(k) + "]";
}

/// The fixed prefix of a vehicle's steps (Vehicle::fixed_steps).
std::span<const StepVisit> fixed_of(const Vehicle& veh) {
  return {veh.steps.data(), veh.fixed_steps};
}

/// Skills, and no delivery without its pickup before it, on the vehicle's steps (VROOM refuses
/// both in solving mode).
void check_order(const Problem& problem, std::size_t v, std::span<const StepVisit> steps) {
  const Vehicle& veh = problem.vehicle(v);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const StepVisit& s = steps[i];
    if (s.is_break) continue;
    const Task& task = problem.task(s.index);
    const std::string what = std::string(to_string(task.type)) + " " + std::to_string(task.id);
    if (!problem.compatible(v, s.index))
      throw invalid_input(step_path(v, s.step) + ".id",
                          "vehicle " + std::to_string(veh.id) + " lacks the skills of " + what);
    if (task.type == TaskType::Delivery &&
        std::none_of(steps.begin(), steps.begin() + static_cast<long>(i),
                     [&](const StepVisit& x) { return !x.is_break && x.index == task.sibling; }))
      throw invalid_input(step_path(v, s.step) + ".id",
                          what + " is given without its pickup before it on this vehicle");
  }
}

/// A task's spec with the problem's (folded) windows.
JobSpec job_of(const Problem& p, std::size_t t) {
  JobSpec j = p.spec().jobs[p.task(t).source_index];
  j.time_windows = p.task(t).time_windows;
  return j;
}

ShipmentStepSpec half_of(const Problem& p, std::size_t t) {
  const ShipmentSpec& s = p.spec().shipments[p.task(t).source_index];
  ShipmentStepSpec h = p.task(t).type == TaskType::Pickup ? s.pickup : s.delivery;
  h.time_windows = p.task(t).time_windows;
  return h;
}

/// The first `count` given steps of vehicle v scheduled alone, in a problem of their own: the
/// vehicle without its end (kept when it has no start), with the breaks given among them; a
/// shipment picked up and not delivered among them is a job picking up its amount.
ScheduleResult schedule_given(const Problem& p, std::size_t v, std::size_t count) {
  const ProblemSpec& src = p.spec();
  const Vehicle& veh = p.vehicle(v);
  ProblemSpec s;
  s.matrices = src.matrices;
  s.scale = src.scale;
  s.planar_coordinates = src.planar_coordinates;
  s.source = src.source;
  VehicleSpec vs = src.vehicles[v];
  vs.steps.clear();
  vs.breaks.clear();
  if (vs.start) vs.end.reset();
  vs.max_travel_time.reset();  // the steps' share is checked on the whole route
  vs.max_distance.reset();
  RoutePlan plan;
  std::vector<std::pair<bool, std::size_t>> order;  // (shipment, spec index) per task visit
  std::map<std::size_t, std::size_t> shipment_at;   // original pickup task -> spec shipment
  for (std::size_t i = 0; i < count; ++i) {
    const StepVisit& visit = veh.steps[i];
    if (visit.is_break) {
      BreakSpec b;
      const Break& br = veh.breaks[visit.index];
      b.id = br.id;
      b.time_windows = br.time_windows;
      b.service = br.service;
      b.max_load = br.max_load;
      vs.breaks.push_back(b);
      plan.visits.push_back({true, visit.index});
      continue;
    }
    const Task& task = p.task(visit.index);
    if (task.type == TaskType::Job) {
      order.emplace_back(false, s.jobs.size());
      s.jobs.push_back(job_of(p, visit.index));
    } else if (task.type == TaskType::Delivery) {
      order.emplace_back(true, shipment_at.at(task.sibling));
    } else {
      const bool delivered =
          std::any_of(veh.steps.begin(), veh.steps.begin() + static_cast<long>(count),
                      [&](const StepVisit& x) { return !x.is_break && x.index == task.sibling; });
      const ShipmentSpec& ship = src.shipments[task.source_index];
      if (delivered) {
        shipment_at[visit.index] = s.shipments.size();
        order.emplace_back(true, s.shipments.size());
        ShipmentSpec copy = ship;
        copy.pickup = half_of(p, visit.index);
        copy.delivery = half_of(p, task.sibling);
        s.shipments.push_back(copy);
      } else {
        JobSpec j;
        const ShipmentStepSpec h = half_of(p, visit.index);
        j.id = h.id;
        j.location = h.location;
        j.setup = h.setup;
        j.service = h.service;
        j.time_windows = h.time_windows;
        j.pickup = ship.amount;
        j.skills = ship.skills;
        order.emplace_back(false, s.jobs.size());
        s.jobs.push_back(j);
      }
    }
    plan.visits.push_back({false, 0});  // task index set below
  }
  s.vehicles.push_back(vs);
  const ProblemPtr alone = Problem::create(std::move(s));
  std::size_t next = 0;
  std::map<std::size_t, int> halves;  // spec shipment -> halves seen
  for (PlannedVisit& pv : plan.visits) {
    if (pv.is_break) continue;
    const auto [shipment, index] = order[next++];
    if (!shipment) {
      pv.index = index;
    } else {
      const int half = halves[index]++;
      pv.index = alone->spec().jobs.size() + 2 * index + static_cast<std::size_t>(half);
    }
  }
  plan.vehicle = 0;
  if (plan.visits.empty()) return schedule_route(*alone, 0, {});
  return schedule_plan(*alone, plan);
}

Duration departure_of(const Route& r, Duration fallback) {
  if (r.steps.empty()) return fallback;
  const Step& last = r.steps.back().type == StepType::End && r.steps.size() > 1
                         ? r.steps[r.steps.size() - 2]
                         : r.steps.back();
  if (last.type == StepType::Start) return last.arrival;
  return last.arrival + last.waiting_time + last.setup + last.service;
}

}  // namespace

StepSplit split_steps(const Problem& problem) {
  const ProblemSpec& src = problem.spec();
  StepSplit out;
  out.rest = src;
  out.rest.jobs.clear();
  out.rest.shipments.clear();
  out.given.resize(problem.vehicles().size());

  std::vector<char> in_steps(problem.tasks().size(), 0);
  std::uint32_t pin = 0;  // skills above every skill of the problem pin open deliveries
  for (const Vehicle& veh : problem.vehicles()) {
    for (const StepVisit& s : fixed_of(veh))
      if (!s.is_break) in_steps[s.index] = 1;
    if (!veh.skills.empty()) pin = std::max(pin, veh.skills.back() + 1);
  }
  for (const Task& t : problem.tasks())
    if (!t.skills.empty()) pin = std::max(pin, t.skills.back() + 1);
  Id next_id = 0;
  for (const JobSpec& j : src.jobs) next_id = std::max(next_id, j.id + 1);

  for (std::size_t t = 0; t < problem.tasks().size(); ++t) {
    const Task& task = problem.task(t);
    if (in_steps[t] || task.type == TaskType::Delivery) continue;
    if (task.type == TaskType::Job) {
      out.rest.jobs.push_back(src.jobs[task.source_index]);
      out.jobs_origin.push_back(t);
    } else if (!in_steps[task.sibling]) {
      out.rest.shipments.push_back(src.shipments[task.source_index]);
      out.shipments_origin.push_back(t);
    }
  }

  for (std::size_t v = 0; v < problem.vehicles().size(); ++v) {
    const Vehicle& veh = problem.vehicle(v);
    const std::span<const StepVisit> steps = fixed_of(veh);
    if (steps.empty()) continue;
    check_order(problem, v, steps);
    VehicleSpec& rv = out.rest.vehicles[v];
    rv.steps.clear();
    ScheduleResult given = schedule_given(problem, v, steps.size());
    if (!given.feasible) {
      // Name the first step whose prefix fails.
      std::size_t k = 1;
      while (k < steps.size() && schedule_given(problem, v, k).feasible) ++k;
      throw invalid_input(step_path(v, steps[k - 1].step),
                          "the vehicle's steps up to this one cannot be scheduled (" +
                              std::string(to_string(*given.violation)) + ")");
    }
    const Route& r = given.route;
    std::size_t tasks = 0, breaks = 0;
    for (const StepVisit& s : steps) (s.is_break ? breaks : tasks) += 1;
    if (r.duration > veh.max_travel_time || r.distance > veh.max_distance)
      throw invalid_input(
          step_path(v, steps.back().step),
          std::string("the vehicle's steps exceed its ") +
              (r.duration > veh.max_travel_time ? "max_travel_time" : "max_distance"));
    RoutePlan& plan = out.given[v];
    plan.vehicle = v;
    for (const StepVisit& s : steps) plan.visits.push_back({s.is_break, s.index});

    // The rest starts where and when the steps end.
    std::size_t last = veh.start;
    for (const StepVisit& s : steps)
      if (!s.is_break) last = problem.task(s.index).location;
    if (last != kNone) {
      rv.start = LocationSpec{};
      rv.start->index = last;
    }
    rv.time_window.start = departure_of(r, veh.time_window.start);
    rv.breaks.erase(rv.breaks.begin(), rv.breaks.begin() + static_cast<long>(breaks));
    if (tasks > 0) rv.costs.fixed = 0;  // the vehicle is used anyway
    if (rv.max_tasks) rv.max_tasks = *rv.max_tasks - std::min(*rv.max_tasks, tasks);
    if (rv.max_travel_time) rv.max_travel_time = *rv.max_travel_time - r.duration;
    if (rv.max_distance) rv.max_distance = *rv.max_distance - r.distance;
    if (!rv.capacity.empty()) {
      for (std::size_t d = 0; d < rv.capacity.size(); ++d) {
        std::int64_t peak = 0;
        for (const Step& st : r.steps)
          if (d < st.load.size()) peak = std::max(peak, st.load[d]);
        rv.capacity[d] -= peak;
      }
    }
    // Shipments picked up in the steps and delivered after them: jobs only this vehicle serves.
    bool pinned = false;
    for (const StepVisit& s : steps) {
      if (s.is_break || problem.task(s.index).type != TaskType::Pickup ||
          in_steps[problem.task(s.index).sibling])
        continue;
      const Task& d = problem.task(problem.task(s.index).sibling);
      const ShipmentSpec& ship = src.shipments[d.source_index];
      JobSpec j;
      j.id = next_id++;
      j.location = ship.delivery.location;
      j.setup = d.setup;
      j.service = d.service;
      j.time_windows = d.time_windows;
      j.delivery = ship.amount;
      j.skills = ship.skills;
      j.skills.push_back(pin + static_cast<std::uint32_t>(v));
      j.priority = ship.priority;
      j.description = ship.delivery.description;
      out.rest.jobs.push_back(j);
      out.jobs_origin.push_back(problem.task(s.index).sibling);
      pinned = true;
    }
    if (pinned) rv.skills.push_back(pin + static_cast<std::uint32_t>(v));
  }
  for (VehicleSpec& vs : out.rest.vehicles) vs.steps.clear();
  return out;
}

Solution join_steps(const Problem& problem, const StepSplit& split, const Problem& rest,
                    const Solution& rest_solution, Timeline timeline) {
  auto origin = [&](std::size_t rt) {
    const Task& t = rest.task(rt);
    if (t.type == TaskType::Job) return split.jobs_origin[t.source_index];
    const std::size_t pickup = split.shipments_origin[t.source_index];
    return t.type == TaskType::Pickup ? pickup : problem.task(pickup).sibling;
  };
  std::vector<RoutePlan> plans = split.given;
  for (std::size_t v = 0; v < plans.size(); ++v) plans[v].vehicle = v;
  std::vector<char> has_rest(plans.size(), 0);
  for (const Route& r : rest_solution.routes) {
    const std::size_t given_breaks = static_cast<std::size_t>(
        std::count_if(split.given[r.vehicle].visits.begin(), split.given[r.vehicle].visits.end(),
                      [](const PlannedVisit& x) { return x.is_break; }));
    std::size_t next_break = given_breaks;
    for (const Step& st : r.steps) {
      if (st.type == StepType::Break)
        plans[r.vehicle].visits.push_back({true, next_break++});
      else if (st.task != kNone)
        plans[r.vehicle].visits.push_back({false, origin(st.task)});
    }
    has_rest[r.vehicle] = 1;
  }
  std::vector<Route> routes;
  for (std::size_t v = 0; v < plans.size(); ++v) {
    RoutePlan& plan = plans[v];
    if (plan.visits.empty()) continue;
    const Vehicle& veh = problem.vehicle(v);
    if (!has_rest[v]) {  // only steps: the breaks not given go after them
      std::size_t given_breaks = 0;
      for (const PlannedVisit& x : plan.visits) given_breaks += x.is_break ? 1 : 0;
      if (given_breaks > 0)
        for (std::size_t b = given_breaks; b < veh.breaks.size(); ++b)
          plan.visits.push_back({true, b});
    }
    ScheduleResult r = schedule_plan(problem, plan, timeline);
    if (!r.feasible && !has_rest[v]) {
      throw invalid_input(step_path(v, fixed_of(veh).back().step),
                          "the vehicle's breaks not given as steps do not fit after its steps");
    }
    if (!r.feasible)
      throw Error(ErrorCode::Internal, "steps: the route of vehicle " + std::to_string(veh.id) +
                                           " after its steps is infeasible (" +
                                           std::string(to_string(*r.violation)) + ")");
    routes.push_back(std::move(r.route));
  }
  std::vector<Unassigned> unassigned;
  for (const Unassigned& u : rest_solution.unassigned) {
    const std::size_t t = origin(u.task);
    if (problem.task(t).type == TaskType::Delivery && rest.task(u.task).type == TaskType::Job) {
      for (std::size_t v = 0; v < problem.vehicles().size(); ++v)
        for (const StepVisit& s : fixed_of(problem.vehicle(v)))
          if (!s.is_break && s.index == problem.task(t).sibling)
            throw invalid_input(
                step_path(v, s.step),
                "the delivery of the shipment picked up here cannot be routed after the steps (" +
                    std::string(to_string(u.reason)) + ")");
    }
    Unassigned out = u;
    out.task = t;
    out.id = problem.task(t).id;
    out.type = problem.task(t).type;
    unassigned.push_back(out);
  }
  Solution s = make_solution(problem, std::move(routes), std::move(unassigned));
  s.profile = rest_solution.profile;
  s.backend = rest_solution.backend;
  s.fallback = rest_solution.fallback;
  s.mismatches = rest_solution.mismatches;
  s.iterations = rest_solution.iterations;
  return s;
}

}  // namespace routesolve

namespace routesolve {
namespace {

/// The tasks of a vehicle's steps (the first `count` visits) in order, without the pickups whose
/// delivery is not among them (a fixed pickup may leave its delivery to the rest of the route).
std::vector<std::size_t> step_tasks(const Problem& problem, const Vehicle& veh, std::size_t count) {
  std::vector<std::size_t> tasks;
  for (std::size_t i = 0; i < count; ++i)
    if (!veh.steps[i].is_break) tasks.push_back(veh.steps[i].index);
  std::erase_if(tasks, [&](std::size_t t) {
    return problem.task(t).type == TaskType::Pickup &&
           std::find(tasks.begin(), tasks.end(), problem.task(t).sibling) == tasks.end();
  });
  return tasks;
}

}  // namespace

std::vector<std::vector<std::size_t>> starting_routes(const Problem& problem) {
  std::vector<std::vector<std::size_t>> out(problem.vehicles().size());
  for (std::size_t v = 0; v < problem.vehicles().size(); ++v) {
    const Vehicle& veh = problem.vehicle(v);
    if (veh.steps.size() == veh.fixed_steps) continue;
    check_order(problem, v, veh.steps);
    for (std::size_t i = veh.fixed_steps; i < veh.steps.size(); ++i) {
      const StepVisit& s = veh.steps[i];
      if (s.is_break) continue;
      const Task& task = problem.task(s.index);
      if (task.type == TaskType::Pickup &&
          std::none_of(veh.steps.begin() + static_cast<long>(i), veh.steps.end(),
                       [&](const StepVisit& x) { return !x.is_break && x.index == task.sibling; }))
        throw invalid_input(step_path(v, s.step) + ".id",
                            "pickup " + std::to_string(task.id) +
                                " is given without its delivery after it on this vehicle");
      out[v].push_back(s.index);
    }
    // The whole route of the steps must be feasible (VROOM refuses it otherwise); its breaks are
    // placed by the schedule, as VROOM places them for a starting solution.
    const ScheduleResult whole =
        schedule_route(problem, v, step_tasks(problem, veh, veh.steps.size()));
    if (whole.feasible) continue;
    // The first step whose prefix fails alone names the refusal; else the last (the end, or a
    // break not given, is what fails).
    std::size_t k = 1;
    UnassignedReason why = *whole.violation;
    for (; k < veh.steps.size(); ++k) {
      const ScheduleResult prefix = schedule_given(problem, v, k);
      if (!prefix.feasible) {
        why = *prefix.violation;
        break;
      }
    }
    throw invalid_input(step_path(v, veh.steps[std::min(k, veh.steps.size()) - 1].step),
                        "the vehicle's steps up to this one cannot be scheduled (" +
                            std::string(to_string(why)) + ")");
  }
  return out;
}

std::vector<std::vector<std::size_t>> rest_routes(
    const Problem& problem, const StepSplit& split, const Problem& rest,
    const std::vector<std::vector<std::size_t>>& routes) {
  std::vector<std::size_t> to_rest(problem.tasks().size(), kNone);
  for (std::size_t rt = 0; rt < rest.routable_tasks(); ++rt) {
    const Task& t = rest.task(rt);
    if (t.type == TaskType::Job) {
      to_rest[split.jobs_origin[t.source_index]] = rt;
    } else {
      const std::size_t pickup = split.shipments_origin[t.source_index];
      to_rest[t.type == TaskType::Pickup ? pickup : problem.task(pickup).sibling] = rt;
    }
  }
  std::vector<std::vector<std::size_t>> out(routes.size());
  for (std::size_t v = 0; v < routes.size(); ++v)
    for (std::size_t t : routes[v])
      if (to_rest[t] != kNone) out[v].push_back(to_rest[t]);
  return out;
}

}  // namespace routesolve
