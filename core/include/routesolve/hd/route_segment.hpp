#pragma once
// A whole route segment, once for host and device (RS_HD): the summary of a sequence of visits
// that the searches concatenate in O(1) (cost, travel time, distance, task count, an
// unreachable flag, the duration profile and the load profile of hd/segment.hpp), the
// concatenation of two under a vehicle's travel data, and the feasibility of three in a row
// (prefix, inserted visits, suffix: the shape of every insertion check). The search's
// SegmentModel, its CPU insertion engine and the batched insertion engine (host twin and device
// kernels) all price with these functions, so their decisions agree to the unit.

#include <cstddef>
#include <cstdint>

#include "routesolve/hd/host_device.hpp"
#include "routesolve/hd/segment.hpp"
#include "routesolve/hd/travel_view.hpp"

namespace routesolve {

/// "No location" (an open route's missing start or end); equal to core's kNone.
inline constexpr std::size_t kNoLocation = static_cast<std::size_t>(-1);

struct RouteSegment {
  std::size_t first =
      kNoLocation;  ///< location of the first visit (kNoLocation: a missing start/end)
  std::size_t last = kNoLocation;  ///< location of the last visit
  std::size_t tasks = 0;
  std::int64_t cost = 0;
  std::int64_t travel = 0;
  std::int64_t distance = 0;
  bool unreachable = false;  ///< uses an arc without path
  DurationSegment time;
  LoadSegment load;  ///< only the problem's dimensions are meaningful
};

/// What a vehicle allows a whole route, as the segment checks read it.
struct SegmentLimits {
  std::size_t max_tasks = kNoLocation;  ///< kNoLocation: no limit
  std::int64_t max_travel_time = kMaxTime;
  std::int64_t max_distance = kMaxTime;
  const std::int64_t* capacity = nullptr;  ///< `dims` entries
  std::int64_t max_reloads = 0;            ///< max_trips - 1
  /// Travel, setup, service and waiting from the start of the vehicle's shift (`shift_start`) to
  /// the route's end.
  std::int64_t max_working_time = kMaxTime;
  std::int64_t shift_start = 0;
};

/// Working time of a whole route that leaves at `shift_start` (its first segment begins there):
/// it ends `time.duration` after the route's earliest start, which is never before shift_start.
RS_HD constexpr std::int64_t working_time(const DurationSegment& time,
                                          std::int64_t shift_start) noexcept {
  return time.duration + hd::max(0, time.earliest - shift_start);
}

/// A followed by B on a vehicle with travel data `tv`, over `dims` load dimensions, written into
/// `s` (which may not be `a` or `b`): the searches' prefix and suffix refresh, without
/// temporaries.
RS_HD inline void merge_into(RouteSegment& s, const TravelView& tv, std::size_t dims,
                             const RouteSegment& a, const RouteSegment& b) noexcept {
  s.first = a.first != kNoLocation || a.tasks > 0 ? a.first : b.first;
  s.last = b.last != kNoLocation || b.tasks > 0 ? b.last : a.last;
  s.tasks = a.tasks + b.tasks;
  s.cost = a.cost + b.cost;
  s.travel = a.travel + b.travel;
  s.distance = a.distance + b.distance;
  s.unreachable = a.unreachable || b.unreachable;
  std::int64_t t = 0;
  if (a.last != kNoLocation && b.first != kNoLocation) {
    const std::int64_t c = tv.cost(a.last, b.first);
    t = tv.duration(a.last, b.first);
    if (t >= kUnreachable || c >= kUnreachable) {
      s.unreachable = true;
      t = 0;
    } else {
      s.cost += c;
      s.travel += t;
      s.distance += tv.distances ? tv.distance(a.last, b.first) : 0;
    }
  }
  s.time = merge(a.time, b.time, t);
  merge_into(s.load, a.load, b.load, dims);
}

/// A followed by B on a vehicle with travel data `tv`, over `dims` load dimensions.
RS_HD inline RouteSegment merge(const TravelView& tv, std::size_t dims, const RouteSegment& a,
                                const RouteSegment& b) noexcept {
  RouteSegment s;
  merge_into(s, tv, dims, a, b);
  return s;
}

/// True when A, B, C in that order make a feasible whole route (no unreachable arc, no time
/// warp, max_tasks, max_travel_time, max_distance, capacity, reloads, working time) without
/// building the merged segments: the searches' hot path.
RS_HD inline bool feasible(const TravelView& tv, const SegmentLimits& limits, std::size_t dims,
                           const RouteSegment& a, const RouteSegment& b,
                           const RouteSegment& c) noexcept {
  if (a.unreachable || b.unreachable || c.unreachable) return false;
  if (limits.max_tasks != kNoLocation && a.tasks + b.tasks + c.tasks > limits.max_tasks)
    return false;
  // The two joining arcs, as merge() finds them: (a + b) ends where b ends unless b is empty.
  std::int64_t t1 = 0, t2 = 0, d1 = 0, d2 = 0;
  const std::size_t ab_last = b.last != kNoLocation || b.tasks > 0 ? b.last : a.last;
  if (a.last != kNoLocation && b.first != kNoLocation) {
    t1 = tv.duration(a.last, b.first);
    if (t1 >= kUnreachable || tv.cost(a.last, b.first) >= kUnreachable) return false;
    d1 = tv.distances ? tv.distance(a.last, b.first) : 0;
  }
  if (ab_last != kNoLocation && c.first != kNoLocation) {
    t2 = tv.duration(ab_last, c.first);
    if (t2 >= kUnreachable || tv.cost(ab_last, c.first) >= kUnreachable) return false;
    d2 = tv.distances ? tv.distance(ab_last, c.first) : 0;
  }
  if (a.travel + b.travel + c.travel + t1 + t2 > limits.max_travel_time) return false;
  if (a.distance + b.distance + c.distance + d1 + d2 > limits.max_distance) return false;
  if (a.load.reloads + b.load.reloads + c.load.reloads > limits.max_reloads) return false;
  if (!fits(a.load, b.load, c.load, limits.capacity, dims)) return false;
  const DurationSegment time = merge(merge(a.time, b.time, t1), c.time, t2);
  if (limits.max_working_time < kMaxTime &&
      working_time(time, limits.shift_start) > limits.max_working_time)
    return false;
  return time.time_warp == 0;
}

/// Arc cost for the insertion deltas: 0 when an end is missing (open routes).
RS_HD inline std::int64_t arc_cost(const TravelView& tv, std::size_t a, std::size_t b) noexcept {
  if (a == kNoLocation || b == kNoLocation) return 0;
  return tv.cost(a, b);
}

/// Both arcs exist (a missing end counts as reachable).
RS_HD inline bool reachable(const TravelView& tv, std::size_t a, std::size_t b) noexcept {
  return a == kNoLocation || b == kNoLocation ||
         (tv.cost(a, b) < kUnreachable && tv.duration(a, b) < kUnreachable);
}

}  // namespace routesolve
