// Validator, schedule: replays one route from the problem's travel data. With figures checked,
// the reported times are the timeline and each is checked for feasibility and for agreement with
// an earliest-time schedule; otherwise the validator builds that schedule itself and checks only
// feasibility. Either way: time windows, breaks, capacity, reachability, route limits, totals.
//
// Breaks follow VROOM's model: a break between two stops is taken on the leg between them, after
// driving part of it (at most all of it). A reported break is accepted when its arrival lies
// between the previous departure and that departure plus the travel left on the leg; the next
// stop is then reached when the remaining travel is driven after the break. The break's
// cumulative duration counts the travel driven so far and its distance the driven part of the
// leg pro rata temporis, rounded to the nearest unit per break (as VROOM formats its steps).

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "validator_detail.hpp"

namespace routesolve::validation {

Arc Validator::arc(const TravelView& tv, std::size_t from, std::size_t to) const {
  Arc a;
  if (from == kNone) return a;  // first task of a route without start: no travel
  if (from >= tv.n || to >= tv.n || !tv.durations) {
    a.unreachable = true;
    a.duration = kUnreachable;
    return a;
  }
  a.duration = tv.duration(from, to);
  // A profile without distances has a table of zeros; others keep theirs even when the problem
  // as a whole reports none (Problem::has_distances: some profile lacks them), as the schedule
  // does, so that max_distance is checked on the profiles that have distances.
  a.distance = tv.distances ? tv.distance(from, to) : 0;
  a.cost = tv.costs ? tv.cost(from, to) : 0;
  a.unreachable =
      a.duration >= kUnreachable || a.distance >= kUnreachable || a.cost >= kUnreachable;
  return a;
}

namespace {

/// round(driven * distance / duration), halves up, without floating point: the distance of the
/// part of a leg driven before a break.
__extension__ typedef __int128 Wide;  // driven * distance may not fit 64 bits

Distance leg_share(Duration driven, Distance distance, Duration duration) {
  if (duration <= 0 || driven <= 0 || distance <= 0) return 0;
  const Wide num = static_cast<Wide>(driven) * distance * 2 + duration;
  return static_cast<Distance>(num / (static_cast<Wide>(duration) * 2));
}

}  // namespace

/// Replays the route in time, load, travel and cost.
void Validator::simulate(std::size_t r, const Vehicle& veh, std::size_t v, const Ends& ends,
                         const std::vector<Visit>& visits) {
  const std::optional<std::size_t> start_step = ends.start, end_step = ends.end;
  const Route& route = s_.routes[r];
  const std::string rw = route_where(r);
  const bool figures = o_.check_figures;
  const TravelView tv = p_.travel(v);
  const std::size_t dims = p_.dimensions();

  // Load carried from the start: every job's delivery up to the first reload; at a reload the
  // vehicle unloads and takes every job's delivery up to the next reload (multi-trip).
  auto trip_load = [&](std::size_t from) {
    Load out(dims, 0);
    for (std::size_t k = from; k < visits.size(); ++k) {
      if (visits[k].kind != VisitKind::Task) continue;
      const Task& t = p_.task(visits[k].index);
      if (t.type == TaskType::Reload) break;
      if (t.type == TaskType::Job) add_into(out, t.delivery, +1);
    }
    return out;
  };
  Load load = trip_load(0);

  Duration travel_total = 0, setup_total = 0, service_total = 0, waiting_total = 0;
  Distance distance_total = 0;
  Cost cost_total = p_.fixed_cost(v);
  Load delivery_total(dims, 0), pickup_total(dims, 0);

  // The leg a break is taken on: opened by the first break after a stop, closed by the next stop.
  bool leg_open = false;
  Duration leg_duration = 0, leg_left = 0;
  Distance leg_distance = 0, leg_done = 0;

  auto check_step_figures = [&](const Step& step, const std::string& w) {
    if (!figures) return;
    const Duration driven = leg_open ? leg_duration - leg_left : 0;
    expect_equal(ViolationKind::DurationMismatch, w, "cumulative travel duration",
                 sat_add(travel_total, driven), step.duration);
    expect_equal(ViolationKind::DistanceMismatch, w, "cumulative distance",
                 sat_add(distance_total, leg_open ? leg_done : 0), step.distance);
    if (!step.load.empty() && !same(load, step.load))
      report(ViolationKind::LoadMismatch, w,
             "load: expected " + str(load) + ", found " + str(step.load));
  };
  auto check_capacity = [&](const std::string& w) {
    if (!fits(load, veh.capacity))
      report(ViolationKind::Capacity, w,
             "load " + str(load) + " exceeds capacity " + str(veh.capacity) + " of vehicle " +
                 std::to_string(veh.id));
  };

  // Start: the vehicle leaves no earlier than its window opens.
  Duration departure = veh.time_window.start;
  Duration leaves = veh.time_window.start;  // for the working time
  bool anchored = false;  // departure is a reported/earliest instant, not just a lower bound
  std::size_t location = veh.start;
  {
    const std::string w = start_step ? step_where(r, *start_step) : rw;
    if (start_step) {
      const Step& step = route.steps[*start_step];
      if (figures) {
        if (step.arrival < veh.time_window.start)
          report(ViolationKind::VehicleTimeWindow, w,
                 "leaves at " + str(step.arrival) + ", before vehicle " + std::to_string(veh.id) +
                     " time window start " + str(veh.time_window.start));
        else
          departure = leaves = step.arrival;
        anchored = true;
      }
      check_step_figures(step, w);
    } else if (ends.open_start) {
      // VROOM's marker of a route without start: the vehicle appears at its first stop then
      // (no travel, the start load), so the next step's arrival follows from it.
      const std::string mw = step_where(r, *ends.open_start);
      const Step& step = route.steps[*ends.open_start];
      if (figures) {
        if (step.arrival < veh.time_window.start)
          report(ViolationKind::VehicleTimeWindow, mw,
                 "appears at " + str(step.arrival) + ", before vehicle " + std::to_string(veh.id) +
                     " time window start " + str(veh.time_window.start));
        else
          departure = leaves = step.arrival;
        anchored = true;
      }
      check_step_figures(step, mw);
    }
    check_capacity(w);
  }

  // Tasks and breaks.
  for (const Visit& vis : visits) {
    const Step& step = route.steps[vis.step];
    const std::string w = step_where(r, vis.step);
    if (vis.kind == VisitKind::Break) {
      const Break& brk = veh.breaks[vis.index];
      if (!leg_open) {
        // The next stop: the next task of the route, else the vehicle's end.
        std::size_t to = veh.end;
        for (std::size_t j = static_cast<std::size_t>(&vis - visits.data()) + 1; j < visits.size();
             ++j)
          if (visits[j].kind == VisitKind::Task) {
            to = p_.task(visits[j].index).location;
            break;
          }
        const Arc a = to == kNone ? Arc{} : arc(tv, location, to);
        leg_open = true;
        leg_duration = leg_left = a.unreachable ? 0 : a.duration;
        leg_distance = a.unreachable ? 0 : a.distance;
        leg_done = 0;
      }
      Duration arrival = departure, start = departure;
      if (figures) {
        arrival = step.arrival;
        if (arrival < departure)
          report(ViolationKind::ArrivalMismatch, w,
                 "arrival " + str(arrival) + " before the previous departure " + str(departure));
        else if (anchored &&
                 arrival > sat_add(departure, leg_left))  // unanchored: it may leave later
          report(ViolationKind::ArrivalMismatch, w,
                 "arrival " + str(arrival) + " after the next stop is reached (departure " +
                     str(departure) + " + travel left " + str(leg_left) + ")");
        if (step.waiting_time < 0)
          report(ViolationKind::BreakTimeWindow, w,
                 "negative waiting_time " + str(step.waiting_time));
        start = sat_add(arrival, step.waiting_time);
        if (!inside(brk.time_windows, start))
          report(ViolationKind::BreakTimeWindow, w,
                 "break " + std::to_string(brk.id) + " starts at " + str(start) +
                     ", outside its windows " + str(brk.time_windows));
        expect_equal(ViolationKind::DurationMismatch, w, "break service", brk.service,
                     step.service);
        expect_equal(ViolationKind::DurationMismatch, w, "break setup", 0, step.setup);
        waiting_total = sat_add(waiting_total, step.waiting_time);
      } else {
        const auto s = earliest_in(brk.time_windows, arrival);
        if (!s)
          report(ViolationKind::BreakTimeWindow, w,
                 "break " + std::to_string(brk.id) + " reached at " + str(arrival) +
                     ", after its windows " + str(brk.time_windows));
        else
          start = *s;
        // Drive towards the next stop until the break's window opens (saturating: a garbage
        // solution may carry any times).
        arrival = std::min(start, sat_add(departure, leg_left));
      }
      Duration gap = 0;
      if (__builtin_sub_overflow(arrival, departure, &gap))
        gap = arrival > departure ? leg_left : 0;
      const Duration driven = std::clamp<Duration>(gap, 0, leg_left);
      leg_left -= driven;
      leg_done = sat_add(leg_done, leg_share(driven, leg_distance, leg_duration));
      if (brk.max_load && !fits(load, *brk.max_load))
        report(ViolationKind::BreakMaxLoad, w,
               "load " + str(load) + " exceeds max_load " + str(*brk.max_load) + " of break " +
                   std::to_string(brk.id));
      service_total = sat_add(service_total, brk.service);
      departure = sat_add(start, brk.service);
      anchored = true;
      check_step_figures(step, w);
      continue;
    }

    const Task& task = p_.task(vis.index);
    const Arc a = arc(tv, location, task.location);
    if (a.unreachable)
      report(ViolationKind::Unreachable, w,
             "no path from location " + str_index(location) + " to " + str_index(task.location));
    travel_total = sat_add(travel_total, a.duration);
    distance_total = sat_add(distance_total, a.distance);
    cost_total = sat_add(cost_total, a.cost);
    const Duration travel_in = leg_open ? leg_left : a.duration;  // after any break on the leg
    const Duration earliest = sat_add(departure, travel_in);
    leg_open = false;

    Duration arrival = earliest, start = earliest;
    if (figures) {
      arrival = step.arrival;
      if (arrival < earliest) {
        if (anchored)
          report(ViolationKind::ArrivalMismatch, w,
                 "arrival: expected " + str(earliest) + " (departure " + str(departure) +
                     " + travel " + str(travel_in) + "), found " + str(arrival));
        else
          report(ViolationKind::VehicleTimeWindow, w,
                 "arrival " + str(arrival) + " needs a departure before vehicle " +
                     std::to_string(veh.id) + " time window start " + str(veh.time_window.start));
      } else if (anchored && arrival != earliest) {
        report(ViolationKind::ArrivalMismatch, w,
               "arrival: expected " + str(earliest) + " (departure " + str(departure) +
                   " + travel " + str(travel_in) + "), found " + str(arrival));
      }
      if (step.waiting_time < 0)
        report(ViolationKind::TimeWindow, w, "negative waiting_time " + str(step.waiting_time));
      start = sat_add(arrival, step.waiting_time);
      if (!inside(task.time_windows, start))
        report(ViolationKind::TimeWindow, w,
               std::string(to_string(task.type)) + " " + std::to_string(task.id) +
                   " service starts at " + str(start) + ", outside its windows " +
                   str(task.time_windows));
      waiting_total = sat_add(waiting_total, step.waiting_time);
    } else {
      const auto s = earliest_in(task.time_windows, arrival);
      if (!s)
        report(ViolationKind::TimeWindow, w,
               std::string(to_string(task.type)) + " " + std::to_string(task.id) + " reached at " +
                   str(arrival) + ", after its windows " + str(task.time_windows));
      else
        start = *s;
    }
    const Duration setup = (location == kNone || location != task.location) ? task.setup : 0;
    if (figures) {
      expect_equal(ViolationKind::DurationMismatch, w, "setup", setup, step.setup);
      expect_equal(ViolationKind::DurationMismatch, w, "service", task.service, step.service);
    }
    setup_total = sat_add(setup_total, setup);
    service_total = sat_add(service_total, task.service);
    departure = sat_add(sat_add(start, setup), task.service);
    anchored = true;
    location = task.location;

    if (task.type == TaskType::Reload) {
      load = trip_load(static_cast<std::size_t>(&vis - visits.data()) + 1);
    } else {
      add_into(load, task.delivery, -1);
      add_into(load, task.pickup, +1);
    }
    add_into(delivery_total, task.delivery, +1);
    add_into(pickup_total, task.pickup, +1);
    check_capacity(w);
    check_step_figures(step, w);
  }

  // End: travel back (or stop at the last task) within the vehicle's window.
  Duration finish = departure;
  const std::string ew = end_step        ? step_where(r, *end_step)
                         : ends.open_end ? step_where(r, *ends.open_end)
                                         : rw;
  if (veh.end != kNone) {
    const Arc a = arc(tv, location, veh.end);
    if (a.unreachable)
      report(
          ViolationKind::Unreachable, ew,
          "no path from location " + str_index(location) + " to vehicle end " + str_index(veh.end));
    travel_total = sat_add(travel_total, a.duration);
    distance_total = sat_add(distance_total, a.distance);
    cost_total = sat_add(cost_total, a.cost);
    const Duration travel_in = leg_open ? leg_left : a.duration;
    finish = sat_add(departure, travel_in);
    leg_open = false;
    if (figures && end_step) {
      const Step& step = route.steps[*end_step];
      if (step.arrival < finish || (anchored && step.arrival != finish))
        report(ViolationKind::ArrivalMismatch, ew,
               "arrival: expected " + str(finish) + " (departure " + str(departure) + " + travel " +
                   str(travel_in) + "), found " + str(step.arrival));
      if (step.arrival > finish) finish = step.arrival;
      check_step_figures(step, ew);
    }
  } else if (figures && ends.open_end) {
    // VROOM's marker of a route without end: where and when the last stop is left.
    const Step& step = route.steps[*ends.open_end];
    expect_equal(ViolationKind::ArrivalMismatch, ew, "arrival (the departure from the last stop)",
                 finish, step.arrival);
    check_step_figures(step, ew);
  }
  if (finish > veh.time_window.end)
    report(ViolationKind::VehicleTimeWindow, ew,
           "route ends at " + str(finish) + ", after vehicle " + std::to_string(veh.id) +
               " time window end " + str(veh.time_window.end));

  // The balance term prices the span from the shift start (working_time()), whatever the timeline.
  longest_ = std::max(longest_, finish - veh.time_window.start);
  // Route limits.
  if (veh.max_working_time < kMaxTime && finish - leaves > veh.max_working_time)
    report(ViolationKind::MaxWorkingTime, rw,
           "working time " + str(finish - leaves) + " (from " + str(leaves) + " to " + str(finish) +
               ") exceeds max_working_time " + str(veh.max_working_time));
  if (travel_total > veh.max_travel_time)
    report(ViolationKind::MaxTravelTime, rw,
           "travel time " + str(travel_total) + " exceeds max_travel_time " +
               str(veh.max_travel_time));
  if (distance_total > veh.max_distance)
    report(ViolationKind::MaxDistance, rw,
           "distance " + str(distance_total) + " exceeds max_distance " + str(veh.max_distance));

  // Route totals.
  if (figures) {
    const Cost arcs = cost_total - p_.fixed_cost(v);
    expect_equal(ViolationKind::CostMismatch, rw,
                 p_.rounds_route_costs()
                     ? "cost (fixed + travel and distance priced once, rounded as VROOM)"
                     : "cost (fixed + arcs)",
                 p_.route_cost(v, travel_total, distance_total, arcs), route.cost);
    expect_equal(ViolationKind::DurationMismatch, rw, "travel duration", travel_total,
                 route.duration);
    expect_equal(ViolationKind::DistanceMismatch, rw, "distance", distance_total, route.distance);
    expect_equal(ViolationKind::DurationMismatch, rw, "setup", setup_total, route.setup);
    expect_equal(ViolationKind::DurationMismatch, rw, "service", service_total, route.service);
    expect_equal(ViolationKind::DurationMismatch, rw, "waiting_time", waiting_total,
                 route.waiting_time);
    if (!route.delivery.empty() && !same(delivery_total, route.delivery))
      report(ViolationKind::LoadMismatch, rw,
             "delivery: expected " + str(delivery_total) + ", found " + str(route.delivery));
    if (!route.pickup.empty() && !same(pickup_total, route.pickup))
      report(ViolationKind::LoadMismatch, rw,
             "pickup: expected " + str(pickup_total) + ", found " + str(route.pickup));
  }
}

}  // namespace routesolve::validation
