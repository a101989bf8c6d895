// Plan mode: the given steps as whole routes, with VROOM's violations instead of refusals
// (routesolve/plan_check.hpp). The times come from plan_eta (the integer programme); this file
// lays each route out for it and reads the figures and violations off the times it chose.

#include "routesolve/plan_check.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "plan_eta.hpp"
#include "routesolve/error.hpp"
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

Distance pro_rata(Duration driven, Distance distance, Duration duration) {
  if (duration <= 0 || driven <= 0) return 0;
  return static_cast<Distance>(
      std::llround(static_cast<double>(driven * distance) / static_cast<double>(duration)));
}

bool fits(const Amount& load, const Amount& limit) {
  for (std::size_t d = 0; d < load.size() && d < limit.size(); ++d)
    if (load[d] > limit[d]) return false;
  return true;
}

/// Windows that can be broken: none for a step open all the time.
std::vector<TimeWindow> soft(const std::vector<TimeWindow>& windows) {
  if (windows.size() == 1 && windows[0].start <= 0 && windows[0].end >= kMaxTime) return {};
  return windows;
}

/// The hard bounds of a step as VROOM reads them: service_after and service_before replace
/// service_at's bound on their side.
void bound(plan_eta::Step& s, const VehicleStepSpec& spec) {
  if (spec.service_at) s.earliest = s.latest = *spec.service_at;
  if (spec.service_after) s.earliest = *spec.service_after;
  if (spec.service_before) s.latest = *spec.service_before;
}

std::string step_path(std::size_t v, std::size_t k) {
  return "vehicles[" + std::to_string(v) + "].steps[" + std::to_string(k) + "]";
}

/// VROOM bounds each step's start from below by the earliest starts before it, counting a leg's
/// whole travel after the last break on it (a break's service_after then pushes the next task
/// back by the whole leg, although the leg could be driven before the break). The bound decides
/// VROOM's answers, so it is kept here: it narrows `earliest` of a task or end after breaks.
void vroom_lower_bounds(plan_eta::Route& r) {
  Duration lb = 0, action = 0;
  std::size_t leg = 0;
  bool after_break = false;
  for (std::size_t i = 0; i < r.steps.size(); ++i) {
    plan_eta::Step& s = r.steps[i];
    Duration bound = std::max<Duration>(s.earliest, 0);
    if (i > 0) bound = std::max(bound, lb + action + (s.is_break ? 0 : r.legs[leg]));
    if (after_break && !s.is_break) s.earliest = std::max(s.earliest, bound);
    if (i > 0 && !s.is_break) ++leg;
    after_break = s.is_break;
    lb = bound;
    action = s.action;
  }
}

/// A step's given bounds: service_after (else service_at) below, service_before (else
/// service_at) above.
struct Forced {
  std::optional<Duration> after, before;
};

Forced forced_of(const VehicleStepSpec& spec) {
  Forced f;
  f.after = spec.service_after ? spec.service_after : spec.service_at;
  f.before = spec.service_before ? spec.service_before : spec.service_at;
  return f;
}

/// A plan route laid out for plan_eta: start, the visits, end; the legs between non-break steps.
struct Layout {
  plan_eta::Route route;
  std::vector<std::size_t>
      spec_step;  ///< each step's index in the vehicle's spec steps (kNone: implied)
  std::vector<std::size_t> locations;  ///< the matrix index of each non-break step (kNone: none)
  std::vector<Distance> leg_distance;
  std::vector<Forced> forced;  ///< each step's given service bounds, as VROOM reads them
};

Layout lay_out(const Problem& p, std::size_t v) {
  const Vehicle& veh = p.vehicle(v);
  const std::vector<VehicleStepSpec>& given = p.spec().vehicles[v].steps;
  const TravelView tv = p.travel(v);
  Layout l;
  plan_eta::Step start;
  if (veh.time_window.start > 0) start.windows = {{veh.time_window.start, kMaxTime}};
  std::size_t start_step = kNone, end_step = kNone;
  if (!given.empty() && given.front().type == VehicleStepType::Start) start_step = 0;
  if (!given.empty() && given.back().type == VehicleStepType::End) end_step = given.size() - 1;
  if (start_step != kNone) bound(start, given[start_step]);
  l.forced.push_back(start_step != kNone ? forced_of(given[start_step]) : Forced{});
  l.route.steps.push_back(start);
  l.spec_step.push_back(start_step);
  l.locations.push_back(veh.start);
  Duration route_time = 0;
  auto leg_to = [&](std::size_t to) {
    const std::size_t from = l.locations.back();
    const bool moves = from != kNone && to != kNone;
    l.route.legs.push_back(moves ? tv.duration(from, to) : 0);
    l.leg_distance.push_back(moves && tv.distances ? tv.distance(from, to) : 0);
    route_time += l.route.legs.back();
    l.locations.push_back(to);
  };
  for (const StepVisit& visit : veh.steps) {
    plan_eta::Step s;
    if (visit.is_break) {
      const Break& b = veh.breaks[visit.index];
      s.is_break = true;
      s.action = b.service;
      s.windows = soft(b.time_windows);
    } else {
      const Task& task = p.task(visit.index);
      s.action = setup_from(l.locations.back() == task.location, task.setup) + task.service;
      s.windows = soft(task.time_windows);
      leg_to(task.location);
    }
    route_time += s.action;
    bound(s, given[visit.step]);
    l.forced.push_back(forced_of(given[visit.step]));
    l.route.steps.push_back(s);
    l.spec_step.push_back(visit.step);
  }
  plan_eta::Step end;
  if (veh.time_window.end < kMaxTime) end.windows = {{0, veh.time_window.end}};
  if (end_step != kNone) bound(end, given[end_step]);
  l.forced.push_back(end_step != kNone ? forced_of(given[end_step]) : Forced{});
  leg_to(veh.end);
  l.route.steps.push_back(end);
  l.spec_step.push_back(end_step);
  vroom_lower_bounds(l.route);
  // VROOM's weight of a unit of violation: 100 makespan units (its time unit is 1/100 s) per
  // second of the route's travel and actions (of the data's span when the route takes no time).
  Duration span = route_time;
  if (span == 0) {
    Duration first = kMaxTime, last = 0;
    for (const plan_eta::Step& s : l.route.steps)
      for (const TimeWindow& w : s.windows)
        for (Duration t : {w.start, w.end})
          if (t < kMaxTime) first = std::min(first, t), last = std::max(last, t);
    span = first < last ? last - first : 1;
  }
  l.route.weight = 100.0 * static_cast<double>(span) / p.spec().scale.time;
  return l;
}

/// VROOM's violation of a soft start time against sorted windows: the lead to the first, the
/// delay past the last, the nearer of the two windows around it.
Duration window_violation(const std::vector<TimeWindow>& windows, Duration t) {
  if (windows.empty()) return 0;
  const auto w =
      std::find_if(windows.begin(), windows.end(), [&](const TimeWindow& c) { return t <= c.end; });
  if (w == windows.end()) return t - windows.back().end;
  if (t >= w->start) return 0;
  if (w == windows.begin()) return w->start - t;
  return std::min(t - std::prev(w)->end, w->start - t);
}

struct VroomBounds {
  std::size_t refused = kNone;  ///< the step to name when the bounds leave no solution
  std::vector<Duration> upper;  ///< VROOM's upper bound on each step's start
};

/// VROOM's bounds on the starts of a plan route, or the step its plan mode refuses as an
/// infeasible route because of its planning horizon. VROOM bounds each step's start by that horizon
/// unless the step has its own bound on that side: from the earliest window start of the vehicle
/// and its steps, less the lead its sample schedule allows, to the latest window end, plus the
/// delay it allows. A service_before before the horizon, or a service_after past it, then has no
/// solution.
VroomBounds vroom_bounds(const Layout& l, const Vehicle& veh) {
  const std::vector<plan_eta::Step>& st = l.route.steps;
  const std::size_t n = st.size();
  const TimeWindow& vtw = veh.time_window;
  const bool vehicle_window = vtw.start > 0 || vtw.end < kMaxTime;
  Duration hs = kMaxTime, he = 0;
  if (vehicle_window) hs = vtw.start, he = vtw.end;
  std::vector<Duration> rel(n, 0);  // start times with no waiting, the route leaving at 0
  Duration t = 0;
  for (std::size_t i = 0, leg = 0; i < n; ++i) {
    if (i > 0 && !st[i].is_break) t += l.route.legs[leg++];
    rel[i] = t;
    t += st[i].action;
    if (i > 0 && i + 1 < n && !st[i].windows.empty())
      hs = std::min(hs, st[i].windows.front().start), he = std::max(he, st[i].windows.back().end);
  }
  // VROOM's sample schedule: as early as the bounds and the vehicle's or the data's first window
  // allow; its total violation caps the lead allowed before the horizon.
  Duration candidate = kMaxTime;
  for (std::size_t i = 0; i < n; ++i)
    if (l.forced[i].before) {
      if (*l.forced[i].before < rel[i]) return {i, {}};
      candidate = std::min(candidate, *l.forced[i].before - rel[i]);
    }
  if (vehicle_window)
    candidate = std::min(candidate, vtw.start);
  else
    candidate = hs == kMaxTime ? 0 : std::min(candidate, hs);
  Duration sample = 0, at = candidate;
  std::vector<Duration> lead(n, 0), delay(n, 0);
  std::vector<bool> windowed(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) at += rel[i] - rel[i - 1];
    if (l.forced[i].after) at = std::max(at, *l.forced[i].after);
    if (l.forced[i].before && at > *l.forced[i].before) return {i, {}};
    if (i == 0 || i + 1 == n) {
      if (!vehicle_window) continue;
      windowed[i] = true;
      if (i == 0) sample += std::max<Duration>(vtw.start - at, 0), lead[i] = vtw.start - hs;
      if (i + 1 == n) sample += std::max<Duration>(at - vtw.end, 0), delay[i] = he - vtw.end;
    } else {
      sample += window_violation(st[i].windows, at);
      if (st[i].windows.empty()) continue;
      windowed[i] = true;
      lead[i] = st[i].windows.front().start - hs;
      delay[i] = he - st[i].windows.back().end;
    }
  }
  Duration margin = 0;
  for (std::size_t s = 0; s < n && hs < kMaxTime; ++s) {
    if (rel[s] > hs) {
      margin = 0;
      break;
    }
    margin = rel[s];
    Duration minimal_lead = 0;
    for (std::size_t u = 0; u <= s; ++u)
      minimal_lead += lead[u] + (windowed[u] ? rel[s] - rel[u] : 0);
    if (minimal_lead > sample) break;
  }
  hs = hs == kMaxTime ? 0 : hs - margin;  // no window anywhere: the horizon starts at 0
  for (std::size_t s = 0; s < n && he > 0; ++s) {
    const std::size_t r = n - 1 - s;
    margin = rel.back() - rel[r];
    Duration minimal_delay = 0;
    for (std::size_t u = r; u < n; ++u)
      minimal_delay += delay[u] + (windowed[u] ? rel[u] - rel[r] : 0);
    if (minimal_delay > sample) break;
  }
  he = he == 0 ? kMaxTime : he + margin;
  // VROOM's bounds on each start: the horizon (widened by each given bound on the way), or the
  // step's own bounds; the lower one raised by the lower bounds of the steps before it.
  Duration prev = hs, action = 0, travel = l.route.legs.empty() ? 0 : l.route.legs[0];
  std::vector<Duration> upper(n);
  std::size_t bounded = kNone;  // the last step with a bound of its own: the one to name
  for (std::size_t i = 0, leg = 0; i < n; ++i) {
    Duration lb = hs, &ub = upper[i];
    ub = he;
    const Forced& f = l.forced[i];
    if (f.after || f.before) bounded = i;
    if (f.after) hs = std::min(hs, *f.after), he = std::max(he, *f.after), lb = *f.after;
    if (f.before) hs = std::min(hs, *f.before), he = std::max(he, *f.before), ub = *f.before;
    if (i > 0) lb = std::max(lb, prev + action + (st[i].is_break ? 0 : travel));
    if (ub < lb) return {bounded == kNone ? i : bounded, {}};
    prev = lb;
    if (i + 1 < n) {
      action = st[i].action;
      if (!st[i].is_break) travel = l.route.legs[leg++];
    }
  }
  // Backward: each start no later than the next step's bound allows; after a break with room
  // to spare before its own bound, the travel that fits in that room is not counted.
  Duration next = upper.back(), spare = 0;
  for (std::size_t i = n - 1, leg = l.route.legs.size(); i-- > 0;) {
    if (!st[i].is_break) --leg;
    if (i == 0) {
      upper[0] = std::min(upper[0], next - l.route.legs[0]);
    } else if (!st[i].is_break) {
      const Duration travel = l.route.legs[leg];
      upper[i] = std::min(upper[i], next - (spare < travel ? travel - spare : 0) - st[i].action);
      spare = 0;
    } else if (upper[i] < next - st[i].action) {
      spare += next - st[i].action - upper[i];
    } else {
      upper[i] = next - st[i].action;
    }
    next = upper[i];
  }
  return {kNone, std::move(upper)};
}
void check_bounds(Layout& l, const Vehicle& veh, std::size_t v) {
  auto where = [&](std::size_t bad) {
    const std::size_t k = l.spec_step[bad];
    return k == kNone ? "vehicles[" + std::to_string(v) + "].steps" : step_path(v, k);
  };
  if (const std::size_t bad = plan_eta::first_unreachable(l.route); bad != kNone)
    throw invalid_input(
        where(bad),
        "infeasible route: the service_at / service_after / service_before bounds of the steps "
        "cannot all hold with the travel and service times between them");
  const VroomBounds vb = vroom_bounds(l, veh);
  // VROOM bounds the route's start by the next step's bound less the whole first leg, even when
  // that step is a break taken before the leg is driven; its answers follow that bound.
  std::size_t bad = vb.refused;
  if (bad == kNone && l.route.steps.size() > 2 && l.route.steps[1].is_break &&
      vb.upper[0] < std::min(l.route.steps[0].latest, kMaxTime / 2)) {
    l.route.steps[0].latest = vb.upper[0];
    if (plan_eta::first_unreachable(l.route) != kNone) bad = 0;
  }
  if (bad != kNone)
    throw invalid_input(where(bad),
                        "infeasible route: the step's service bounds lie outside the planning "
                        "horizon (the time windows of the vehicle and its steps, widened by the "
                        "lead and delay allowed), which VROOM refuses too");
}

Route check_route(const Problem& p, std::size_t v) {
  const Vehicle& veh = p.vehicle(v);
  const TravelView tv = p.travel(v);
  const std::size_t dims = p.dimensions();
  Layout l = lay_out(p, v);
  check_bounds(l, veh, v);
  const plan_eta::Times times = plan_eta::choose(l.route);
  const std::vector<plan_eta::Step>& ps = l.route.steps;

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
    position[s.index] = i;
    if (p.task(s.index).type == TaskType::Job) load += p.task(s.index).delivery;
  }
  auto time_violations = [&](Step& st, std::size_t i) {
    const Duration begin = times.begin[i];
    if (const Duration lead = plan_eta::lead_time(ps[i], times.window[i], begin); lead > 0)
      add(st.violations, "lead_time", lead);
    if (const Duration late = plan_eta::delay(ps[i], times.window[i], begin); late > 0)
      add(st.violations, "delay", late);
  };
  auto limits = [&](Step& st) {
    if (!fits(st.load, veh.capacity)) add(st.violations, "load");
    if (st.duration > veh.max_travel_time) add(st.violations, "max_travel_time");
    if (st.distance > veh.max_distance) add(st.violations, "max_distance");
  };

  Step first;
  first.type = StepType::Start;
  first.location = veh.start;
  first.arrival = times.begin[0];
  first.load = load;
  time_violations(first, 0);
  if (!fits(load, veh.capacity)) add(first.violations, "load");
  // A vehicle without a start has no start step; what it breaks goes to its first step.
  std::vector<PlanViolation> carried;
  if (veh.start != kNone)
    out.steps.push_back(std::move(first));
  else
    carried = std::move(first.violations);

  Duration travel = 0;
  Distance distance = 0, leg_done = 0;
  std::size_t leg = 0, loc = veh.start;
  for (std::size_t i = 1; i < ps.size(); ++i) {
    const Duration arrival = times.begin[i - 1] + ps[i - 1].action + times.travel_after[i - 1];
    const Duration driven = times.travel_after[i - 1];
    travel += driven;
    Step st;
    st.arrival = arrival;
    st.duration = travel;
    if (i + 1 == ps.size()) {  // the end
      distance += l.leg_distance[leg];
      out.cost += loc != kNone && veh.end != kNone ? tv.cost(loc, veh.end) : 0;
      st.type = StepType::End;
      st.location = veh.end;
      st.distance = distance;
      st.load = load;
      // The end is reached on arrival, whatever time the programme gave its slack.
      const Duration late = plan_eta::delay(ps[i], ps[i].windows.empty() ? kNone : 0, arrival);
      if (late > 0) add(st.violations, "delay", late);
      limits(st);
      if (veh.end != kNone)
        out.steps.push_back(std::move(st));
      else if (!out.steps.empty())
        for (const PlanViolation& pv : st.violations)
          add(out.steps.back().violations, pv.cause, pv.duration);
      break;
    }
    st.waiting_time = times.begin[i] - arrival;
    out.waiting_time += st.waiting_time;
    const StepVisit& visit = veh.steps[i - 1];
    if (visit.is_break) {
      const Break& b = veh.breaks[visit.index];
      leg_done += pro_rata(driven, l.leg_distance[leg], l.route.legs[leg]);
      st.type = StepType::Break;
      st.id = b.id;
      st.service = b.service;
      st.distance = distance + leg_done;
      st.load = load;
      time_violations(st, i);
      limits(st);
      if (b.max_load && !fits(load, *b.max_load)) add(st.violations, "max_load");
      out.service += b.service;
    } else {
      const Task& task = p.task(visit.index);
      distance += l.leg_distance[leg];
      if (loc != kNone) out.cost += tv.cost(loc, task.location);
      ++leg;
      leg_done = 0;
      loc = task.location;
      st.type = task.type == TaskType::Job      ? StepType::Job
                : task.type == TaskType::Pickup ? StepType::Pickup
                                                : StepType::Delivery;
      st.id = task.id;
      st.task = visit.index;
      st.location = task.location;
      st.service = task.service;
      st.setup = ps[i].action - task.service;
      st.distance = distance;
      load -= task.delivery;
      load += task.pickup;
      st.load = load;
      for (const PlanViolation& pv : carried) add(st.violations, pv.cause, pv.duration);
      carried.clear();
      time_violations(st, i);
      limits(st);
      if (!p.compatible(v, visit.index)) add(st.violations, "skills");
      if (veh.max_tasks != kNone && ++tasks > veh.max_tasks) add(st.violations, "max_tasks");
      if (task.sibling != kNone) {
        const auto other = position.find(task.sibling);
        const bool ordered =
            other != position.end() &&
            (task.type == TaskType::Pickup ? other->second > i - 1 : other->second < i - 1);
        if (!ordered) add(st.violations, "precedence");
      }
      out.setup += st.setup;
      out.service += task.service;
      out.delivery += task.delivery;
      out.pickup += task.pickup;
      out.priority += task.priority;
    }
    out.steps.push_back(std::move(st));
  }
  out.duration = travel;
  out.distance = distance;
  // VROOM's cost of a route priced per hour and per km (Problem::route_cost; plan mode rounds half
  // up).
  out.cost = p.route_cost(v, travel, distance, out.cost - p.fixed_cost(v));

  if (breaks < veh.breaks.size()) add(out.violations, "missing_break");
  for (const Step& st : out.steps)
    for (const PlanViolation& pv : st.violations) add(out.violations, pv.cause, pv.duration);
  return out;
}

Solution check_plan_built(const Problem& problem) {
  Solution sol;
  sol.checked = true;
  const std::size_t dims = problem.dimensions();
  std::vector<char> routed(problem.tasks().size(), 0);
  Summary& sum = sol.summary;
  sum.delivery = Amount(dims);
  sum.pickup = Amount(dims);
  for (std::size_t v = 0; v < problem.vehicles().size(); ++v) {
    const Vehicle& veh = problem.vehicle(v);
    if (std::none_of(veh.steps.begin(), veh.steps.end(),
                     [](const StepVisit& s) { return !s.is_break; }))
      continue;
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
    for (const Route& r : sol.routes)
      sum.longest_working_time = std::max(sum.longest_working_time, working_time(problem, r));
    sum.balance_cost = problem.balance_cost(sum.longest_working_time);
    sum.cost += sum.balance_cost;
  }
  sum.routes = sol.routes.size();
  sum.unassigned = sol.unassigned.size();
  return sol;
}

}  // namespace

Solution check_plan(const Problem& problem) {
  if (problem.spec().plan) return check_plan_built(problem);
  // Built for solving: the steps' service bounds were folded into the windows. Build it again
  // for plan mode, where they stay apart (the windows soft, the bounds hard).
  ProblemSpec spec = problem.spec();
  spec.plan = true;
  return check_plan_built(*Problem::create(std::move(spec)));
}

}  // namespace routesolve
