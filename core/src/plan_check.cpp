// Plan mode: the given steps as whole routes, with VROOM's violations instead of refusals
// (routesolve/plan_check.hpp).

#include "routesolve/plan_check.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "routesolve/hd/segment.hpp"

namespace routesolve {
namespace {

void add(std::vector<PlanViolation>& list, const std::string& cause, Duration duration = 0) {
  for (PlanViolation& v : list)
    if (v.cause == cause) {
      v.duration += duration;
      return;
    }
  list.push_back({cause, duration});
}

const TimeWindow* window_at(const std::vector<TimeWindow>& windows, Duration t) {
  for (const TimeWindow& w : windows)
    if (w.end >= t) return &w;
  return nullptr;
}

Distance pro_rata(Duration driven, Distance distance, Duration duration) {
  if (duration <= 0 || driven <= 0) return 0;
  return static_cast<Distance>(std::llround(static_cast<double>(driven * distance) / static_cast<double>(duration)));
}

bool fits(const Amount& load, const Amount& limit) {
  for (std::size_t d = 0; d < load.size() && d < limit.size(); ++d)
    if (load[d] > limit[d]) return false;
  return true;
}

Route check_route(const Problem& p, std::size_t v) {
  const Vehicle& veh = p.vehicle(v);
  const TravelView tv = p.travel(v);
  const std::size_t dims = p.dimensions();
  Route out;
  out.vehicle = v;
  out.vehicle_id = veh.id;
  out.cost = p.fixed_cost(v);
  out.delivery = Amount(dims);
  out.pickup = Amount(dims);

  std::map<std::size_t, std::size_t> position;  // task -> index among the visits
  Amount load(dims);
  std::size_t tasks = 0, breaks = 0;
  for (std::size_t i = 0; i < veh.steps.size(); ++i) {
    const StepVisit& s = veh.steps[i];
    if (s.is_break) {
      ++breaks;
      continue;
    }
    ++tasks;
    position[s.index] = i;
    if (p.task(s.index).type == TaskType::Job) load += p.task(s.index).delivery;
  }

  Duration t = veh.time_window.start, travel = 0;
  Distance distance = 0;
  std::size_t loc = veh.start;
  {
    Step st;
    st.type = StepType::Start;
    st.location = veh.start;
    st.arrival = t;
    st.load = load;
    if (!fits(load, veh.capacity)) add(st.violations, "load");
    if (veh.start != kNone) out.steps.push_back(st);
  }
  std::size_t visit = 0;
  for (;;) {
    // The visits up to the next task (breaks on the leg to it), or to the end.
    std::size_t next = visit;
    while (next < veh.steps.size() && veh.steps[next].is_break) ++next;
    const std::size_t to = next < veh.steps.size() ? p.task(veh.steps[next].index).location : veh.end;
    const bool moves = loc != kNone && to != kNone;
    const Duration leg = moves ? tv.duration(loc, to) : 0;
    const Distance leg_distance = moves && tv.distances ? tv.distance(loc, to) : 0;
    Duration left = leg;
    Distance leg_done = 0;
    for (; visit < next; ++visit) {
      const Break& b = veh.breaks[veh.steps[visit].index];
      Step st;
      st.type = StepType::Break;
      st.id = b.id;
      st.service = b.service;
      st.load = load;
      const TimeWindow* w = window_at(b.time_windows, t);
      LegBreak lb{t, 0, 0, t + b.service};
      if (w) lb = en_route_break(t, left, w->start, b.service);
      else add(st.violations, "delay", t - b.time_windows.back().end);
      if (b.max_load && !fits(load, *b.max_load)) add(st.violations, "max_load");
      left -= lb.driven;
      leg_done += pro_rata(lb.driven, leg_distance, leg);
      st.arrival = lb.arrival;
      st.waiting_time = lb.waiting;
      st.duration = travel + (leg - left);
      st.distance = distance + leg_done;
      out.service += b.service;
      out.waiting_time += lb.waiting;
      t = lb.end;
      out.steps.push_back(std::move(st));
    }
    if (moves) {
      travel += leg;
      distance += leg_distance;
      out.cost += tv.cost(loc, to);
    }
    const Duration arrival = t + left;
    if (next == veh.steps.size()) {
      if (veh.end != kNone) {
        Step st;
        st.type = StepType::End;
        st.location = veh.end;
        st.arrival = arrival;
        st.duration = travel;
        st.distance = distance;
        st.load = load;
        if (arrival > veh.time_window.end) add(st.violations, "delay", arrival - veh.time_window.end);
        out.steps.push_back(std::move(st));
      } else if (t > veh.time_window.end && !out.steps.empty()) {
        add(out.steps.back().violations, "delay", t - veh.time_window.end);
      }
      break;
    }
    const std::size_t ti = veh.steps[next].index;
    const Task& task = p.task(ti);
    Step st;
    st.type = task.type == TaskType::Job ? StepType::Job : task.type == TaskType::Pickup ? StepType::Pickup : StepType::Delivery;
    st.id = task.id;
    st.task = ti;
    st.location = task.location;
    st.arrival = arrival;
    st.setup = setup_from(loc == task.location, task.setup);
    st.service = task.service;
    Duration begin = arrival;
    if (const TimeWindow* w = window_at(task.time_windows, arrival)) begin = std::max(arrival, w->start);
    else add(st.violations, "delay", arrival - task.time_windows.back().end);
    st.waiting_time = begin - arrival;
    st.duration = travel;
    st.distance = distance;
    if (!p.compatible(v, ti)) add(st.violations, "skills");
    if (task.sibling != kNone) {
      const auto other = position.find(task.sibling);
      const bool ordered = other != position.end() &&
                           (task.type == TaskType::Pickup ? other->second > next : other->second < next);
      if (!ordered) add(st.violations, "precedence");
    }
    load -= task.delivery;
    load += task.pickup;
    st.load = load;
    if (!fits(load, veh.capacity)) add(st.violations, "load");
    out.setup += st.setup;
    out.service += task.service;
    out.waiting_time += st.waiting_time;
    out.delivery += task.delivery;
    out.pickup += task.pickup;
    out.priority += task.priority;
    t = begin + st.setup + task.service;
    loc = task.location;
    visit = next + 1;
    out.steps.push_back(std::move(st));
  }
  out.duration = travel;
  out.distance = distance;

  if (breaks < veh.breaks.size()) add(out.violations, "missing_break");
  if (veh.max_tasks != kNone && tasks > veh.max_tasks) add(out.violations, "max_tasks");
  if (travel > veh.max_travel_time) add(out.violations, "max_travel_time");
  if (distance > veh.max_distance) add(out.violations, "max_distance");
  for (const Step& st : out.steps)
    for (const PlanViolation& pv : st.violations) add(out.violations, pv.cause, pv.duration);
  return out;
}

}  // namespace

Solution check_plan(const Problem& problem) {
  Solution sol;
  sol.checked = true;
  const std::size_t dims = problem.dimensions();
  std::vector<char> routed(problem.tasks().size(), 0);
  Summary& sum = sol.summary;
  sum.delivery = Amount(dims);
  sum.pickup = Amount(dims);
  for (std::size_t v = 0; v < problem.vehicles().size(); ++v) {
    const Vehicle& veh = problem.vehicle(v);
    if (std::none_of(veh.steps.begin(), veh.steps.end(), [](const StepVisit& s) { return !s.is_break; })) continue;
    Route r = check_route(problem, v);
    for (const StepVisit& s : veh.steps)
      if (!s.is_break) routed[s.index] = 1;
    sum.cost += r.cost;
    sum.setup += r.setup;
    sum.service += r.service;
    sum.duration += r.duration;
    sum.waiting_time += r.waiting_time;
    sum.distance += r.distance;
    sum.delivery += r.delivery;
    sum.pickup += r.pickup;
    sum.priority += r.priority;
    for (const PlanViolation& pv : r.violations) add(sum.violations, pv.cause, pv.duration);
    sol.routes.push_back(std::move(r));
  }
  for (std::size_t t = 0; t < problem.tasks().size(); ++t) {
    if (routed[t]) continue;
    const Task& task = problem.task(t);
    sol.unassigned.push_back({t, task.id, task.type, UnassignedReason::NotRouted});
  }
  if (problem.spec().balance > 0.0) {  // the objective's balance term, as make_solution adds it
    for (const Route& r : sol.routes) sum.longest_working_time = std::max(sum.longest_working_time, working_time(problem, r));
    sum.balance_cost = problem.balance_cost(sum.longest_working_time);
    sum.cost += sum.balance_cost;
  }
  sum.routes = sol.routes.size();
  sum.unassigned = sol.unassigned.size();
  return sol;
}

}  // namespace routesolve
