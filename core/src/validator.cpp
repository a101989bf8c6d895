// The independent validator. It recomputes every figure of a solution from the Problem alone
// (travel views, tasks, vehicles) and shares no code with schedule.cpp or the solvers: a bug in
// one of them shows up as a disagreement with the other.
//
// Two modes (ValidateOptions::check_figures):
//  - figures checked: the reported times are the timeline; each one is checked for feasibility
//    and for agreement with an earliest-time schedule (arrival = departure + travel).
//  - figures ignored: the validator builds its own earliest-time schedule of the given order and
//    checks only that the order is feasible (for solutions without figures, e.g. CVRPLIB .sol).

#include "routesolve/validator.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace routesolve {

std::string_view to_string(ViolationKind kind) noexcept {
  switch (kind) {
    case ViolationKind::UnknownVehicle:
      return "unknown vehicle";
    case ViolationKind::DuplicateVehicle:
      return "duplicate vehicle";
    case ViolationKind::UnknownTask:
      return "unknown task";
    case ViolationKind::DuplicateTask:
      return "duplicate task";
    case ViolationKind::MissingTask:
      return "missing task";
    case ViolationKind::BadStepOrder:
      return "bad step order";
    case ViolationKind::Skills:
      return "skills";
    case ViolationKind::Capacity:
      return "capacity";
    case ViolationKind::TimeWindow:
      return "time window";
    case ViolationKind::VehicleTimeWindow:
      return "vehicle time window";
    case ViolationKind::BreakMissing:
      return "break missing";
    case ViolationKind::BreakTimeWindow:
      return "break time window";
    case ViolationKind::BreakMaxLoad:
      return "break max load";
    case ViolationKind::ShipmentSplit:
      return "shipment split";
    case ViolationKind::ShipmentOrder:
      return "shipment order";
    case ViolationKind::MaxTasks:
      return "max tasks";
    case ViolationKind::MaxTravelTime:
      return "max travel time";
    case ViolationKind::MaxDistance:
      return "max distance";
    case ViolationKind::Unreachable:
      return "unreachable";
    case ViolationKind::ArrivalMismatch:
      return "arrival mismatch";
    case ViolationKind::DurationMismatch:
      return "duration mismatch";
    case ViolationKind::DistanceMismatch:
      return "distance mismatch";
    case ViolationKind::LoadMismatch:
      return "load mismatch";
    case ViolationKind::CostMismatch:
      return "cost mismatch";
    case ViolationKind::SummaryMismatch:
      return "summary mismatch";
    case ViolationKind::WrongLocation:
      return "wrong location";
  }
  return "unknown violation";
}

std::string ValidationReport::to_text() const {
  std::string text;
  for (const Violation& v : violations) {
    text += v.where;
    text += ": ";
    text += to_string(v.kind);
    text += ": ";
    text += v.message;
    text += '\n';
  }
  return text;
}

namespace {

using Load = std::vector<std::int64_t>;

// Saturating arithmetic: reported figures may be arbitrary (a broken solver, a hostile file) and
// unreachable arcs are huge; neither may overflow into a wrong verdict.
std::int64_t sat_add(std::int64_t a, std::int64_t b) noexcept {
  std::int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r))
    return b > 0 ? std::numeric_limits<std::int64_t>::max()
                 : std::numeric_limits<std::int64_t>::min();
  return r;
}
std::int64_t mul(std::int64_t a, std::int64_t b) noexcept {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r))
    return (a < 0) != (b < 0) ? std::numeric_limits<std::int64_t>::min()
                              : std::numeric_limits<std::int64_t>::max();
  return r;
}

std::string str(std::int64_t v) { return std::to_string(v); }
std::string str_index(std::size_t i) {
  return i == kNone ? std::string("none") : std::to_string(i);
}

std::string str(const Load& load) {
  std::string s = "[";
  for (std::size_t i = 0; i < load.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(load[i]);
  }
  return s + "]";
}
std::string str(const Amount& a) { return str(a.values()); }

std::string str(const std::vector<TimeWindow>& windows) {
  std::string s;
  for (std::size_t i = 0; i < windows.size(); ++i) {
    if (i) s += " ";
    // Appended piece by piece: `"[" + std::to_string(...)` trips GCC 12's -Wrestrict at -O3.
    s += '[';
    s += std::to_string(windows[i].start);
    s += ", ";
    s += windows[i].end >= kMaxTime ? std::string("open") : std::to_string(windows[i].end);
    s += ']';
  }
  return s.empty() ? std::string("(none)") : s;
}


std::optional<TaskType> task_type_of(StepType t) noexcept {
  switch (t) {
    case StepType::Job:
      return TaskType::Job;
    case StepType::Pickup:
      return TaskType::Pickup;
    case StepType::Delivery:
      return TaskType::Delivery;
    default:
      return std::nullopt;
  }
}

// Load arithmetic that tolerates amounts of any length (empty = zero).
void add_into(Load& load, const Amount& a, std::int64_t sign) {
  for (std::size_t i = 0; i < load.size() && i < a.size(); ++i)
    load[i] = sat_add(load[i], mul(sign, a[i]));
}
bool fits(const Load& load, const Amount& capacity) {
  for (std::size_t i = 0; i < load.size() && i < capacity.size(); ++i)
    if (load[i] > capacity[i]) return false;
  return true;
}
bool same(const Load& load, const Amount& reported) { return load == reported.values(); }

/// Earliest instant >= t inside one of the windows, if any.
std::optional<Duration> earliest_in(const std::vector<TimeWindow>& windows, Duration t) {
  std::optional<Duration> best;
  for (const TimeWindow& w : windows) {
    if (t > w.end) continue;
    const Duration s = t < w.start ? w.start : t;
    if (!best || s < *best) best = s;
  }
  return best;
}
bool inside(const std::vector<TimeWindow>& windows, Duration t) {
  for (const TimeWindow& w : windows)
    if (w.contains(t)) return true;
  return false;
}

std::string route_where(std::size_t r) { return "routes[" + std::to_string(r) + "]"; }
std::string step_where(std::size_t r, std::size_t s) {
  return route_where(r) + ".steps[" + std::to_string(s) + "]";
}

/// Where a task was first seen.
struct Occurrence {
  bool routed = false;
  std::size_t route = 0;
  std::size_t position = 0;  // step index within the route
  std::string where;
};

struct Arc {
  Duration duration = 0;
  Distance distance = 0;
  Cost cost = 0;
  bool unreachable = false;
};

class Validator {
 public:
  Validator(const Problem& problem, const Solution& solution, const ValidateOptions& options)
      : p_(problem),
        s_(solution),
        o_(options),
        seen_(problem.tasks().size()),
        vehicle_route_(problem.vehicles().size(), kNone) {}

  ValidationReport run() {
    for (std::size_t r = 0; r < s_.routes.size(); ++r) check_route(r);
    check_unassigned();
    check_accounting();
    check_shipments();
    if (o_.check_figures) check_summary();
    return std::move(report_);
  }

 private:
  // -- reporting --------------------------------------------------------------------------------
  void report(ViolationKind kind, std::string where, std::string message) {
    report_.violations.push_back(Violation{kind, std::move(where), std::move(message)});
  }
  void expect_equal(ViolationKind kind, const std::string& where, std::string_view what,
                    std::int64_t expected, std::int64_t found) {
    if (expected != found)
      report(kind, where,
             std::string(what) + ": expected " + str(expected) + ", found " + str(found));
  }

  // -- task accounting ----------------------------------------------------------------------------
  void note_task(std::size_t t, Occurrence occ) {
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
  std::size_t check_task_step(const Step& step, const std::string& where) {
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

  // -- one route ----------------------------------------------------------------------------------
  enum class VisitKind { Task, Break };
  struct Visit {
    VisitKind kind;
    std::size_t step;   // index in route.steps
    std::size_t index;  // task index, or break index within the vehicle
  };

  Arc arc(const TravelView& tv, std::size_t from, std::size_t to) const {
    Arc a;
    if (from == kNone) return a;  // first task of a route without start: no travel
    if (from >= tv.n || to >= tv.n || !tv.durations) {
      a.unreachable = true;
      a.duration = kUnreachable;
      return a;
    }
    a.duration = tv.duration(from, to);
    a.distance = (tv.distances && p_.has_distances()) ? tv.distance(from, to) : 0;
    a.cost = tv.costs ? tv.cost(from, to) : 0;
    a.unreachable =
        a.duration >= kUnreachable || a.distance >= kUnreachable || a.cost >= kUnreachable;
    return a;
  }

  void check_route(std::size_t r) {
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
    std::optional<std::size_t> start_step, end_step;
    std::vector<Visit> visits;
    std::vector<int> break_seen(veh.breaks.size(), 0);
    std::size_t last_break = kNone;
    std::size_t task_count = 0;
    for (std::size_t i = 0; i < nsteps; ++i) {
      const Step& step = route.steps[i];
      const std::string w = step_where(r, i);
      switch (step.type) {
        case StepType::Start:
          if (veh.start == kNone)
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
          if (veh.end == kNone)
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
                 "break " + std::to_string(veh.breaks[k].id) + " (vehicle " +
                     std::to_string(veh.id) + " breaks[" + std::to_string(k) + "]) is not taken");
    if (veh.max_tasks != kNone && task_count > veh.max_tasks)
      report(ViolationKind::MaxTasks, rw,
             std::to_string(task_count) + " tasks, vehicle " + std::to_string(veh.id) + " allows " +
                 std::to_string(veh.max_tasks));

    simulate(r, veh, v, start_step, end_step, visits);
  }

  /// Replays the route in time, load, travel and cost.
  void simulate(std::size_t r, const Vehicle& veh, std::size_t v,
                std::optional<std::size_t> start_step, std::optional<std::size_t> end_step,
                const std::vector<Visit>& visits) {
    const Route& route = s_.routes[r];
    const std::string rw = route_where(r);
    const bool figures = o_.check_figures;
    const TravelView tv = p_.travel(v);
    const std::size_t dims = p_.dimensions();

    // Load carried from the start: every job's delivery.
    Load load(dims, 0);
    for (const Visit& vis : visits)
      if (vis.kind == VisitKind::Task && p_.task(vis.index).type == TaskType::Job)
        add_into(load, p_.task(vis.index).delivery, +1);

    Duration travel_total = 0, setup_total = 0, service_total = 0, waiting_total = 0;
    Distance distance_total = 0;
    Cost cost_total = p_.fixed_cost(v);
    Load delivery_total(dims, 0), pickup_total(dims, 0);

    auto check_step_figures = [&](const Step& step, const std::string& w) {
      if (!figures) return;
      expect_equal(ViolationKind::DurationMismatch, w, "cumulative travel duration", travel_total,
                   step.duration);
      expect_equal(ViolationKind::DistanceMismatch, w, "cumulative distance", distance_total,
                   step.distance);
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
            departure = step.arrival;
          anchored = true;
        }
        check_step_figures(step, w);
      }
      check_capacity(w);
    }

    // Tasks and breaks.
    for (const Visit& vis : visits) {
      const Step& step = route.steps[vis.step];
      const std::string w = step_where(r, vis.step);
      if (vis.kind == VisitKind::Break) {
        const Break& brk = veh.breaks[vis.index];
        Duration arrival = departure, start = departure;
        if (figures) {
          arrival = step.arrival;
          if (arrival < departure)
            report(ViolationKind::ArrivalMismatch, w,
                   "arrival " + str(arrival) + " before the previous departure " + str(departure));
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
        }
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
      const Duration earliest = sat_add(departure, a.duration);

      Duration arrival = earliest, start = earliest;
      if (figures) {
        arrival = step.arrival;
        if (arrival < earliest) {
          if (anchored)
            report(ViolationKind::ArrivalMismatch, w,
                   "arrival: expected " + str(earliest) + " (departure " + str(departure) +
                       " + travel " + str(a.duration) + "), found " + str(arrival));
          else
            report(ViolationKind::VehicleTimeWindow, w,
                   "arrival " + str(arrival) + " needs a departure before vehicle " +
                       std::to_string(veh.id) + " time window start " + str(veh.time_window.start));
        } else if (anchored && arrival != earliest) {
          report(ViolationKind::ArrivalMismatch, w,
                 "arrival: expected " + str(earliest) + " (departure " + str(departure) +
                     " + travel " + str(a.duration) + "), found " + str(arrival));
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
                 std::string(to_string(task.type)) + " " + std::to_string(task.id) +
                     " reached at " + str(arrival) + ", after its windows " +
                     str(task.time_windows));
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

      add_into(load, task.delivery, -1);
      add_into(load, task.pickup, +1);
      add_into(delivery_total, task.delivery, +1);
      add_into(pickup_total, task.pickup, +1);
      check_capacity(w);
      check_step_figures(step, w);
    }

    // End: travel back (or stop at the last task) within the vehicle's window.
    Duration finish = departure;
    const std::string ew = end_step ? step_where(r, *end_step) : rw;
    if (veh.end != kNone) {
      const Arc a = arc(tv, location, veh.end);
      if (a.unreachable)
        report(ViolationKind::Unreachable, ew,
               "no path from location " + str_index(location) + " to vehicle end " +
                   str_index(veh.end));
      travel_total = sat_add(travel_total, a.duration);
      distance_total = sat_add(distance_total, a.distance);
      cost_total = sat_add(cost_total, a.cost);
      finish = sat_add(departure, a.duration);
      if (figures && end_step) {
        const Step& step = route.steps[*end_step];
        if (step.arrival < finish || (anchored && step.arrival != finish))
          report(ViolationKind::ArrivalMismatch, ew,
                 "arrival: expected " + str(finish) + " (departure " + str(departure) +
                     " + travel " + str(a.duration) + "), found " + str(step.arrival));
        if (step.arrival > finish) finish = step.arrival;
        check_step_figures(step, ew);
      }
    }
    if (finish > veh.time_window.end)
      report(ViolationKind::VehicleTimeWindow, ew,
             "route ends at " + str(finish) + ", after vehicle " + std::to_string(veh.id) +
                 " time window end " + str(veh.time_window.end));

    // Route limits.
    if (travel_total > veh.max_travel_time)
      report(ViolationKind::MaxTravelTime, rw,
             "travel time " + str(travel_total) + " exceeds max_travel_time " +
                 str(veh.max_travel_time));
    if (distance_total > veh.max_distance)
      report(ViolationKind::MaxDistance, rw,
             "distance " + str(distance_total) + " exceeds max_distance " + str(veh.max_distance));

    // Route totals.
    if (figures) {
      expect_equal(ViolationKind::CostMismatch, rw, "cost (fixed + arcs)", cost_total, route.cost);
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

  // -- unassigned, accounting, shipments, summary
  // ---------------------------------------------------
  void check_unassigned() {
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

  void check_accounting() {
    if (!o_.require_all_tasks_accounted) return;
    for (std::size_t t = 0; t < seen_.size(); ++t)
      if (!seen_[t]) {
        const Task& task = p_.task(t);
        report(ViolationKind::MissingTask, "tasks[" + std::to_string(t) + "]",
               std::string(to_string(task.type)) + " " + std::to_string(task.id) +
                   " is neither routed nor unassigned");
      }
  }

  void check_shipments() {
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

  void check_summary() {
    const Summary& sum = s_.summary;
    const std::string w = "summary";
    Cost cost = 0;
    Duration setup = 0, service = 0, duration = 0, waiting = 0;
    Distance distance = 0;
    long long priority = 0;
    const std::size_t dims = p_.dimensions();
    Load delivery(dims, 0), pickup(dims, 0);
    for (const Route& route : s_.routes) {
      cost = sat_add(cost, route.cost);
      setup = sat_add(setup, route.setup);
      service = sat_add(service, route.service);
      duration = sat_add(duration, route.duration);
      waiting = sat_add(waiting, route.waiting_time);
      distance = sat_add(distance, route.distance);
      priority += route.priority;
      add_into(delivery, route.delivery, +1);
      add_into(pickup, route.pickup, +1);
    }
    expect_equal(ViolationKind::SummaryMismatch, w, "cost (sum over routes)", cost, sum.cost);
    expect_equal(ViolationKind::SummaryMismatch, w, "routes",
                 static_cast<std::int64_t>(s_.routes.size()),
                 static_cast<std::int64_t>(sum.routes));
    expect_equal(ViolationKind::SummaryMismatch, w, "unassigned",
                 static_cast<std::int64_t>(s_.unassigned.size()),
                 static_cast<std::int64_t>(sum.unassigned));
    expect_equal(ViolationKind::SummaryMismatch, w, "setup (sum over routes)", setup, sum.setup);
    expect_equal(ViolationKind::SummaryMismatch, w, "service (sum over routes)", service,
                 sum.service);
    expect_equal(ViolationKind::SummaryMismatch, w, "duration (sum over routes)", duration,
                 sum.duration);
    expect_equal(ViolationKind::SummaryMismatch, w, "waiting_time (sum over routes)", waiting,
                 sum.waiting_time);
    expect_equal(ViolationKind::SummaryMismatch, w, "distance (sum over routes)", distance,
                 sum.distance);
    expect_equal(ViolationKind::SummaryMismatch, w, "priority (sum over routes)", priority,
                 sum.priority);
    if (!sum.delivery.empty() && !same(delivery, sum.delivery))
      report(
          ViolationKind::SummaryMismatch, w,
          "delivery (sum over routes): expected " + str(delivery) + ", found " + str(sum.delivery));
    if (!sum.pickup.empty() && !same(pickup, sum.pickup))
      report(ViolationKind::SummaryMismatch, w,
             "pickup (sum over routes): expected " + str(pickup) + ", found " + str(sum.pickup));
  }

  const Problem& p_;
  const Solution& s_;
  const ValidateOptions& o_;
  ValidationReport report_;
  std::vector<std::optional<Occurrence>> seen_;  // first occurrence of each task
  std::vector<std::size_t> vehicle_route_;       // route using each vehicle, or kNone
};

}  // namespace

ValidationReport validate(const Problem& problem, const Solution& solution,
                          const ValidateOptions& options) {
  return Validator(problem, solution, options).run();
}

}  // namespace routesolve
