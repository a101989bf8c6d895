#pragma once
// Plan mode's choice of a checked route's times (VROOM's `-c`): each step's windows are soft, its
// service_at / after / before bounds hard. The times minimise, as VROOM's do,
//   1. weight x (total violation) + makespan, where a step's violation is its distance to the
//      window it is given (lead time before it, delay after it) and makespan is end - start;
//   2. then, with those two fixed, the sum of the tasks' and breaks' service starts;
//   3. then the travel left after breaks (a leg is driven before its breaks as far as possible).
// A small integer programme (a binary per window of a step with several), solved with GLPK.

#include <cstddef>
#include <vector>

#include "routesolve/problem.hpp"

namespace routesolve::plan_eta {

struct Step {
  bool is_break = false;            ///< taken on the leg to the next non-break step
  Duration action = 0;              ///< setup + service (task), service (break), 0 (start, end)
  std::vector<TimeWindow> windows;  ///< soft, sorted; empty: no violation possible
  Duration earliest = 0;            ///< hard: service begins no earlier
  Duration latest = kMaxTime;       ///< hard: service begins no later
};

struct Route {
  std::vector<Step> steps;     ///< [0] the start, back() the end, never breaks
  std::vector<Duration> legs;  ///< travel from each non-break step (the start included) to the next
  double weight = 1.0;         ///< makespan units one unit of violation is worth (step 1)
};

struct Times {
  std::vector<Duration> begin;         ///< each step's service start
  std::vector<Duration> travel_after;  ///< travel done between step i and step i + 1
  std::vector<std::size_t> window;     ///< the window each step is measured against, kNone if none
};

/// The first step whose `latest` no schedule can meet (its `earliest`, the travel and the actions
/// before it given), or kNone when the hard bounds can all hold.
std::size_t first_unreachable(const Route& route);

/// The times of a route whose hard bounds can all hold (first_unreachable == kNone).
Times choose(const Route& route);

/// A step's violation at `begin` measured against window `w`.
Duration lead_time(const Step& s, std::size_t w, Duration begin);
Duration delay(const Step& s, std::size_t w, Duration begin);

}  // namespace routesolve::plan_eta
