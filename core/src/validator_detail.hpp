#pragma once
// Private to core/src: the validator's helpers and the Validator class, whose checks are spread
// over files by responsibility:
//   validator.cpp            the entry point, violation names, the report, run order
//   validator_structure.cpp  identities and structure: vehicles, steps, tasks, breaks, unassigned
//                            tasks, accounting, shipments
//   validator_schedule.cpp   the replay of one route in time, load, travel and cost
//   validator_summary.cpp    the summary against the sum over routes

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "routesolve/validator.hpp"

namespace routesolve::validation {

using Load = std::vector<std::int64_t>;

// Saturating arithmetic: reported figures may be arbitrary (a broken solver, a hostile file) and
// unreachable arcs are huge; neither may overflow into a wrong verdict.
inline std::int64_t sat_add(std::int64_t a, std::int64_t b) noexcept {
  std::int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r))
    return b > 0 ? std::numeric_limits<std::int64_t>::max()
                 : std::numeric_limits<std::int64_t>::min();
  return r;
}
inline std::int64_t mul(std::int64_t a, std::int64_t b) noexcept {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r))
    return (a < 0) != (b < 0) ? std::numeric_limits<std::int64_t>::min()
                              : std::numeric_limits<std::int64_t>::max();
  return r;
}

inline std::string str(std::int64_t v) { return std::to_string(v); }
inline std::string str_index(std::size_t i) {
  return i == kNone ? std::string("none") : std::to_string(i);
}

inline std::string str(const Load& load) {
  std::string s = "[";
  for (std::size_t i = 0; i < load.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(load[i]);
  }
  return s + "]";
}
inline std::string str(const Amount& a) { return str(a.values()); }

inline std::string str(const std::vector<TimeWindow>& windows) {
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

inline std::optional<TaskType> task_type_of(StepType t) noexcept {
  switch (t) {
    case StepType::Job:
      return TaskType::Job;
    case StepType::Pickup:
      return TaskType::Pickup;
    case StepType::Delivery:
      return TaskType::Delivery;
    case StepType::Reload:
      return TaskType::Reload;
    default:
      return std::nullopt;
  }
}

// Load arithmetic that tolerates amounts of any length (empty = zero).
inline void add_into(Load& load, const Amount& a, std::int64_t sign) {
  for (std::size_t i = 0; i < load.size() && i < a.size(); ++i)
    load[i] = sat_add(load[i], mul(sign, a[i]));
}
inline bool fits(const Load& load, const Amount& capacity) {
  for (std::size_t i = 0; i < load.size() && i < capacity.size(); ++i)
    if (load[i] > capacity[i]) return false;
  return true;
}
inline bool same(const Load& load, const Amount& reported) { return load == reported.values(); }

/// Earliest instant >= t inside one of the windows, if any.
inline std::optional<Duration> earliest_in(const std::vector<TimeWindow>& windows, Duration t) {
  std::optional<Duration> best;
  for (const TimeWindow& w : windows) {
    if (t > w.end) continue;
    const Duration s = t < w.start ? w.start : t;
    if (!best || s < *best) best = s;
  }
  return best;
}
inline bool inside(const std::vector<TimeWindow>& windows, Duration t) {
  for (const TimeWindow& w : windows)
    if (w.contains(t)) return true;
  return false;
}

inline std::string route_where(std::size_t r) { return "routes[" + std::to_string(r) + "]"; }
inline std::string step_where(std::size_t r, std::size_t s) {
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

  ValidationReport run();

 private:
  enum class VisitKind { Task, Break };
  struct Visit {
    VisitKind kind;
    std::size_t step;   // index in route.steps
    std::size_t index;  // task index, or break index within the vehicle
  };

  // validator.cpp: reporting
  void report(ViolationKind kind, std::string where, std::string message);
  void expect_equal(ViolationKind kind, const std::string& where, std::string_view what,
                    std::int64_t expected, std::int64_t found);

  // validator_structure.cpp
  void note_task(std::size_t t, Occurrence occ);
  /// Checks a step's task reference; returns the task index when usable, else kNone.
  std::size_t check_task_step(const Step& step, const std::string& where);
  void check_route(std::size_t r);
  void check_unassigned();
  void check_accounting();
  void check_shipments();

  // validator_schedule.cpp
  Arc arc(const TravelView& tv, std::size_t from, std::size_t to) const;
  /// The start and end steps of a route: the vehicle's own, or (open routes) the markers VROOM
  /// writes at the first and last stop of a vehicle without a start or an end.
  struct Ends {
    std::optional<std::size_t> start, end;            // the vehicle's start / end
    std::optional<std::size_t> open_start, open_end;  // markers of a vehicle without them
  };
  /// Replays the route in time, load, travel and cost.
  void simulate(std::size_t r, const Vehicle& veh, std::size_t v, const Ends& ends,
                const std::vector<Visit>& visits);

  // validator_summary.cpp
  void check_summary();

  const Problem& p_;
  const Solution& s_;
  const ValidateOptions& o_;
  ValidationReport report_;
  std::vector<std::optional<Occurrence>> seen_;  // first occurrence of each task
  std::vector<std::size_t> vehicle_route_;       // route using each vehicle, or kNone
  Duration longest_ = 0;                         // longest working time of a route replayed
};

}  // namespace routesolve::validation
