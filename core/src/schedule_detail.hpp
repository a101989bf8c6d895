#pragma once
// schedule_route's internals shared by its files: the thread-local scratch and the checks that
// do not depend on timing (schedule_static.cpp). The timed pass, the break placement and the
// entry points are schedule.cpp.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "routesolve/hd/segment.hpp"
#include "routesolve/solution.hpp"

namespace routesolve::schedule_detail {

constexpr Duration kInf = std::numeric_limits<Duration>::max();
using Reason = std::optional<UnassignedReason>;

struct Scratch {
  std::vector<std::uint32_t> stamp;  // stamp[task] == generation: task is on the current route
  std::vector<std::size_t> pos;      // position of a stamped task
  std::uint32_t generation = 0;
  std::vector<unsigned char> load_ok;  // [(tasks done) * breaks + break]: load fits its max_load
  std::vector<std::size_t> breaks_at;  // breaks taken after i tasks, i = 0..n
  std::vector<Duration> dp;       // place_breaks: enter, then reach, (n + 1) x (breaks + 1) each
  std::vector<std::size_t> from;  // place_breaks: the breaks done when the leg began
  Duration earliest_end = 0;      // place_breaks: the route's end with its breaks placed
  std::vector<std::size_t> plan_tasks;
  std::vector<std::size_t> plan_breaks_at;
  std::vector<LoadProfile> profile;        // per capacity dimension
  std::vector<std::int64_t> trip_carried;  // [trip * dims + d]: on board when the trip begins
  Amount load;
};

inline Scratch& scratch() {
  thread_local Scratch s;
  return s;
}

inline void zero(Amount& a, std::size_t dims) {
  if (a.size() != dims) {
    a = Amount(dims);
  } else {
    for (std::size_t d = 0; d < dims; ++d) a[d] = 0;
  }
}

/// Everything that does not depend on timing (skills, shipment pairing and order, max_tasks,
/// capacity trip by trip, unreachable arcs, max_travel_time, max_distance). Fills s.load_ok
/// for the break DP and s.profile / s.trip_carried for the timed pass.
Reason check_static(const Problem& p, std::size_t v, const std::size_t* tasks, std::size_t n,
                    Scratch& s);

}  // namespace routesolve::schedule_detail
