#pragma once
// The pricing of one insertion position, once for host and device (RS_HD): what every
// insertion engine of the search computes, the CPU engine one position after the other, the
// batched engine (host twin and device kernels) for whole batches. A position is priced from
// the tour's prefix and suffix segments in O(1) (a job) or O(n) over the delivery positions
// (a shipment's pickup position i, every delivery position j >= i).
//
// Blinks (SISR: a position is skipped with a small probability) are counter-based: whether
// position (vehicle, i, j) of a request blinks is a hash of the request's key and the
// position, so engines that price positions in any order, or all at once, skip the same ones.
// The best insertion is the cheapest feasible unblinked position, ties going to the earlier
// candidate tour, then the earlier i, then the earlier j: the order a sequential scan that keeps
// strict improvements finds.

#include <cstddef>
#include <cstdint>

#include "routesolve/hd/host_device.hpp"
#include "routesolve/hd/route_segment.hpp"

namespace routesolve::search::hd {

/// No feasible position (the delta of "not found").
inline constexpr std::int64_t kNoInsertion = INT64_MAX / 4;

/// splitmix64's finaliser.
RS_HD constexpr std::uint64_t mix(std::uint64_t z) noexcept {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/// True when position (v, i, j) of the request with `key` blinks; `threshold` = rate * 2^32.
RS_HD constexpr bool blinks(std::uint64_t key, std::size_t v, std::size_t i, std::size_t j,
                            std::uint32_t threshold) noexcept {
  if (threshold == 0) return false;
  const std::uint64_t h =
      mix(key ^ mix(0x9E3779B97F4A7C15ULL * (v + 1) + 0xD1B54A32D192ED03ULL * (i + 1) +
                    0x8CB92BA72F3D8DD7ULL * (j + 1)));
  return static_cast<std::uint32_t>(h >> 32) < threshold;
}

/// One tour as the pricing reads it: its prefix and suffix segments (prefix[k]: nodes 0..k,
/// suffix[k]: nodes k..n+1, nodes 0 = start, 1..n = tasks, n+1 = end), its task count, the
/// segments of its tasks in order (shipments: the delivery scan merges them), and its vehicle's
/// travel data and limits.
struct TourView {
  const RouteSegment* prefix = nullptr;
  const RouteSegment* suffix = nullptr;
  const std::size_t* task_ids = nullptr;  ///< n task indices (to read their segments)
  std::size_t n = 0;
  std::size_t vehicle = 0;
  std::int64_t opening = 0;  ///< fixed cost paid when the tour is empty now
  TravelView travel;
  SegmentLimits limits;
};

/// What is inserted: a job (or lone task) with its segment, or a shipment's two halves.
struct Inserted {
  const RouteSegment* segment = nullptr;  ///< the job or pickup
  const RouteSegment* sibling = nullptr;  ///< the delivery; null for a job
  std::size_t location = 0, sibling_location = 0;
};

/// A priced position: delta (kNoInsertion when none) and the delivery position j (shipments).
struct Priced {
  std::int64_t delta = kNoInsertion;
  std::size_t j = 0;
};

/// What the tour carries at its start and end must fit with a job: a necessary condition that
/// rules out full tours before any position is priced.
RS_HD inline bool job_may_fit(const TourView& t, const Inserted& x, std::size_t dims) noexcept {
  const RouteSegment& whole = t.prefix[t.n + 1];
  for (std::size_t d = 0; d < dims && d < kMaxDims; ++d) {
    const std::int64_t start = whole.load.head[d].carried + x.segment->load.head[d].carried;
    const std::int64_t capacity = t.limits.capacity[d];
    if (start > capacity || start + whole.load.head[d].net + x.segment->load.head[d].net > capacity)
      return false;
  }
  return true;
}

/// The three arc costs a job's position k reads: into the job, out of it, and the arc it
/// replaces. Apart from the checks, these are the matrix reads of a position; on large matrices
/// each may miss the cache, so the CPU engine reads every position's arcs of a tour first (the
/// loads are independent and overlap) and then prices them (price_job_from).
struct JobArcs {
  std::int64_t in = 0, out = 0, replaced = 0;
};

RS_HD inline JobArcs job_arcs(const TourView& t, const Inserted& x, std::size_t k) noexcept {
  const TravelView& tv = t.travel;
  const std::size_t a = t.prefix[k].last, b = t.suffix[k + 1].first, p = x.location;
  return JobArcs{arc_cost(tv, a, p), arc_cost(tv, p, b), arc_cost(tv, a, b)};
}

/// A job before tasks[k] (k = 0..n) given its arcs (job_arcs): its delta when it is below
/// `bound`, feasible and not blinked; kNoInsertion otherwise.
RS_HD inline Priced price_job_from(const TourView& t, const Inserted& x, std::size_t dims,
                                   std::size_t k, const JobArcs& arcs, std::int64_t bound,
                                   std::uint64_t key, std::uint32_t blink) noexcept {
  Priced out;
  if (arcs.in >= kUnreachable || arcs.out >= kUnreachable)
    return out;  // durations: checked by feasible()
  const std::int64_t delta = arcs.in + arcs.out - arcs.replaced + t.opening;
  if (delta >= bound || blinks(key, t.vehicle, k, k, blink)) return out;
  if (!feasible(t.travel, t.limits, dims, t.prefix[k], *x.segment, t.suffix[k + 1])) return out;
  out.delta = delta;
  out.j = k;
  return out;
}

/// A job before tasks[k] (k = 0..n): its delta when it is below `bound`, feasible and not
/// blinked; kNoInsertion otherwise.
RS_HD inline Priced price_job(const TourView& t, const Inserted& x, std::size_t dims, std::size_t k,
                              std::int64_t bound, std::uint64_t key, std::uint32_t blink) noexcept {
  return price_job_from(t, x, dims, k, job_arcs(t, x, k), bound, key, blink);
}

/// A shipment with its pickup before tasks[i]: the best delivery position j >= i (first on
/// ties) whose delta is below `bound` (the bound tightens as better j are found), feasible and
/// not blinked. `segment(task)` gives a task's segment.
template <class SegmentOf>
RS_HD Priced price_pair_row(const TourView& t, const Inserted& x, std::size_t dims, std::size_t i,
                            std::int64_t bound, std::uint64_t key, std::uint32_t blink,
                            const SegmentOf& segment) noexcept {
  Priced best;
  const TravelView& tv = t.travel;
  const std::size_t p = x.location, d = x.sibling_location;
  const std::size_t a = t.prefix[i].last, b = t.suffix[i + 1].first;
  if (!reachable(tv, a, p)) return best;
  const std::int64_t pickup_delta =
      arc_cost(tv, a, p) + arc_cost(tv, p, b) - arc_cost(tv, a, b) + t.opening;
  RouteSegment current = merge(tv, dims, t.prefix[i], *x.segment);
  if (current.time.time_warp > 0 || current.unreachable) return best;
  for (std::size_t j = i; j <= t.n; ++j) {
    const std::size_t from = j == i ? p : t.prefix[j].last, to = t.suffix[j + 1].first;
    const std::int64_t delta = j == i ? arc_cost(tv, a, p) + arc_cost(tv, p, d) +
                                            arc_cost(tv, d, b) - arc_cost(tv, a, b) + t.opening
                                      : pickup_delta + arc_cost(tv, from, d) + arc_cost(tv, d, to) -
                                            arc_cost(tv, from, to);
    if (reachable(tv, from, d) && reachable(tv, d, to) && delta < bound &&
        !blinks(key, t.vehicle, i, j, blink) &&
        feasible(tv, t.limits, dims, current, *x.sibling, t.suffix[j + 1])) {
      best.delta = bound = delta;
      best.j = j;
    }
    if (j < t.n) {
      current = merge(tv, dims, current, segment(t.task_ids[j]));
      if (current.time.time_warp > 0 || current.unreachable) break;
    }
  }
  return best;
}

}  // namespace routesolve::search::hd
