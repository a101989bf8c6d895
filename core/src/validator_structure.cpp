// Validator, identities and structure: each route's vehicle, the placement of its start and end
// steps, the identity of every task and break step, skills, max_tasks; the unassigned list; every
// task routed or unassigned exactly once; both halves of a shipment on one route, pickup first.

#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "validator_detail.hpp"

namespace routesolve::validation {

void Validator::note_task(std::size_t t, Occurrence occ) {
  if (!seen_[t]) {
    seen_[t] = std::move(occ);
    return;
  }
  const Task& task = p_.task(t);
  report(ViolationKind::DuplicateTask, occ.where,
         std::string(to_string(task.type)) + " " + str(static_cast<std::int64_t>(task.id)) +
             " (task " + std::to_string(t) + ") already appears at " + seen_[t]->where);
}

/// Checks a step's task reference; returns the task index when usable, else kNone.
std::size_t Validator::check_task_step(const Step& step, const std::string& where) {
  const std::size_t n = p_.tasks().size();
  if (step.task >= n) {
    report(ViolationKind::UnknownTask, where,
           "task index " + str_index(step.task) + " out of range (" + std::to_string(n) +
               " tasks), id " + std::to_string(step.id));
    return kNone;
  }
  const Task& task = p_.task(step.task);
  const auto expected_type = task_type_of(step.type);
  if (!expected_type || *expected_type != task.type)
    report(ViolationKind::UnknownTask, where,
           "step type " + std::string(to_string(step.type)) + " but task " +
               std::to_string(step.task) + " is a " + std::string(to_string(task.type)));
  if (step.id != task.id)
    report(ViolationKind::UnknownTask, where,
           "id: expected " + std::to_string(task.id) + " (task " + std::to_string(step.task) +
               "), found " + std::to_string(step.id));
  return step.task;
}

void Validator::check_route(std::size_t r) {
  const Route& route = s_.routes[r];
  const std::string rw = route_where(r);
  const std::size_t nsteps = route.steps.size();

  // Vehicle identity.
  if (route.vehicle >= p_.vehicles().size()) {
    report(ViolationKind::UnknownVehicle, rw,
           "vehicle index " + str_index(route.vehicle) + " out of range (" +
               std::to_string(p_.vehicles().size()) + " vehicles), vehicle id " +
               std::to_string(route.vehicle_id));
    // Its tasks still count as present, so that they are not also reported missing.
    for (std::size_t i = 0; i < nsteps; ++i) {
      const Step& step = route.steps[i];
      if (!task_type_of(step.type)) continue;
      const std::size_t t = check_task_step(step, step_where(r, i));
      if (t != kNone) note_task(t, Occurrence{true, r, i, step_where(r, i)});
    }
    return;
  }
  const std::size_t v = route.vehicle;
  const Vehicle& veh = p_.vehicle(v);
  if (veh.id != route.vehicle_id)
    report(ViolationKind::UnknownVehicle, rw,
           "vehicle id: expected " + std::to_string(veh.id) + " (vehicle " + std::to_string(v) +
               "), found " + std::to_string(route.vehicle_id));
  if (vehicle_route_[v] != kNone)
    report(ViolationKind::DuplicateVehicle, rw,
           "vehicle " + std::to_string(veh.id) + " (vehicle " + std::to_string(v) +
               ") already used by " + route_where(vehicle_route_[v]));
  else
    vehicle_route_[v] = r;

  // Structure: start/end placement, task identities, break identities.
  std::optional<std::size_t> start_step, end_step, open_start, open_end;
  std::vector<Visit> visits;
  std::vector<int> break_seen(veh.breaks.size(), 0);
  std::size_t last_break = kNone;
  std::size_t task_count = 0, reloads = 0;
  for (std::size_t i = 0; i < nsteps; ++i) {
    const Step& step = route.steps[i];
    const std::string w = step_where(r, i);
    switch (step.type) {
      case StepType::Start:
        if (veh.start == kNone && i == 0)
          open_start = i;  // VROOM's start step of a route without start: at its first stop
        else if (veh.start == kNone)
          report(ViolationKind::BadStepOrder, w,
                 "start step but vehicle " + std::to_string(veh.id) + " has no start");
        else if (i != 0)
          report(ViolationKind::BadStepOrder, w,
                 "start step at position " + std::to_string(i) + ", expected 0");
        else {
          start_step = i;
          if (step.location != veh.start)
            report(ViolationKind::WrongLocation, w,
                   "location: expected vehicle start " + str_index(veh.start) + ", found " +
                       str_index(step.location));
        }
        break;
      case StepType::End:
        if (veh.end == kNone && i + 1 == nsteps)
          open_end = i;  // VROOM's end step of a route without end: at its last stop
        else if (veh.end == kNone)
          report(ViolationKind::BadStepOrder, w,
                 "end step but vehicle " + std::to_string(veh.id) + " has no end");
        else if (i + 1 != nsteps)
          report(ViolationKind::BadStepOrder, w,
                 "end step at position " + std::to_string(i) + ", expected last (" +
                     std::to_string(nsteps - 1) + ")");
        else {
          end_step = i;
          if (step.location != veh.end)
            report(ViolationKind::WrongLocation, w,
                   "location: expected vehicle end " + str_index(veh.end) + ", found " +
                       str_index(step.location));
        }
        break;
      case StepType::Job:
      case StepType::Pickup:
      case StepType::Delivery: {
        const std::size_t t = check_task_step(step, w);
        if (t == kNone) break;
        ++task_count;
        note_task(t, Occurrence{true, r, i, w});
        const Task& task = p_.task(t);
        if (!p_.compatible(v, t))
          report(ViolationKind::Skills, w,
                 "vehicle " + std::to_string(veh.id) + " lacks skills required by " +
                     std::string(to_string(task.type)) + " " + std::to_string(task.id));
        if (step.location != task.location)
          report(ViolationKind::WrongLocation, w,
                 "location: expected " + str_index(task.location) + " (" +
                     std::string(to_string(task.type)) + " " + std::to_string(task.id) +
                     "), found " + str_index(step.location));
        visits.push_back(Visit{VisitKind::Task, i, t});
        break;
      }
      case StepType::Reload: {
        const std::size_t t = check_task_step(step, w);
        if (t == kNone) break;
        ++reloads;
        note_task(t, Occurrence{true, r, i, w});
        if (!p_.compatible(v, t))
          report(ViolationKind::UnknownTask, w,
                 "reload task " + std::to_string(t) + " is not one of vehicle " +
                     std::to_string(veh.id) + "'s reloads");
        if (step.location != p_.task(t).location)
          report(ViolationKind::WrongLocation, w,
                 "location: expected reload location " + str_index(p_.task(t).location) +
                     ", found " + str_index(step.location));
        visits.push_back(Visit{VisitKind::Task, i, t});
        break;
      }
      case StepType::Break: {
        // The first not-yet-taken break of this id; breaks are taken in vehicle order.
        std::size_t b = kNone;
        bool known = false;
        for (std::size_t k = 0; k < veh.breaks.size(); ++k) {
          if (veh.breaks[k].id != step.id) continue;
          known = true;
          if (break_seen[k] == 0) {
            b = k;
            break;
          }
        }
        if (!known) {
          report(ViolationKind::UnknownTask, w,
                 "break id " + std::to_string(step.id) + " is not a break of vehicle " +
                     std::to_string(veh.id));
          break;
        }
        if (b == kNone) {
          report(ViolationKind::BreakMissing, w,
                 "break " + std::to_string(step.id) + " taken more than once");
          break;
        }
        if (last_break != kNone && b < last_break)
          report(ViolationKind::BreakMissing, w,
                 "break " + std::to_string(step.id) + " (breaks[" + std::to_string(b) +
                     "]) taken after breaks[" + std::to_string(last_break) +
                     "]: breaks must follow vehicle order");
        last_break = b;
        ++break_seen[b];
        visits.push_back(Visit{VisitKind::Break, i, b});
        break;
      }
      default:  // a value outside the enumeration, e.g. from a corrupted file
        report(ViolationKind::BadStepOrder, w,
               "unknown step type " + std::to_string(static_cast<int>(step.type)));
        break;
    }
  }
  if (veh.start != kNone && !start_step)
    report(ViolationKind::BadStepOrder, rw,
           "vehicle " + std::to_string(veh.id) + " has a start but steps[0] is not a start step");
  if (veh.end != kNone && !end_step)
    report(
        ViolationKind::BadStepOrder, rw,
        "vehicle " + std::to_string(veh.id) + " has an end but the last step is not an end step");
  if (task_count > 0)
    for (std::size_t k = 0; k < veh.breaks.size(); ++k)
      if (break_seen[k] == 0)
        report(ViolationKind::BreakMissing, rw,
               "break " + std::to_string(veh.breaks[k].id) + " (vehicle " + std::to_string(veh.id) +
                   " breaks[" + std::to_string(k) + "]) is not taken");
  if (veh.max_tasks != kNone && task_count > veh.max_tasks)
    report(ViolationKind::MaxTasks, rw,
           std::to_string(task_count) + " tasks, vehicle " + std::to_string(veh.id) + " allows " +
               std::to_string(veh.max_tasks));

  if (reloads + 1 > veh.max_trips)
    report(ViolationKind::MaxTrips, rw,
           std::to_string(reloads + 1) + " trips, vehicle " + std::to_string(veh.id) + " allows " +
               std::to_string(veh.max_trips));

  // The open route's markers stand where its first and last tasks are.
  const Visit* first = nullptr;
  const Visit* last = nullptr;
  for (const Visit& vis : visits)
    if (vis.kind == VisitKind::Task) {
      if (first == nullptr) first = &vis;
      last = &vis;
    }
  for (auto [marker, stop, name] :
       {std::tuple{open_start, first, "first"}, std::tuple{open_end, last, "last"}}) {
    if (!marker || stop == nullptr) continue;
    const std::size_t at = p_.task(stop->index).location;
    if (route.steps[*marker].location != at)
      report(ViolationKind::WrongLocation, step_where(r, *marker),
             std::string("location: expected the ") + name + " task's location " + str_index(at) +
                 " (vehicle " + std::to_string(veh.id) + " has no " +
                 (marker == open_start ? "start" : "end") + "), found " +
                 str_index(route.steps[*marker].location));
  }

  simulate(r, veh, v, Ends{start_step, end_step, open_start, open_end}, visits);
}

void Validator::check_unassigned() {
  const std::size_t n = p_.tasks().size();
  for (std::size_t k = 0; k < s_.unassigned.size(); ++k) {
    const Unassigned& u = s_.unassigned[k];
    const std::string w = "unassigned[" + std::to_string(k) + "]";
    if (u.task >= n) {
      report(ViolationKind::UnknownTask, w,
             "task index " + str_index(u.task) + " out of range (" + std::to_string(n) +
                 " tasks), id " + std::to_string(u.id));
      continue;
    }
    const Task& task = p_.task(u.task);
    if (task.type == TaskType::Reload)
      report(ViolationKind::UnknownTask, w,
             "task " + std::to_string(u.task) + " is a reload, never unassigned");
    if (u.type != task.type)
      report(ViolationKind::UnknownTask, w,
             "type: expected " + std::string(to_string(task.type)) + " (task " +
                 std::to_string(u.task) + "), found " + std::string(to_string(u.type)));
    if (u.id != task.id)
      report(ViolationKind::UnknownTask, w,
             "id: expected " + std::to_string(task.id) + " (task " + std::to_string(u.task) +
                 "), found " + std::to_string(u.id));
    note_task(u.task, Occurrence{false, 0, 0, w});
  }
}

void Validator::check_accounting() {
  if (!o_.require_all_tasks_accounted) return;
  for (std::size_t t = 0; t < seen_.size() && t < p_.routable_tasks(); ++t)  // reloads are optional
    if (!seen_[t]) {
      const Task& task = p_.task(t);
      report(ViolationKind::MissingTask, "tasks[" + std::to_string(t) + "]",
             std::string(to_string(task.type)) + " " + std::to_string(task.id) +
                 " is neither routed nor unassigned");
    }
}

void Validator::check_shipments() {
  for (std::size_t t = 0; t < seen_.size(); ++t) {
    const Task& pickup = p_.task(t);
    if (pickup.type != TaskType::Pickup || pickup.sibling >= seen_.size()) continue;
    const std::size_t d = pickup.sibling;
    const Task& delivery = p_.task(d);
    const auto& ps = seen_[t];
    const auto& ds = seen_[d];
    const bool p_routed = ps && ps->routed;
    const bool d_routed = ds && ds->routed;
    const std::string names =
        "pickup " + std::to_string(pickup.id) + " / delivery " + std::to_string(delivery.id);
    if (p_routed && d_routed) {
      if (ps->route != ds->route)
        report(ViolationKind::ShipmentSplit, ps->where,
               "shipment " + names + " split between " + route_where(ps->route) + " and " +
                   route_where(ds->route));
      else if (ps->position > ds->position)
        report(ViolationKind::ShipmentOrder, ds->where,
               "shipment " + names + ": delivery at " + ds->where + " before its pickup at " +
                   ps->where);
    } else if (p_routed != d_routed) {
      const Occurrence& routed = p_routed ? *ps : *ds;
      const auto& other = p_routed ? ds : ps;
      report(ViolationKind::ShipmentSplit, routed.where,
             "shipment " + names + ": only one half is routed, the other is " +
                 (other ? "at " + other->where : std::string("absent")));
    }
  }
}

}  // namespace routesolve::validation
