// Problem::create, vehicles' given steps (VROOM `vehicles[].steps`): each step names a task of
// its type or one of the vehicle's breaks, once in the whole problem; `start` may only come
// first and `end` only last; breaks are given as the first ones of the vehicle, in its order.
// (Skills and a delivery before its pickup are what a plan may break: check mode reports them,
// solving mode refuses them in split_steps.)
// service_at / service_after / service_before bound the instant the step's service begins, so
// they are folded into the task's or break's time windows (every schedule, the search and the
// validator then respect them without knowing of steps). Every failure names
// vehicles[i].steps[k] and the field.

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "problem_build.hpp"

namespace routesolve {

using problem_build::idx;

namespace {

std::string_view step_name(VehicleStepType t) {
  switch (t) {
    case VehicleStepType::Start:
      return "start";
    case VehicleStepType::Job:
      return "job";
    case VehicleStepType::Pickup:
      return "pickup";
    case VehicleStepType::Delivery:
      return "delivery";
    case VehicleStepType::Break:
      return "break";
    case VehicleStepType::End:
      return "end";
  }
  return "?";
}

std::string window_text(const std::vector<TimeWindow>& windows) {
  std::string s;
  for (const TimeWindow& w : windows) {
    if (!s.empty()) s += ' ';
    s += '[';
    s += std::to_string(w.start);
    s += ", ";
    s += w.end >= kMaxTime ? std::string("open") : std::to_string(w.end);
    s += ']';
  }
  return s;
}

}  // namespace

void ProblemBuilder::add_steps() {
  std::map<std::pair<int, Id>, std::string> taken;  // (task type, id) -> the step that names it
  for (std::size_t v = 0; v < spec.vehicles.size(); ++v) {
    const VehicleSpec& vs = spec.vehicles[v];
    Vehicle& veh = pr.vehicles_[v];
    std::size_t breaks_given = 0;
    std::set<std::size_t> given_breaks;
    for (std::size_t k = 0; k < vs.steps.size(); ++k) {
      const VehicleStepSpec& st = vs.steps[k];
      const std::string base = idx(idx("vehicles", v) + ".steps", k);
      for (const auto& [value, field] :
           {std::pair{st.service_at, "service_at"}, std::pair{st.service_after, "service_after"},
            std::pair{st.service_before, "service_before"}})
        if (value) check.duration(*value, base + "." + field);
      if (st.type == VehicleStepType::Start) {
        if (k != 0) check.fail(base + ".type", "a start step must come first");
        continue;
      }
      if (st.type == VehicleStepType::End) {
        if (k + 1 != vs.steps.size()) check.fail(base + ".type", "an end step must come last");
        continue;
      }
      StepVisit visit;
      visit.step = k;
      std::vector<TimeWindow>* windows = nullptr;
      if (st.type == VehicleStepType::Break) {
        const auto it = std::find_if(veh.breaks.begin(), veh.breaks.end(),
                                     [&](const Break& b) { return b.id == st.id; });
        if (it == veh.breaks.end())
          check.fail(base + ".id", "vehicle " + std::to_string(veh.id) + " has no break " +
                                       std::to_string(st.id));
        const auto b = static_cast<std::size_t>(it - veh.breaks.begin());
        // Plan mode may leave breaks out (missing_break), never reorder them.
        if (spec.plan && b > breaks_given) breaks_given = b;
        if (b != breaks_given)
          check.fail(base + ".id",
                     b < breaks_given && !(spec.plan && !given_breaks.count(b))
                         ? "break " + std::to_string(st.id) + " is given twice"
                     : b < breaks_given
                         ? "break " + std::to_string(st.id) + " is given after break " +
                               std::to_string(veh.breaks[breaks_given - 1].id) +
                               ", which the vehicle takes later"
                         : "break " + std::to_string(st.id) + " is given before break " +
                               std::to_string(veh.breaks[breaks_given].id) +
                               ", which the vehicle takes first");
        given_breaks.insert(b);
        ++breaks_given;
        visit.is_break = true;
        visit.index = b;
        windows = &it->time_windows;
      } else {
        const TaskType type = st.type == VehicleStepType::Job      ? TaskType::Job
                              : st.type == VehicleStepType::Pickup ? TaskType::Pickup
                                                                   : TaskType::Delivery;
        const std::string what = std::string(step_name(st.type)) + " " + std::to_string(st.id);
        const std::size_t t = pr.find_task(type, st.id);
        if (t == kNone) check.fail(base + ".id", "no " + what + " in the problem");
        const auto [at, fresh] = taken.emplace(std::pair{static_cast<int>(type), st.id}, base);
        if (!fresh) check.fail(base + ".id", what + " is already given as " + at->second);
        visit.index = t;
        windows = &pr.tasks_[t].time_windows;
      }
      // Fold the service bounds into the windows (plan mode keeps them apart: plan_check.cpp).
      if (spec.plan) {
        veh.steps.push_back(visit);
        continue;
      }
      Duration lo = 0, hi = kMaxTime;
      if (st.service_at) lo = hi = *st.service_at;
      if (st.service_after) lo = std::max(lo, *st.service_after);
      if (st.service_before) hi = std::min(hi, *st.service_before);
      if (lo > 0 || hi < kMaxTime) {
        std::vector<TimeWindow> kept;
        for (const TimeWindow& w : *windows)
          if (std::max(w.start, lo) <= std::min(w.end, hi))
            kept.push_back({std::max(w.start, lo), std::min(w.end, hi)});
        if (kept.empty())
          check.fail(base + (st.service_at      ? ".service_at"
                             : st.service_after ? ".service_after"
                                                : ".service_before"),
                     "service cannot begin in [" + std::to_string(lo) + ", " +
                         (hi >= kMaxTime ? std::string("open") : std::to_string(hi)) +
                         "] and inside the windows " + window_text(*windows));
        *windows = std::move(kept);
      }
      veh.steps.push_back(visit);
    }
    // The fixed prefix: every visit up to the last step marked fixed.
    std::size_t last_fixed = 0;
    for (std::size_t k = 0; k < vs.steps.size(); ++k)
      if (vs.steps[k].fixed) last_fixed = k + 1;
    for (StepVisit& visit : veh.steps) {
      visit.fixed = visit.step < last_fixed;
      if (visit.fixed) ++veh.fixed_steps;
    }
  }
}

// The re-optimisation input (routesolve/reoptimise.hpp): `done` names tasks of the problem, once
// each; a vehicle's current_location is a place of the matrices and its current_load fits its
// capacity.
void ProblemBuilder::check_dispatch_state() {
  std::set<std::pair<int, Id>> seen;
  for (std::size_t k = 0; k < spec.done.size(); ++k) {
    const TaskRef& ref = spec.done[k];
    const std::string path = idx("done", k);
    const std::string what = std::string(to_string(ref.type)) + " " + std::to_string(ref.id);
    if (ref.type == TaskType::Reload) check.fail(path, "a reload is not a task to be done");
    if (pr.find_task(ref.type, ref.id) == kNone) check.fail(path, "unknown " + what);
    if (!seen.insert({static_cast<int>(ref.type), ref.id}).second)
      check.fail(path, what + " is given twice");
  }
  for (std::size_t v = 0; v < spec.vehicles.size(); ++v) {
    const VehicleSpec& vs = spec.vehicles[v];
    const std::string base = idx("vehicles", v);
    if (vs.current_location) (void)location(*vs.current_location, base + ".current_location");
    if (!vs.current_load) continue;
    check.amount(*vs.current_load, dims, base + ".current_load");
    const Amount& capacity = pr.vehicles_[v].capacity;
    for (std::size_t d = 0; d < vs.current_load->size(); ++d)
      if ((*vs.current_load)[d] > capacity[d])
        check.fail(idx(base + ".current_load", d), std::to_string((*vs.current_load)[d]) +
                                                       " exceeds the capacity " +
                                                       std::to_string(capacity[d]));
  }
}

}  // namespace routesolve
