#pragma once
// Route segments priced in O(1) by concatenation (Vidal et al. 2013, "A unified solution
// framework for multi-attribute vehicle routing problems"; the same idea as PyVRP's
// DurationSegment / LoadSegment). A segment summarises a sequence of visits:
//  - cost, travel time, distance and task count (additive over arcs and visits);
//  - a load profile that handles job deliveries (on board from the route start), job pickups
//    (kept to the end) and shipments (picked up, then dropped) in any number of dimensions;
//  - a duration profile with time warp: the minimum duration, the time-window violation that
//    cannot be avoided, and the earliest / latest start of the sequence.
// Concatenating A then B needs only the two summaries and the arc A.last -> B.first.
// The search model is exact for single time windows without setup times or breaks; otherwise it
// is a relaxation or a conservative bound (see SegmentModel) and core's schedule_route decides.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "routesolve/hd/route_segment.hpp"
#include "routesolve/hd/segment.hpp"
#include "routesolve/problem.hpp"

namespace routesolve::search {

// The arithmetic is core's (routesolve/hd/segment.hpp), shared with schedule_route and the
// batched insertion engines: LoadSegment (carried, net, peak per dimension, up to kMaxDims) and
// DurationSegment (Vidal's duration, time warp, earliest, latest).
using routesolve::DurationSegment;
using routesolve::LoadSegment;

// The whole-segment summary and its concatenation are core's (routesolve/hd/route_segment.hpp),
// shared with the batched insertion engine.
using routesolve::RouteSegment;
using routesolve::SegmentLimits;
static_assert(routesolve::kNoLocation == kNone);

/// A's time profile followed by B's after `travel` time units (routesolve::merge).
inline DurationSegment merge_durations(const DurationSegment& a, const DurationSegment& b,
                                       Duration travel) {
  return routesolve::merge(a, b, travel);
}
/// A's load profile followed by B's, over `dims` dimensions (routesolve::merge).
inline LoadSegment merge_loads(const LoadSegment& a, const LoadSegment& b, std::size_t dims) {
  return routesolve::merge(a, b, dims);
}

/// The visits' summaries of one problem and the concatenation under a vehicle's travel data.
class SegmentModel {
 public:
  explicit SegmentModel(const Problem& problem);

  /// False when the problem has more capacity dimensions than kMaxDims.
  [[nodiscard]] bool supported() const noexcept { return supported_; }
  /// True when segments decide feasibility exactly for every vehicle (single windows, no setup,
  /// no breaks); otherwise schedule_route must confirm.
  [[nodiscard]] bool exact() const noexcept { return exact_; }
  /// True when some task has a time window (or the segments are not exact: breaks, setup,
  /// several windows), so that schedules, not only loads and distances, decide feasibility.
  [[nodiscard]] bool windowed() const noexcept { return windowed_ || !exact_; }
  [[nodiscard]] std::size_t dims() const noexcept { return dims_; }
  [[nodiscard]] const Problem& problem() const noexcept { return *problem_; }
  /// Vehicle v's travel data as the segments read it: without a max_distance, no distances
  /// (segments then carry distance 0; the exact schedule reads the problem's own tables).
  [[nodiscard]] const TravelView& travel(std::size_t v) const { return travel_[v]; }
  /// What vehicle v allows a whole route (max tasks, travel time, distance, capacity).
  [[nodiscard]] const SegmentLimits& limits(std::size_t v) const { return limits_[v]; }
  /// Problem::fixed_cost(v), from a compact array.
  [[nodiscard]] Cost fixed_cost(std::size_t v) const { return fixed_costs_[v]; }
  /// Vehicle v makes one trip (no reloads).
  [[nodiscard]] bool single_trip(std::size_t v) const { return single_trip_[v] != 0; }

  /// One task alone: its service (setup counted, a conservative bound), the span of its time
  /// windows (a relaxation when it has several) and its load effect.
  [[nodiscard]] const RouteSegment& task(std::size_t t) const { return tasks_[t]; }
  /// The start (resp. end) of vehicle v with its time window (breaks are core's schedule's).
  [[nodiscard]] const RouteSegment& start(std::size_t v) const { return ends_[end_of_[v]]; }
  [[nodiscard]] const RouteSegment& end(std::size_t v) const { return ends_[end_of_[v] + 2]; }
  /// The segments of vehicle v's empty route, in a row: start, start + end, end (prefix 0..1 at
  /// [0], suffix 0..1 at [1]). Vehicles with the same ends, shift and travel share them.
  [[nodiscard]] const RouteSegment* unused_route(std::size_t v) const { return &ends_[end_of_[v]]; }

  /// A followed by B on vehicle v.
  [[nodiscard]] RouteSegment merge(std::size_t v, const RouteSegment& a,
                                   const RouteSegment& b) const;
  /// The same into `out` (not `a` or `b`), without a temporary.
  void merge_into(RouteSegment& out, std::size_t v, const RouteSegment& a,
                  const RouteSegment& b) const {
    routesolve::merge_into(out, travel_[v], dims_, a, b);
  }

  /// feasible(v, merge(v, merge(v, a, b), c)) without building the merged segments: the shape
  /// of every insertion check (prefix, inserted visits, suffix), the search's hot path.
  [[nodiscard]] bool feasible(std::size_t v, const RouteSegment& a, const RouteSegment& b,
                              const RouteSegment& c) const;

  /// Total capacity excess of a whole route on vehicle v (0 when it fits).
  [[nodiscard]] std::int64_t load_excess(std::size_t v, const RouteSegment& route) const;
  /// Time warp plus the excess over max_travel_time (0 when the timing is feasible).
  [[nodiscard]] Duration time_excess(std::size_t v, const RouteSegment& route) const;
  /// Everything the segments check on a whole route of vehicle v: no unreachable arc, no time
  /// warp, capacity, max_tasks, max_travel_time, max_distance.
  [[nodiscard]] bool feasible(std::size_t v, const RouteSegment& route) const;
  /// Penalised cost of a whole route: cost + load_weight * load excess + time_weight * time
  /// excess (fixed cost excluded), the objective of a search that tolerates infeasibility.
  [[nodiscard]] Cost penalised_cost(std::size_t v, const RouteSegment& route, Cost load_weight,
                                    Cost time_weight) const;

 private:
  const Problem* problem_;
  std::size_t dims_ = 0;
  bool supported_ = true;
  bool exact_ = true;
  bool windowed_ = false;
  std::vector<TravelView> travel_;
  std::vector<SegmentLimits> limits_;
  std::vector<Cost> fixed_costs_;
  std::vector<char> single_trip_;
  std::vector<RouteSegment> tasks_;
  std::vector<RouteSegment> ends_;   // per distinct vehicle end: start, start + end, end
  std::vector<std::size_t> end_of_;  // per vehicle: its three in ends_
};

}  // namespace routesolve::search
