#pragma once
// Route-segment arithmetic, once for host and device (RS_HD): the summaries of a sequence of
// visits that concatenate in O(1) (Vidal et al. 2013, "A unified solution framework for
// multi-attribute vehicle routing problems"; the idea of PyVRP's LoadSegment/DurationSegment),
// and the timing of one visit. core's schedule_route, the CPU search's SegmentModel and the
// batched (CUDA and host twin) move pricing all compute loads and times with these functions.
//
//  - LoadProfile / LoadSegment: the load of a sequence in one / up to kMaxDims dimensions. Job
//    deliveries ride from the route start, job pickups stay to the end, shipment halves change
//    the load where they are visited. Exact for every mix of jobs and shipments.
//  - DurationSegment: minimum duration, unavoidable time warp and the window of start instants
//    of a sequence (exact for single time windows; a relaxation for several).
//  - visit_time: one visit's begin and departure in schedule_route's timing model.
//
// Plain arrays and no standard containers: nvcc compiles this header for the device.

#include <cstddef>
#include <cstdint>

#include "routesolve/hd/host_device.hpp"

namespace routesolve {

/// Latest representable instant; an open time window ends here.
inline constexpr std::int64_t kMaxTime = INT64_MAX / 8;

/// A matrix entry at or above this value means "no path" (an unreachable pair of locations).
inline constexpr std::int64_t kUnreachable = INT64_MAX / 8;

/// Capacity dimensions the segment arithmetic holds inline. Problems with more are scheduled by
/// schedule_route alone (LoadProfile has no limit); the searches' segment models refuse them.
inline constexpr std::size_t kMaxDims = 8;

namespace hd {
RS_HD constexpr std::int64_t max(std::int64_t a, std::int64_t b) noexcept { return a > b ? a : b; }
RS_HD constexpr std::int64_t min(std::int64_t a, std::int64_t b) noexcept { return a < b ? a : b; }
}  // namespace hd

// ------------------------------------------------------------------------------------------
// Loads
// ------------------------------------------------------------------------------------------

/// Load profile of a sequence in one dimension. With the load E on board when the sequence
/// begins, the load peaks at E + peak inside it (peak >= 0: E itself counts) and is E + net
/// when it ends. `carried` is what the sequence needs on board from the route start (its job
/// deliveries), so that a whole route starts with `carried` on board and peaks at
/// carried + peak (route_peak).
struct LoadProfile {
  std::int64_t carried = 0;
  std::int64_t net = 0;
  std::int64_t peak = 0;
};

/// A followed by B.
RS_HD constexpr LoadProfile merge(const LoadProfile& a, const LoadProfile& b) noexcept {
  return LoadProfile{a.carried + b.carried, a.net + b.net, hd::max(a.peak, a.net + b.peak)};
}

/// One visit: a job (its delivery rides from the start) or a shipment half (its delivery is
/// dropped here and its pickup taken here; a pickup half has delivery 0, a delivery half pickup 0).
RS_HD constexpr LoadProfile visit_load(std::int64_t delivery, std::int64_t pickup,
                                       bool job) noexcept {
  return LoadProfile{job ? delivery : 0, pickup - delivery, hd::max(0, pickup - delivery)};
}

/// Highest load on a whole route made of the sequence (what must fit the capacity).
RS_HD constexpr std::int64_t route_peak(const LoadProfile& s) noexcept {
  return s.carried + s.peak;
}

/// Load on board after the sequence, on a route that started with `start` on board.
RS_HD constexpr std::int64_t load_after(std::int64_t start, const LoadProfile& prefix) noexcept {
  return start + prefix.net;
}

/// Load profile in up to kMaxDims dimensions (dimension d's first-trip profile is head[d]).
/// Only the first `dims` entries a function is given are meaningful; merges leave the others
/// untouched (they are the searches' hot path). Each dimension's numbers sit together, right
/// after `reloads`, so that a one-dimensional merge reads only the first two cache lines of each
/// operand, not five (a RouteSegment is about 550 bytes, most of it the unused dimensions and the
/// multi-trip parts).
///
/// Multi-trip: a reload ends a trip (the vehicle unloads what the trip picked up and loads what
/// the next trip delivers). A sequence with reloads keeps its first trip's part (before its first
/// reload) in head, its last trip's part (after its last reload) in tail_, and the highest
/// route_peak of the trips wholly inside it in inner[d], so that concatenation stays O(1).
/// reloads == 0: tail_ and inner are unused (and not written by the merges).
struct LoadSegment {
  /// One dimension's carried / net / peak, without default initialisers (segments are built
  /// in the hot path and only their first `dims` entries are ever written).
  struct Cell {
    std::int64_t carried;
    std::int64_t net;
    std::int64_t peak;
  };
  std::int64_t reloads;
  Cell head[kMaxDims];
  Cell tail_[kMaxDims];
  std::int64_t inner[kMaxDims];

  [[nodiscard]] RS_HD constexpr LoadProfile dim(std::size_t d) const noexcept {
    return LoadProfile{head[d].carried, head[d].net, head[d].peak};
  }
  RS_HD constexpr void set(std::size_t d, const LoadProfile& p) noexcept {
    head[d] = Cell{p.carried, p.net, p.peak};
  }
  /// The last trip's part (reloads > 0).
  [[nodiscard]] RS_HD constexpr LoadProfile tail(std::size_t d) const noexcept {
    return LoadProfile{tail_[d].carried, tail_[d].net, tail_[d].peak};
  }
  RS_HD constexpr void set_tail(std::size_t d, const LoadProfile& p) noexcept {
    tail_[d] = Cell{p.carried, p.net, p.peak};
  }
};

/// The empty sequence (every dimension 0).
RS_HD constexpr LoadSegment empty_load() noexcept {
  LoadSegment s{};
  for (std::size_t d = 0; d < kMaxDims; ++d) s.set(d, LoadProfile{});
  s.reloads = 0;
  return s;
}

/// A reload alone: it ends a trip and begins the next, both empty.
RS_HD constexpr LoadSegment reload_load() noexcept {
  LoadSegment s = empty_load();
  s.reloads = 1;
  for (std::size_t d = 0; d < kMaxDims; ++d) {
    s.set_tail(d, LoadProfile{});
    s.inner[d] = 0;
  }
  return s;
}

/// A followed by B, in the first `dims` dimensions (the others are left unset), into `s` (which
/// may not be `a` or `b`).
RS_HD inline void merge_into(LoadSegment& s, const LoadSegment& a, const LoadSegment& b,
                             std::size_t dims) noexcept {
  s.reloads = a.reloads + b.reloads;
  if (s.reloads == 0) {
    for (std::size_t d = 0; d < dims && d < kMaxDims; ++d) s.set(d, merge(a.dim(d), b.dim(d)));
    return;
  }
  for (std::size_t d = 0; d < dims && d < kMaxDims; ++d) {
    if (a.reloads == 0) {  // B's first trip begins in A
      s.set(d, merge(a.dim(d), b.dim(d)));
      s.set_tail(d, b.tail(d));
      s.inner[d] = b.inner[d];
    } else if (b.reloads == 0) {  // A's last trip ends in B
      s.set(d, a.dim(d));
      s.set_tail(d, merge(a.tail(d), b.dim(d)));
      s.inner[d] = a.inner[d];
    } else {  // A's last trip and B's first make one trip inside
      s.set(d, a.dim(d));
      s.set_tail(d, b.tail(d));
      s.inner[d] = hd::max(hd::max(a.inner[d], b.inner[d]), route_peak(merge(a.tail(d), b.dim(d))));
    }
  }
}

RS_HD inline LoadSegment merge(const LoadSegment& a, const LoadSegment& b,
                               std::size_t dims) noexcept {
  LoadSegment s;
  merge_into(s, a, b, dims);
  return s;
}

/// Capacity excess of a whole route made of `s` (0 when it fits), summed over `dims` dimensions
/// and, with reloads, over its trips' highest loads (first, last, and the highest inside).
RS_HD constexpr std::int64_t load_excess(const LoadSegment& s, const std::int64_t* capacity,
                                         std::size_t dims) noexcept {
  std::int64_t excess = 0;
  for (std::size_t d = 0; d < dims && d < kMaxDims; ++d) {
    excess += hd::max(0, route_peak(s.dim(d)) - capacity[d]);
    if (s.reloads > 0)
      excess +=
          hd::max(0, route_peak(s.tail(d)) - capacity[d]) + hd::max(0, s.inner[d] - capacity[d]);
  }
  return excess;
}

/// True when a whole route made of A, B, C in that order fits `capacity` (without building the
/// merged segments when none has a reload).
RS_HD inline bool fits(const LoadSegment& a, const LoadSegment& b, const LoadSegment& c,
                       const std::int64_t* capacity, std::size_t dims) noexcept {
  if (a.reloads + b.reloads + c.reloads > 0)
    return load_excess(merge(merge(a, b, dims), c, dims), capacity, dims) == 0;
  for (std::size_t d = 0; d < dims && d < kMaxDims; ++d)
    if (route_peak(merge(a.dim(d), merge(b.dim(d), c.dim(d)))) > capacity[d]) return false;
  return true;
}

// ------------------------------------------------------------------------------------------
// Times
// ------------------------------------------------------------------------------------------

/// Timing of a sequence (Vidal 2013): minimum duration (travel, service, unavoidable waiting),
/// unavoidable time warp, and the window [earliest, latest] in which it may start.
struct DurationSegment {
  std::int64_t duration = 0;
  std::int64_t time_warp = 0;
  std::int64_t earliest = 0;
  std::int64_t latest = kMaxTime;
};

/// A followed by B, `travel` time units after A's last visit ends.
RS_HD constexpr DurationSegment merge(const DurationSegment& a, const DurationSegment& b,
                                      std::int64_t travel) noexcept {
  const std::int64_t delta = a.duration - a.time_warp + travel;
  const std::int64_t wait = hd::max(b.earliest - delta - a.latest, 0);
  const std::int64_t warp = hd::max(a.earliest + delta - b.latest, 0);
  DurationSegment s;
  s.duration = a.duration + b.duration + travel + wait;
  s.time_warp = a.time_warp + b.time_warp + warp;
  s.earliest = hd::max(b.earliest - delta, a.earliest) - wait;
  s.latest = hd::min(b.latest - delta, a.latest) + warp;
  return s;
}

/// One visit as a duration segment: `work` time units (setup and service) begun in [open, close].
RS_HD constexpr DurationSegment visit_duration(std::int64_t work, std::int64_t open,
                                               std::int64_t close) noexcept {
  DurationSegment s;
  s.duration = work;
  s.earliest = open;
  s.latest = close;
  return s;
}

/// One visit in schedule_route's timing model, for one time window [open, close]: the work
/// (setup, then service) begins at max(arrival, open), which must not be after close; setup is
/// counted only when the vehicle arrives from another location.
struct VisitTime {
  std::int64_t begin = 0;      ///< when the work begins
  std::int64_t departure = 0;  ///< begin + setup (when counted) + service
  bool in_window = true;       ///< begin <= close
};

/// The setup counted at a visit: only when arriving from another location.
RS_HD constexpr std::int64_t setup_from(bool same_location, std::int64_t setup) noexcept {
  return same_location ? 0 : setup;
}

RS_HD constexpr VisitTime visit_time(std::int64_t arrival, std::int64_t open, std::int64_t close,
                                     std::int64_t setup, std::int64_t service) noexcept {
  VisitTime v;
  v.begin = hd::max(arrival, open);
  v.in_window = v.begin <= close;
  v.departure = v.begin + setup + service;
  return v;
}

/// One break taken on a leg, in VROOM's model: `t` is the departure from the previous stop (or
/// the end of the previous break on the same leg), `left` the travel left on the leg and `open`
/// the start of the break's window (the first whose end >= t). The vehicle drives until the
/// window opens, at most `left`, then waits for it: the break begins at max(t, open).
struct LegBreak {
  std::int64_t arrival = 0;  ///< when the vehicle stops for the break
  std::int64_t driven = 0;   ///< travel of the leg done before the break (arrival - t)
  std::int64_t waiting = 0;  ///< begin - arrival
  std::int64_t end = 0;      ///< begin + service
};

RS_HD constexpr LegBreak en_route_break(std::int64_t t, std::int64_t left, std::int64_t open,
                                        std::int64_t service) noexcept {
  LegBreak b;
  const std::int64_t begin = hd::max(t, open);
  b.driven = hd::min(begin - t, left);
  b.arrival = t + b.driven;
  b.waiting = begin - b.arrival;
  b.end = begin + service;
  return b;
}

/// The backward pass of the same model: the latest instant a visit's work may begin, by `close`
/// and `setup` (when counted) before `bound`, the latest instant its setup may begin for what
/// follows to stay feasible.
RS_HD constexpr std::int64_t latest_begin(std::int64_t close, std::int64_t bound,
                                          std::int64_t setup) noexcept {
  return hd::min(close, bound - setup);
}

}  // namespace routesolve
