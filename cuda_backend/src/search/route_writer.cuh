#pragma once
// Writing a round's result: the new length of every route, then (after the exclusive scan of
// the lengths into the new offsets) every route at its new place in the batch's second buffer.

#include "route_spec.cuh"

namespace routesolve::cuda::detail::batched {


/// Positions of route r after the round (sentinels included); the last entry is 0.
RS_HD inline void route_length(const BatchView& b, const ApplyView& a, u32 r, u32 routes) {
  if (r == routes) {
    a.length[r] = 0;
    return;
  }
  a.length[r] = a.used[r] != 0u ? spec_tasks(b, a.spec[r]) + 2 : b.route_offsets[r + 1] - b.route_offsets[r];
}

struct RouteWriter {
  const BatchOut* out;
  u32 r, at;
  std::uint64_t task_base;
  RS_HD void operator()(i32 t) {
    out->pos_task[at] = t;
    out->pos_route[at] = r;
    if (t >= 0) out->task_pos[task_base + static_cast<u32>(t)] = static_cast<i32>(at);
    ++at;
  }
};

/// Writes route r at its new offset (out.route_offsets, already scanned).
RS_HD inline void write_route(const ProblemView& p, const BatchView& b, const ApplyView& a,
                              const BatchOut& out, u32 r) {
  RouteWriter w{&out, r, out.route_offsets[r], static_cast<std::uint64_t>(r / p.vehicles) * p.tasks};
  w(-1);
  if (a.used[r] != 0u) {
    for_each_task(b, a.spec[r], w);
  } else {
    for (u32 pos = b.route_offsets[r] + 1; pos + 1 < b.route_offsets[r + 1]; ++pos) w(b.pos_task[pos]);
  }
  w(-1);
}

}  // namespace routesolve::cuda::detail::batched
