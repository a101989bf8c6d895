#pragma once
// The batched route evaluation, written once for host and device: per-route arc slots, the
// per-arc functor (a gather over the travel matrices), the launch shape, and the kernel's
// per-thread body in phases around the warp reduction. route_eval.cu runs the phases in one
// kernel (the reduction with shuffles); the host twin (route_eval_host.cpp) walks the same grid
// and runs each block's threads phase by phase (the reduction over the 32 lane values).
//
// Arc slots: a route with k > 0 visits has k + 1 slots. Slot s < k is the arc into visit s (from
// the start, or nothing for s = 0 without a start); slot k is the arc into the end (nothing
// without an end). A route with no visits has no slots: the vehicle is not used, totals are 0.
//
// Mapping: one warp per route; lane l sums the slots l, l + 32, ... of its route; lane 0 writes
// the warp's sum. Warps past the last route sum nothing and write nothing, but still take part
// in the reduction (full warps, full shuffle mask).

#include <cstdint>

#include "device_span.cuh"
#include "launch_grid.cuh"
#include "routesolve/cuda/route_totals.hpp"
#include "routesolve/hd/travel_view.hpp"

namespace routesolve::cuda::detail {

inline constexpr std::int32_t kNoLocationIndex = -1;

/// Threads per block of the route evaluation: 8 routes per block.
inline constexpr std::uint32_t kRouteEvalBlock = 256;

/// Everything a route evaluation reads, as plain pointers (device or host memory).
struct RouteEvalView {
  DeviceSpan<const TravelView> travel;
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

  RS_HD RouteTotals operator()(std::uint64_t r, std::uint32_t slot) const noexcept {
    const std::uint32_t first = view.route_offsets[r];
    const std::uint32_t k = view.route_offsets[r + 1] - first;
    const std::int64_t from =
        slot == 0 ? view.route_start[r] : static_cast<std::int64_t>(view.visits[first + slot - 1]);
    const std::int64_t to =
        slot == k ? view.route_end[r] : static_cast<std::int64_t>(view.visits[first + slot]);
    if (from < 0 || to < 0) return RouteTotals{};
    const TravelView m = view.travel[view.route_travel[r]];
    const auto i = static_cast<std::size_t>(from);
    const auto j = static_cast<std::size_t>(to);
    return RouteTotals{m.duration(i, j), m.distances != nullptr ? m.distance(i, j) : 0,
                       m.cost(i, j)};
  }
};

/// Launch shape: one warp per route.
RS_HD constexpr Grid route_eval_grid(std::uint64_t routes) noexcept {
  return linear_grid(routes * kWarp, kRouteEvalBlock);
}

/// The route and lane of a thread.
struct RouteLane {
  std::uint64_t route = 0;
  std::uint32_t lane = 0;
};

RS_HD inline RouteLane route_lane(std::uint32_t thread, std::uint32_t block,
                                  std::uint32_t block_dim) noexcept {
  return RouteLane{global_thread(thread, block, block_dim) / kWarp, thread % kWarp};
}

/// Phase 1: the thread's partial sum over its lane's arc slots (zero past the last route).
RS_HD inline RouteTotals route_eval_partial(std::uint32_t thread, std::uint32_t block,
                                            std::uint32_t block_dim,
                                            const RouteEvalView& view) noexcept {
  const RouteLane at = route_lane(thread, block, block_dim);
  RouteTotals sum{};
  if (at.route >= view.routes()) return sum;
  const ArcEval eval{view};
  const std::uint32_t slots = arc_slots(view, at.route);
  for (std::uint32_t s = at.lane; s < slots; s += kWarp) sum = sum + eval(at.route, s);
  return sum;
}

// Phase 2 is warp_sum (warp_sum.cuh) over the partial sums of each warp.

/// Phase 3: lane 0 of a route's warp writes the warp's sum.
RS_HD inline void route_eval_store(std::uint32_t thread, std::uint32_t block,
                                   std::uint32_t block_dim, const RouteTotals& warp_total,
                                   DeviceSpan<RouteTotals> out) noexcept {
  const RouteLane at = route_lane(thread, block, block_dim);
  if (at.route < out.size() && at.lane == 0) out[at.route] = warp_total;
}

}  // namespace routesolve::cuda::detail
