#pragma once
// The walk along a route (Cursor: time, travel sums, tasks, load) and the prefix build: for
// every position of a route, the forward state (Savelsbergh's earliest departure, cumulative
// cost/duration/distance, load profile of the prefix) and the backward state (latest begin,
// feasibility of the rest, load profile of the suffix). One route per call, O(length); run per
// route by the build kernel's threads and by the host twin (kernels.cuh, BuildBody).
// Loads and visit times are core's arithmetic (routesolve/hd/segment.hpp).

#include "views.cuh"

namespace routesolve::cuda::detail::batched {

/// Load profile of one visit of `task` in dimension d (jobs and shipment halves, exact).
RS_HD inline LoadProfile task_load(const ProblemView& p, i32 task, u32 d) {
  const i64 del = p.task_delivery[static_cast<u32>(task) * p.dims + d];
  const i64 pick = p.task_pickup[static_cast<u32>(task) * p.dims + d];
  return visit_load(del, pick, (p.task_flags[task] & kTaskShipment) == 0u);
}

/// Prefix arrays' load profile of dimension d at a position (`at`: the array, prefix or suffix).
RS_HD inline LoadProfile load_at(const DeviceSpan<i64>& at, u32 pos, u32 dims, u32 d) {
  const u32 w = 3 * dims;
  return LoadProfile{at[pos * w + 3 * d], at[pos * w + 3 * d + 1], at[pos * w + 3 * d + 2]};
}

RS_HD inline void store_load(const DeviceSpan<i64>& at, u32 pos, u32 dims, u32 d, const LoadProfile& s) {
  const u32 w = 3 * dims;
  at[pos * w + 3 * d] = s.carried;
  at[pos * w + 3 * d + 1] = s.net;
  at[pos * w + 3 * d + 2] = s.peak;
}

RS_HD inline i32 pos_loc(const ProblemView& p, const BatchView& b, u32 pos, i32 sentinel_loc) {
  const i32 t = b.pos_task[pos];
  return t >= 0 ? p.task_loc[t] : sentinel_loc;
}

/// Forward state while a new route is walked: location, time, travel sums, tasks, load.
struct Cursor {
  i32 loc = -1;
  i64 t = 0, cost = 0, duration = 0, distance = 0;
  u32 count = 0;
  bool ok = true;
  LoadSegment load = empty_load();
};

/// Adds the arc from the cursor's location to `to` (nothing without a location).
RS_HD inline i64 add_arc(const TravelView& m, Cursor& c, i32 to) {
  if (c.loc < 0 || to < 0) return 0;
  const auto from = static_cast<std::size_t>(c.loc), there = static_cast<std::size_t>(to);
  const i64 d = m.duration(from, there);
  const i64 dist = m.distances != nullptr ? m.distance(from, there) : 0;
  const i64 co = m.cost(from, there);
  if (d >= kUnreachable || dist >= kUnreachable || co >= kUnreachable) c.ok = false;
  c.duration += d;
  c.distance += dist;
  c.cost += co;
  return d;
}

/// Visits `task` next (exactly schedule_route's timing, first window only).
RS_HD inline void visit(const ProblemView& p, const TravelView& m, Cursor& c, i32 task) {
  const i32 to = p.task_loc[task];
  const i64 arrival = c.t + add_arc(m, c, to);
  const VisitTime at = visit_time(arrival, p.task_tw_start[task], p.task_tw_end[task],
                                  setup_from(c.loc == to, p.task_setup[task]), p.task_service[task]);
  if (!at.in_window) c.ok = false;
  c.t = at.departure;
  c.loc = to;
  ++c.count;
  for (u32 d = 0; d < p.dims && d < kMaxDims; ++d) c.load.set(d, merge(c.load.dim(d), task_load(p, task, d)));
}

/// True when the arc from `from` to `to` has no path in distance or cost (duration is checked
/// by the caller, which needs its value).
RS_HD inline bool blocked(const TravelView& m, i32 from, i32 to) {
  const auto i = static_cast<std::size_t>(from), j = static_cast<std::size_t>(to);
  return (m.distances != nullptr && m.distance(i, j) >= kUnreachable) || m.cost(i, j) >= kUnreachable;
}

/// The prefix arrays of route r.
RS_HD inline void build_route(const ProblemView& p, const BatchView& b, const PrefixView& x, u32 r) {
  const u32 v = r % p.vehicles;
  const u32 first = b.route_offsets[r];
  const u32 last = b.route_offsets[r + 1] - 1;
  const TravelView m = p.travel[p.veh_travel[v]];
  const u32 dims = p.dims < kMaxDims ? p.dims : static_cast<u32>(kMaxDims);

  // Forward.
  Cursor c;
  c.loc = p.veh_start[v];
  c.t = p.veh_tw_start[v];
  u32 ships = 0;
  for (u32 pos = first; pos <= last; ++pos) {
    if (pos > first && pos < last) {
      const i32 task = b.pos_task[pos];
      visit(p, m, c, task);
      if ((p.task_flags[task] & kTaskShipment) != 0u) ++ships;
    } else if (pos == last) {
      const i64 arrival = c.t + add_arc(m, c, p.veh_end[v]);
      if (arrival > p.veh_tw_end[v]) c.ok = false;
      c.t = arrival;
    }
    x.depart[pos] = c.t;
    x.cost[pos] = c.cost;
    x.duration[pos] = c.duration;
    x.distance[pos] = c.distance;
    x.ok[pos] = c.ok ? kForwardOk : u8{0};
    x.shipments[pos] = ships;
    for (u32 d = 0; d < dims; ++d) store_load(x.prefix_load, pos, p.dims, d, c.load.dim(d));
  }

  // Backward: latest begin at each task, and whether the rest is feasible.
  LoadSegment suf = empty_load();
  for (u32 d = 0; d < dims; ++d) store_load(x.suffix_load, last, p.dims, d, LoadProfile{});
  x.latest[last] = p.veh_tw_end[v];
  x.ok[last] = static_cast<u8>(x.ok[last] | kBackwardOk);
  x.latest[first] = 0;
  bool rest_ok = true;  // suffix strictly after the current position is feasible
  for (u32 pos = last - 1; pos > first; --pos) {
    const i32 task = b.pos_task[pos];
    const i32 here = p.task_loc[task];
    const u32 next = pos + 1;
    i64 latest_next;  // latest arrival at the next position, coming from here
    i64 leg = 0;
    if (next == last) {
      latest_next = p.veh_tw_end[v];
      const i32 end = p.veh_end[v];
      if (end >= 0) {
        leg = m.duration(static_cast<std::size_t>(here), static_cast<std::size_t>(end));
        if (blocked(m, here, end)) rest_ok = false;
      }
    } else {
      const i32 nt = b.pos_task[next];
      const i32 nloc = p.task_loc[nt];
      latest_next = latest_begin(p.task_tw_end[nt], x.latest[next], setup_from(here == nloc, p.task_setup[nt]));
      if (p.task_tw_start[nt] > latest_next) rest_ok = false;
      leg = m.duration(static_cast<std::size_t>(here), static_cast<std::size_t>(nloc));
      if (blocked(m, here, nloc)) rest_ok = false;
    }
    x.latest[pos] = latest_next - leg - p.task_service[task];
    if (leg >= kUnreachable) rest_ok = false;
    if (rest_ok) x.ok[pos] = static_cast<u8>(x.ok[pos] | kBackwardOk);
    for (u32 d = 0; d < dims; ++d) {
      suf.set(d, merge(task_load(p, task, d), suf.dim(d)));
      store_load(x.suffix_load, pos, p.dims, d, suf.dim(d));
    }
  }
  for (u32 d = 0; d < dims; ++d) store_load(x.suffix_load, first, p.dims, d, suf.dim(d));
}

}  // namespace routesolve::cuda::detail::batched
