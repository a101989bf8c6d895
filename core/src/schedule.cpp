// Scheduling: the figures of a route from the order of its visits.
//
// Timing model (VROOM): the vehicle leaves its start at time_window.start. At a task,
//   arrival  = departure from the previous step + travel,
//   begin    = earliest instant >= arrival in one of the task's windows (first window whose
//              end >= arrival); waiting_time = begin - arrival,
//   departure = begin + setup + service, setup counted only when arriving from another location
//              (always for the first task of a route without start).
// The time windows bound the instant the work (setup, then service) begins. The route ends on
// arrival at the vehicle's end (or at the last departure of an open route), which must be
// <= time_window.end.
//
// Breaks (VROOM's model): a break taken between two stops is taken on the leg between them. With
// t the departure from the previous stop (or the end of the previous break on the same leg) and R
// the travel left on the leg, the break's window is the first whose end >= t. When that window is
// already open (start <= t) the break begins at t, before driving on. Otherwise the vehicle drives
// towards the next stop until the window opens (min(start - t, R)), stops there, waits whatever
// the drive did not fill, and takes the break at the window start. After the break the remaining
// travel R is driven. The break step reports that arrival and waiting, the travel done so far as
// `duration`, and the distance so far with the part of the leg driven before the break counted pro
// rata temporis (rounded to the nearest unit per break, VROOM's step formatting).
//
// Waiting is always allowed and no constraint penalises being early, so the earliest schedule of
// a fixed order decides feasibility and the route's earliest end. Breaks are placed by an exact DP
// over (tasks done, breaks taken): the state that leaves a stop depends only on its arrival there,
// and the breaks taken on one leg form a chain from the number done when the leg began, so each
// (leg, breaks) cell keeps the earliest arrival over the chains that reach it; O(tasks x breaks^2).
//
// Checks run cheapest and most static first, and the first failure is the reported violation:
// skills, shipment pairing/order (and duplicates: reported as NotRouted, which has no better
// name), max_tasks, capacity, unreachable arcs, max_travel_time, max_distance, time windows,
// breaks. Infeasible calls allocate nothing after warm-up (thread-local scratch).
//
// Timelines (Timeline): Earliest reports that schedule, leaving at time_window.start. Vroom reports
// VROOM's: the same earliest end, every step as late as that end allows (latest_start: a backward
// pass from the end, each break and task at the latest instant its windows and what follows
// allow), then every step as early as possible from that departure, so that waiting is as small
// as the order allows. Both have the same feasibility, end, travel, distance and cost.
//
// The load and visit-timing arithmetic (LoadProfile, visit_time, en_route_break) is
// routesolve/hd/segment.hpp, the one the segment models and the batched insertion pricing use.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "routesolve/error.hpp"
#include "routesolve/hd/segment.hpp"
#include "routesolve/solution.hpp"
#include "schedule_detail.hpp"

namespace routesolve {
namespace {

using schedule_detail::check_static;
using schedule_detail::kInf;
using schedule_detail::Reason;
using schedule_detail::Scratch;
using schedule_detail::scratch;
using schedule_detail::zero;

/// The first window of a break still open at t (end >= t), or null.
const TimeWindow* window_at(const std::vector<TimeWindow>& windows, Duration t) {
  for (const TimeWindow& w : windows)
    if (w.end >= t) return &w;
  return nullptr;
}

/// The distance of `driven` travel units on a leg of `duration` and `distance`, pro rata
/// temporis, rounded to the nearest unit (halves away from zero), as VROOM reports break steps.
Distance pro_rata(Duration driven, Distance distance, Duration duration) {
  if (duration <= 0 || driven <= 0) return 0;
  return static_cast<Distance>(
      std::llround(static_cast<double>(driven * distance) / static_cast<double>(duration)));
}

/// One task of a route reached at `arrival` from `from`: its begin (kInf when every window has
/// closed) and departure, in visit_time's model.
VisitTime visit_task(const Task& task, std::size_t from, Duration arrival) {
  VisitTime out;
  for (const TimeWindow& w : task.time_windows)
    if (w.end >= arrival)
      return visit_time(arrival, w.start, w.end, setup_from(from == task.location, task.setup),
                        task.service);
  out.begin = kInf;
  out.in_window = false;
  return out;
}

ScheduleResult infeasible(UnassignedReason reason) {
  ScheduleResult r;
  r.feasible = false;
  r.violation = reason;
  return r;
}

/// Timed pass over tasks with breaks_at[i] breaks taken after i tasks (null: no breaks), leaving
/// at `depart` (>= time_window.start). Builds the route's steps and totals into `out` when given
/// and sets *end to the route's end when given. Requires check_static() to have passed on the
/// same tasks (its load profile gives the start load).
Reason simulate(const Problem& p, std::size_t v, const std::size_t* tasks, std::size_t n,
                const std::size_t* breaks_at, Scratch& s, Route* out, Duration depart,
                Duration* end = nullptr) {
  const Vehicle& veh = p.vehicle(v);
  const TravelView tv = p.travel(v);
  const std::size_t dims = p.dimensions();
  const std::size_t breaks = veh.breaks.size();
  const Duration horizon = veh.time_window.end;

  Duration t = depart;
  std::size_t loc = veh.start;
  Duration travel = 0;
  Distance distance = 0;
  Amount load;
  if (out) {
    out->vehicle = v;
    out->vehicle_id = veh.id;
    out->steps.clear();
    out->steps.reserve(n + breaks + 2);
    out->cost = p.fixed_cost(v);
    out->setup = out->service = out->duration = out->waiting_time = 0;
    out->distance = 0;
    out->delivery = Amount(dims);
    out->pickup = Amount(dims);
    out->priority = 0;
    load = Amount(dims);  // on board at the start: the first trip's carried load (check_static)
    for (std::size_t d = 0; d < dims; ++d) load[d] = s.trip_carried[d];
    if (veh.start != kNone) {
      Step st;
      st.type = StepType::Start;
      st.location = veh.start;
      st.arrival = t;
      st.load = load;
      out->steps.push_back(std::move(st));
    }
  }

  std::size_t next_break = 0;
  std::size_t trips_begun = 0;
  for (std::size_t i = 0;; ++i) {
    // Leg i: to task i, or to the end after the last task.
    const std::size_t to = i < n ? p.task(tasks[i]).location : veh.end;
    const bool moves = loc != kNone && to != kNone;
    const Duration leg = moves ? tv.duration(loc, to) : 0;
    const Distance leg_distance = moves ? tv.distance(loc, to) : 0;
    Duration left = leg;
    Distance leg_done = 0;
    // Breaks on this leg, each where VROOM takes it (hd/segment.hpp: en_route_break).
    const std::size_t take = breaks_at ? breaks_at[i] : 0;
    for (std::size_t c = 0; c < take; ++c, ++next_break) {
      const Break& b = veh.breaks[next_break];
      if (!s.load_ok[i * breaks + next_break]) return UnassignedReason::Break;
      const TimeWindow* w = window_at(b.time_windows, t);
      if (!w) return UnassignedReason::Break;
      const LegBreak lb = en_route_break(t, left, w->start, b.service);
      left -= lb.driven;
      if (out) {
        leg_done += pro_rata(lb.driven, leg_distance, leg);
        Step st;
        st.type = StepType::Break;
        st.id = b.id;
        st.arrival = lb.arrival;
        st.service = b.service;
        st.waiting_time = lb.waiting;
        st.duration = travel + (leg - left);
        st.distance = distance + leg_done;
        st.load = load;
        out->service += b.service;
        out->waiting_time += lb.waiting;
        out->steps.push_back(std::move(st));
      }
      t = lb.end;
      if (t > horizon) return UnassignedReason::Break;
    }
    if (i == n) {
      if (moves) {
        t += left;
        travel += leg;
        distance += leg_distance;
        if (out) out->cost += tv.cost(loc, veh.end);
      }
      break;
    }

    const std::size_t ti = tasks[i];
    const Task& task = p.task(ti);
    const Duration arrival = t + left;
    if (moves) {
      travel += leg;
      distance += leg_distance;
      if (out) out->cost += tv.cost(loc, task.location);
    }
    const Duration setup = setup_from(loc == task.location, task.setup);
    const VisitTime visit = visit_task(task, loc, arrival);
    const Duration begin = visit.begin;
    if (!visit.in_window || begin > horizon) return UnassignedReason::TimeWindow;
    t = visit.departure;
    if (out) {
      const bool job = task.type == TaskType::Job;
      if (task.type == TaskType::Reload) {
        ++trips_begun;
        for (std::size_t d = 0; d < dims; ++d) load[d] = s.trip_carried[trips_begun * dims + d];
      } else {
        for (std::size_t d = 0; d < dims; ++d)
          load[d] = load_after(load[d], visit_load(task.delivery[d], task.pickup[d], job));
      }
      Step st;
      st.type = task.type == TaskType::Job        ? StepType::Job
                : task.type == TaskType::Pickup   ? StepType::Pickup
                : task.type == TaskType::Delivery ? StepType::Delivery
                                                  : StepType::Reload;
      st.id = task.id;
      st.task = ti;
      st.location = task.location;
      st.arrival = arrival;
      st.setup = setup;
      st.service = task.service;
      st.waiting_time = begin - arrival;
      st.duration = travel;
      st.distance = distance;
      st.load = load;
      out->setup += setup;
      out->service += task.service;
      out->waiting_time += begin - arrival;
      out->delivery += task.delivery;
      out->pickup += task.pickup;
      out->priority += task.priority;
      out->steps.push_back(std::move(st));
    }
    loc = task.location;
  }

  if (t > horizon) return UnassignedReason::TimeWindow;
  // Measured from the shift start whatever the timeline, so that feasibility does not depend on it.
  if (t - veh.time_window.start > veh.max_working_time) return UnassignedReason::MaxWorkingTime;
  if (end) *end = t;
  if (out) {
    if (veh.end != kNone) {
      Step st;
      st.type = StepType::End;
      st.location = veh.end;
      st.arrival = t;
      st.duration = travel;
      st.distance = distance;
      st.load = load;
      out->steps.push_back(std::move(st));
    }
    out->duration = travel;
    out->distance = distance;
    out->cost = p.route_cost(v, travel, distance, out->cost - p.fixed_cost(v));
  }
  return std::nullopt;
}

/// Exact break placement over legs (leg i leads to task i, leg n to the end): enter[i][k] is the
/// earliest departure onto leg i with k breaks done, reach[i][k] the earliest arrival at the end
/// of leg i with k breaks done (the breaks k0..k-1 taken on the leg, from the best k0) and
/// from[i][k] that k0. Fills scratch.breaks_at; false when no placement is feasible.
bool place_breaks(const Problem& p, std::size_t v, const std::size_t* tasks, std::size_t n,
                  Scratch& s) {
  const Vehicle& veh = p.vehicle(v);
  const TravelView tv = p.travel(v);
  const std::size_t breaks = veh.breaks.size();
  const std::size_t width = breaks + 1;
  const Duration horizon = veh.time_window.end;
  s.dp.assign(2 * (n + 1) * width, kInf);
  Duration* enter = s.dp.data();
  Duration* reach = enter + (n + 1) * width;
  s.from.assign((n + 1) * width, 0);
  enter[0] = veh.time_window.start;

  for (std::size_t i = 0; i <= n; ++i) {
    const std::size_t from_loc = i == 0 ? veh.start : p.task(tasks[i - 1]).location;
    const std::size_t to_loc = i < n ? p.task(tasks[i]).location : veh.end;
    const Duration leg = from_loc != kNone && to_loc != kNone ? tv.duration(from_loc, to_loc) : 0;
    for (std::size_t k0 = 0; k0 <= breaks; ++k0) {
      Duration t = enter[i * width + k0];
      if (t == kInf) continue;
      Duration arrival = t + leg;  // t + the travel left
      for (std::size_t k = k0;; ++k) {
        // Ties go to the earlier k0: the breaks are then taken as late as the schedule allows.
        Duration& best = reach[i * width + k];
        if (arrival < best) {
          best = arrival;
          s.from[i * width + k] = k0;
        }
        if (k == breaks || !s.load_ok[i * breaks + k]) break;
        const Break& b = veh.breaks[k];
        const TimeWindow* w = window_at(b.time_windows, t);
        if (!w) break;
        const LegBreak lb = en_route_break(t, arrival - t, w->start, b.service);
        arrival = std::max(arrival + b.service, lb.end);
        t = lb.end;
        if (t > horizon) break;
      }
    }
    if (i == n) break;
    for (std::size_t k = 0; k <= breaks; ++k) {
      const Duration arrival = reach[i * width + k];
      if (arrival == kInf) continue;
      const VisitTime visit = visit_task(p.task(tasks[i]), from_loc, arrival);
      if (visit.in_window && visit.begin <= horizon) enter[(i + 1) * width + k] = visit.departure;
    }
  }

  const Duration end = reach[n * width + breaks];
  if (end == kInf || end > horizon) return false;
  s.earliest_end = end;
  s.breaks_at.assign(n + 1, 0);
  for (std::size_t i = n + 1, k = breaks; i-- > 0;) {
    const std::size_t k0 = s.from[i * width + k];
    s.breaks_at[i] = k - k0;
    k = k0;
  }
  return true;
}

/// The last window of `windows` opening at or before t, or null.
const TimeWindow* last_window_from(const std::vector<TimeWindow>& windows, Duration t) {
  for (std::size_t k = windows.size(); k-- > 0;)
    if (windows[k].start <= t) return &windows[k];
  return nullptr;
}

/// VROOM's departure: the latest instant the vehicle can leave and still end at `end` (the
/// earliest end), from a backward pass over the legs. `t` is the latest instant the step after
/// the current leg may begin; on each leg, each break (last first) begins as late as t and its
/// windows allow, and where a window forces it earlier the gap is driven after it (up to the
/// travel left on the leg); the task before the leg then begins at the latest instant that leaves
/// its setup, service and the leg's remaining travel, inside a window. Falls back to the shift
/// start where no window fits (the earliest schedule's own departure).
Duration latest_start(const Problem& p, std::size_t v, const std::size_t* tasks, std::size_t n,
                      const std::size_t* breaks_at, Duration end) {
  const Vehicle& veh = p.vehicle(v);
  const TravelView tv = p.travel(v);
  std::size_t next_break = 0;
  if (breaks_at)
    for (std::size_t i = 0; i <= n; ++i) next_break += breaks_at[i];
  Duration t = end;
  for (std::size_t i = n;; --i) {  // leg i leads to task i (to the end for i == n)
    const std::size_t from = i == 0 ? veh.start : p.task(tasks[i - 1]).location;
    const std::size_t to = i < n ? p.task(tasks[i]).location : veh.end;
    Duration left = from != kNone && to != kNone ? tv.duration(from, to) : 0;
    const std::size_t take = breaks_at ? breaks_at[i] : 0;
    for (std::size_t c = 0; c < take; ++c) {
      const Break& b = veh.breaks[--next_break];
      t -= b.service;
      const TimeWindow* w = last_window_from(b.time_windows, t);
      if (!w) return veh.time_window.start;
      if (w->end < t) {
        left -= std::min(t - w->end, left);
        t = w->end;
      }
    }
    if (i == 0) {
      t -= left;
      break;
    }
    const Task& task = p.task(tasks[i - 1]);
    const std::size_t before = i == 1 ? veh.start : p.task(tasks[i - 2]).location;
    const Duration candidate =
        t - (setup_from(before == task.location, task.setup) + task.service + left);
    const TimeWindow* w = last_window_from(task.time_windows, candidate);
    if (!w) return veh.time_window.start;
    t = std::min(candidate, w->end);
  }
  return std::max(t, veh.time_window.start);
}

ScheduleResult build(const Problem& p, std::size_t v, const std::size_t* tasks, std::size_t n,
                     const std::size_t* breaks_at, Scratch& s, Timeline timeline, Duration end) {
  ScheduleResult result;
  const Duration depart = timeline == Timeline::Vroom ? latest_start(p, v, tasks, n, breaks_at, end)
                                                      : p.vehicle(v).time_window.start;
  if (simulate(p, v, tasks, n, breaks_at, s, &result.route, depart))
    throw Error(ErrorCode::Internal, "schedule: a feasible schedule failed when built");
  result.feasible = true;
  return result;
}

ScheduleResult empty_route(const Problem& p, std::size_t v) {
  ScheduleResult result;
  result.feasible = true;
  result.route.vehicle = v;
  result.route.vehicle_id = p.vehicle(v).id;
  result.route.delivery = Amount(p.dimensions());
  result.route.pickup = Amount(p.dimensions());
  return result;
}

ScheduleResult schedule_tasks(const Problem& p, std::size_t v, const std::size_t* tasks,
                              std::size_t n, Timeline timeline) {
  if (v >= p.vehicles().size())
    throw Error(ErrorCode::Internal, "schedule: vehicle index out of range");
  if (n == 0) return empty_route(p, v);
  Scratch& s = scratch();
  const Duration shift_start = p.vehicle(v).time_window.start;
  if (const Reason r = check_static(p, v, tasks, n, s)) return infeasible(*r);
  Duration end = 0;
  if (const Reason r = simulate(p, v, tasks, n, nullptr, s, nullptr, shift_start, &end))
    return infeasible(*r);
  if (p.vehicle(v).breaks.empty()) return build(p, v, tasks, n, nullptr, s, timeline, end);
  if (!place_breaks(p, v, tasks, n, s)) return infeasible(UnassignedReason::Break);
  return build(p, v, tasks, n, s.breaks_at.data(), s, timeline, s.earliest_end);
}

}  // namespace

ScheduleResult schedule_route(const Problem& problem, std::size_t vehicle,
                              const std::vector<std::size_t>& tasks, Timeline timeline) {
  return schedule_tasks(problem, vehicle, tasks.data(), tasks.size(), timeline);
}

bool route_feasible(const Problem& problem, std::size_t vehicle,
                    const std::vector<std::size_t>& tasks) {
  if (vehicle >= problem.vehicles().size())
    throw Error(ErrorCode::Internal, "schedule: vehicle index out of range");
  const std::size_t n = tasks.size();
  if (n == 0) return true;
  Scratch& s = scratch();
  if (check_static(problem, vehicle, tasks.data(), n, s)) return false;
  if (simulate(problem, vehicle, tasks.data(), n, nullptr, s, nullptr,
               problem.vehicle(vehicle).time_window.start))
    return false;
  return problem.vehicle(vehicle).breaks.empty() ||
         place_breaks(problem, vehicle, tasks.data(), n, s);
}

ScheduleResult schedule_plan(const Problem& problem, const RoutePlan& plan, Timeline timeline) {
  const std::size_t v = plan.vehicle;
  if (v >= problem.vehicles().size())
    throw Error(ErrorCode::Internal, "schedule: vehicle index out of range");
  const Vehicle& veh = problem.vehicle(v);
  Scratch& s = scratch();

  std::size_t break_visits = 0;
  for (const PlannedVisit& visit : plan.visits) break_visits += visit.is_break ? 1 : 0;
  // Task indices in order; schedule_tasks() uses the other scratch buffers only.
  std::vector<std::size_t>& tasks = s.plan_tasks;
  tasks.clear();
  for (const PlannedVisit& visit : plan.visits)
    if (!visit.is_break) tasks.push_back(visit.index);
  const std::size_t n = tasks.size();
  if (break_visits == 0)
    return schedule_tasks(problem, v, tasks.data(), n, timeline);  // breaks left to us

  // Breaks given: every break of the vehicle, once, in the vehicle's order.
  if (break_visits != veh.breaks.size()) return infeasible(UnassignedReason::Break);
  std::vector<std::size_t>& breaks_at = s.plan_breaks_at;
  breaks_at.assign(n + 1, 0);
  std::size_t done = 0, expected = 0;
  for (const PlannedVisit& visit : plan.visits) {
    if (!visit.is_break) {
      ++done;
      continue;
    }
    if (visit.index != expected) return infeasible(UnassignedReason::Break);
    ++expected;
    ++breaks_at[done];
  }
  if (n == 0) return empty_route(problem, v);
  if (const Reason r = check_static(problem, v, tasks.data(), n, s)) return infeasible(*r);
  const Duration shift_start = veh.time_window.start;
  Duration end = 0;
  if (const Reason r =
          simulate(problem, v, tasks.data(), n, breaks_at.data(), s, nullptr, shift_start, &end)) {
    // A task window missed only because of the breaks is reported as a break violation.
    if (*r == UnassignedReason::TimeWindow &&
        !simulate(problem, v, tasks.data(), n, nullptr, s, nullptr, shift_start))
      return infeasible(UnassignedReason::Break);
    return infeasible(*r);
  }
  return build(problem, v, tasks.data(), n, breaks_at.data(), s, timeline, end);
}

}  // namespace routesolve
