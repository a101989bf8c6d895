#pragma once
// Pricing one composed route exactly (within the model of views.cuh): the own route's prefix
// from the prefix arrays, the middle pieces visit by visit, the suffix in O(1).

#include "../prefix.cuh"
#include "../route_spec.cuh"

namespace routesolve::cuda::detail::batched {

struct Priced {
  bool feasible = false;
  i64 cost = 0;  // arc costs + fixed cost when the route is used
};

/// Prices a composed route exactly (within the model of views.cuh).
RS_HD inline Priced price_route(const ProblemView& p, const BatchView& b, const PrefixView& x,
                                const RouteSpec& s, BreakRule breaks = BreakRule::Exclude) {
  Priced out;
  const u32 v = s.veh;
  if (p.dims > kMaxDims) return out;
  if ((p.veh_flags[v] & kVehicleBreaks) != 0u && breaks == BreakRule::Exclude) return out;
  const TravelView m = p.travel[p.veh_travel[v]];
  const u32 route = b.pos_route[s.prefix];
  const u32 first = b.route_offsets[route];

  Cursor c;
  c.loc = pos_loc(p, b, s.prefix, p.veh_start[v]);
  c.t = x.depart[s.prefix];
  c.cost = x.cost[s.prefix];
  c.duration = x.duration[s.prefix];
  c.distance = x.distance[s.prefix];
  c.count = s.prefix - first;
  c.ok = (x.ok[s.prefix] & kForwardOk) != 0u;
  for (u32 d = 0; d < p.dims; ++d) c.load.set(d, load_at(x.prefix_load, s.prefix, p.dims, d));

  for (u32 k = 0; k < s.pieces; ++k) {
    const Piece& pc = s.piece[k];
    if (pc.kind == kPieceTasks) {
      for (u32 i = 0; i < pc.count; ++i) {
        if (p.compatible[static_cast<std::uint64_t>(v) * p.tasks + pc.task[i]] == 0u) return out;
        visit(p, m, c, pc.task[i]);
      }
    } else {
      if (pc.to - pc.from + 1 > kMaxRange) return out;
      for (u32 i = 0; i <= pc.to - pc.from; ++i) {
        const u32 pos = pc.kind == kPieceForward ? pc.from + i : pc.to - i;
        if (!skipped(pc, pos)) visit(p, m, c, b.pos_task[pos]);
      }
    }
    if (!c.ok) return out;
  }

  // Suffix: O(1) from the prefix arrays of its route (same vehicle class as v).
  const u32 j = s.suffix;
  const u32 slast = b.route_offsets[s.suffix_route + 1] - 1;
  const i32 task = b.pos_task[j];
  if (c.count == 0 && task < 0) {  // nothing left: the vehicle is unused, free and feasible
    out.feasible = true;
    return out;
  }
  if (task < 0) {
    const i64 arrival = c.t + add_arc(m, c, p.veh_end[v]);
    if (arrival > p.veh_tw_end[v]) c.ok = false;
  } else {
    const i32 to = p.task_loc[task];
    const i64 arrival = c.t + add_arc(m, c, to);
    const i64 latest = latest_begin(p.task_tw_end[task], x.latest[j], setup_from(c.loc == to, p.task_setup[task]));
    if ((x.ok[j] & kBackwardOk) == 0u || !visit_time(arrival, p.task_tw_start[task], latest, 0, 0).in_window)
      c.ok = false;
    c.cost += x.cost[slast] - x.cost[j];
    c.duration += x.duration[slast] - x.duration[j];
    c.distance += x.distance[slast] - x.distance[j];
    c.count += slast - j;
  }
  if (!c.ok) return out;
  if (static_cast<i64>(c.count) > p.veh_max_tasks[v] || c.duration > p.veh_max_duration[v] ||
      c.distance > p.veh_max_distance[v])
    return out;
  for (u32 d = 0; d < p.dims; ++d)
    if (route_peak(merge(c.load.dim(d), load_at(x.suffix_load, j, p.dims, d))) > p.veh_capacity[v * p.dims + d])
      return out;
  out.feasible = true;
  out.cost = c.cost + (c.count > 0 ? p.veh_fixed[v] : 0);
  return out;
}

/// Current cost of route r (arc costs + fixed cost when used).
RS_HD inline i64 route_cost(const ProblemView& p, const BatchView& b, const PrefixView& x, u32 r) {
  const u32 first = b.route_offsets[r], last = b.route_offsets[r + 1] - 1;
  return last - first > 1 ? x.cost[last] + p.veh_fixed[r % p.vehicles] : 0;  // unused: free
}
}  // namespace routesolve::cuda::detail::batched
