#pragma once
// The batched route evaluation, written once for host and device: per-route arc slots and the
// per-arc functor (a gather over the travel matrices). The device kernel (route_eval.cu) and the
// host twin (route_eval_host.cpp, Thrust's OpenMP system) both reduce these per-arc figures per
// route; only the reduction differs (warp shuffle vs thrust::reduce_by_key).
//
// Arc slots: a route with k > 0 visits has k + 1 slots. Slot s < k is the arc into visit s (from
// the start, or nothing for s = 0 without a start); slot k is the arc into the end (nothing
// without an end). A route with no visits has no slots: the vehicle is not used, totals are 0.

#include <cstdint>

#include "device_span.cuh"

namespace routesolve::cuda::detail {

inline constexpr std::int32_t kNoLocationIndex = -1;

/// The matrices of one travel index (n x n, row-major). distances may be null: all zero.
struct MatrixRef {
  std::uint64_t n = 0;
  const std::int64_t* durations = nullptr;
  const std::int64_t* distances = nullptr;
  const std::int64_t* costs = nullptr;
};

/// Totals of one arc or one route. Same layout as the public RouteTotals.
struct ArcTotals {
  std::int64_t duration = 0;
  std::int64_t distance = 0;
  std::int64_t cost = 0;
  RS_HD ArcTotals operator+(const ArcTotals& o) const noexcept {
    return ArcTotals{duration + o.duration, distance + o.distance, cost + o.cost};
  }
};

/// Everything a route evaluation reads, as plain pointers (device or host memory).
struct RouteEvalView {
  DeviceSpan<const MatrixRef> travel;
  DeviceSpan<const std::uint32_t> route_offsets;  ///< routes + 1 entries
  DeviceSpan<const std::uint32_t> visits;         ///< location per visit
  DeviceSpan<const std::uint32_t> route_travel;   ///< travel index per route
  DeviceSpan<const std::int32_t> route_start;     ///< start location or kNoLocationIndex
  DeviceSpan<const std::int32_t> route_end;       ///< end location or kNoLocationIndex

  RS_HD std::uint64_t routes() const noexcept { return route_travel.size(); }
};

/// Number of arc slots of route r (see the file comment).
RS_HD inline std::uint32_t arc_slots(const RouteEvalView& view, std::uint64_t r) noexcept {
  const std::uint32_t k = view.route_offsets[r + 1] - view.route_offsets[r];
  return k == 0 ? 0u : k + 1u;
}

/// The per-arc functor: duration, distance and cost of arc slot `slot` of route `r`.
struct ArcEval {
  RouteEvalView view;

  RS_HD ArcTotals operator()(std::uint64_t r, std::uint32_t slot) const noexcept {
    const std::uint32_t first = view.route_offsets[r];
    const std::uint32_t k = view.route_offsets[r + 1] - first;
    const std::int64_t from =
        slot == 0 ? view.route_start[r] : static_cast<std::int64_t>(view.visits[first + slot - 1]);
    const std::int64_t to =
        slot == k ? view.route_end[r] : static_cast<std::int64_t>(view.visits[first + slot]);
    if (from < 0 || to < 0) return ArcTotals{};
    const MatrixRef m = view.travel[view.route_travel[r]];
    const std::uint64_t at =
        static_cast<std::uint64_t>(from) * m.n + static_cast<std::uint64_t>(to);
    return ArcTotals{m.durations[at], m.distances != nullptr ? m.distances[at] : 0, m.costs[at]};
  }
};

}  // namespace routesolve::cuda::detail
