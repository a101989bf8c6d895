#pragma once
// Batched move evaluation, written once for host and device (RS_HD): the views of the packed
// problem and of a structure-of-arrays batch of solutions, the per-route prefix build
// (Savelsbergh forward/backward time data, cumulative travel figures, load segments), and the
// O(1) pricing of relocate, swap, 2-opt*, 2-opt and or-opt moves by joining route pieces.
//
// Model (exactly schedule_route's, see core/src/schedule.cpp), with three documented limits:
//  * one time window per task: the first one. Any schedule feasible under it is feasible and
//    identical under all windows (a task begins at max(arrival, start) either way), so the
//    restriction is conservative: it can only reject moves, never accept an infeasible one;
//  * routes of vehicles with breaks are excluded from the batched moves: under the default
//    BreakRule::Exclude every move touching one is infeasible. BreakRule::Relax prices them
//    without their breaks, a necessary condition (removing breaks only makes a schedule earlier
//    and drops their max_load) with the exact cost (breaks change no arc); the host then checks
//    such a candidate with schedule_route before it applies it (batched_search.cpp, break pass);
//  * shipment halves move only as a pair (kPairRelocate: pickup and delivery together, pickup
//    first, in one route); no other move moves one, and a segment holding one is never reversed
//    or sent to another route, so precedence and pairing cannot break. Loads are exact for
//    shipments.
// Setup is counted when arriving from another location, so a suffix keeps its latest start as
// min(tw_end, y - setup(pred)): two numbers per position instead of one.
//
// A new route is `prefix(up to a position of the vehicle's own route) + up to 3 middle pieces
// + suffix(from a position of some route)`. Prefix and suffix are O(1) (prefix arrays); a
// middle piece is up to 3 explicit tasks (inter-route moves: O(1)) or a forward / reversed range
// of the same route (intra-route moves: O(length), capped at kMaxRange positions).

#include <cstdint>

#include "../device_span.cuh"
#include "../route_eval.cuh"  // MatrixRef

namespace routesolve::cuda::detail::search {

using i64 = std::int64_t;
using u32 = std::uint32_t;
using i32 = std::int32_t;
using u8 = std::uint8_t;

inline constexpr i64 kUnreachableArc = INT64_MAX / 8;  // = routesolve::kUnreachable
inline constexpr i64 kNoMove = INT64_MAX;               // delta of "no improving move"
inline constexpr u32 kMaxDims = 8;     // larger problems: every move infeasible (documented)
inline constexpr u32 kMaxRange = 128;  // longest range an intra-route move walks through

inline constexpr u32 kTaskShipment = 1u;  // task flag: pickup or delivery half of a shipment
inline constexpr u32 kTaskPickup = 2u;    // task flag: the pickup half (with kTaskShipment)
inline constexpr u32 kVehicleBreaks = 1u;  // vehicle flag: has breaks (its route is not priced)

inline constexpr u8 kForwardOk = 1u;   // prefix up to here is feasible
inline constexpr u8 kBackwardOk = 2u;  // the suffix after here is feasible given this location

/// Move types. Values are stable: they travel in Move records and name benchmark rows.
enum MoveType : u8 {
  kRelocateAfter = 0,   ///< u goes right after v
  kRelocateBefore = 1,  ///< u goes right before v
  kSwap = 2,            ///< u and v trade places
  kTwoOptStar = 3,      ///< routes of u and v exchange tails: u -> v ... and pred(v) -> succ(u)
  kTwoOpt = 4,          ///< same route: the path between u and v is reversed (arc u-v appears)
  kOrOpt2 = 5,          ///< u and its successor go right after v
  kOrOpt3 = 6,          ///< u and its next two go right after v
  kPairRelocate = 7,    ///< pickup u goes right after v and its delivery right after position
                        ///< Move::aux of v's route (aux = v's position: right after u), both
                        ///< taken out of their route first (another route or the same one)
  kMoveTypes = 8
};

/// What the pricing does with routes of vehicles with breaks (see the file comment).
enum class BreakRule : u8 { Exclude = 0, Relax = 1 };

/// The packed, validated problem (see packing.cpp for how each array is filled).
struct ProblemView {
  u32 tasks = 0, vehicles = 0, dims = 0, neighbours = 0;  // neighbours = K per task
  DeviceSpan<const MatrixRef> travel;                      // per travel index
  DeviceSpan<const i32> task_loc;
  DeviceSpan<const i64> task_setup, task_service, task_tw_start, task_tw_end;
  DeviceSpan<const i64> task_delivery, task_pickup;  // tasks x dims
  DeviceSpan<const u32> task_flags;
  DeviceSpan<const i32> task_sibling;  // the other half of a shipment; -1 for jobs
  DeviceSpan<const i32> veh_start, veh_end;  // location or -1
  DeviceSpan<const u32> veh_travel, veh_flags, veh_class;
  DeviceSpan<const i64> veh_tw_start, veh_tw_end, veh_capacity /* vehicles x dims */;
  DeviceSpan<const i64> veh_max_tasks, veh_max_duration, veh_max_distance, veh_fixed;
  DeviceSpan<const u8> compatible;    // vehicles x tasks
  DeviceSpan<const i32> neighbour;    // travel indices x tasks x K; -1 = none
};

/// A batch of B solutions, each with one route per vehicle (route r = b * vehicles + v), in CSR
/// form over positions; position 0 of a route is its start sentinel, the last its end sentinel.
struct BatchView {
  u32 solutions = 0;
  DeviceSpan<const u32> route_offsets;  // routes + 1
  DeviceSpan<const i32> pos_task;       // -1 at sentinels
  DeviceSpan<const u32> pos_route;
  DeviceSpan<const i32> task_pos;       // solutions x tasks: global position, -1 unassigned
};

/// Per-position data filled by build_route (prefix arrays) and read by the pricing.
struct PrefixView {
  DeviceSpan<i64> depart;          // earliest departure (start: vehicle start; end: arrival)
  DeviceSpan<i64> cost, duration, distance;  // cumulative travel up to this position
  DeviceSpan<i64> latest;          // y: latest begin here is min(tw_end, y - setup(pred))
  DeviceSpan<u8> ok;               // kForwardOk | kBackwardOk
  DeviceSpan<u32> shipments;       // shipment tasks at positions first..this, inclusive
  DeviceSpan<i64> prefix_load;     // positions x dims x 3: (job deliveries, net, max)
  DeviceSpan<i64> suffix_load;     // same for the suffix from this position
};

/// One candidate move: the best of its thread, or kNoMove. aux: kPairRelocate's delivery
/// position (global position in the batch it was priced on); 0 for the other types.
struct Move {
  i64 delta = kNoMove;
  i32 u = -1, v = -1;
  u32 type = 0;
  u32 aux = 0;
};

// ------------------------------------------------------------------------------------------
// Small helpers
// ------------------------------------------------------------------------------------------

RS_HD inline i64 max64(i64 a, i64 b) { return a > b ? a : b; }
RS_HD inline i64 min64(i64 a, i64 b) { return a < b ? a : b; }

/// Load segment of one dimension (exact for jobs and shipments): jd = job deliveries (on board
/// from the route start), net = pickups - shipment deliveries, max = highest load inside,
/// relative to what the route carries in from outside the segment.
struct LoadSeg {
  i64 jd = 0, net = 0, max = 0;
};

RS_HD inline LoadSeg merge(const LoadSeg& a, const LoadSeg& b) {
  return LoadSeg{a.jd + b.jd, a.net + b.net, max64(a.max + b.jd, b.max + a.net)};
}

RS_HD inline LoadSeg task_seg(const ProblemView& p, i32 task, u32 d) {
  const i64 del = p.task_delivery[static_cast<u32>(task) * p.dims + d];
  const i64 pick = p.task_pickup[static_cast<u32>(task) * p.dims + d];
  if ((p.task_flags[task] & kTaskShipment) != 0u) {
    // Pickup half: pick = amount; delivery half: del = amount, dropped here, not from the start.
    return LoadSeg{0, pick - del, max64(0, pick - del)};
  }
  return LoadSeg{del, pick, max64(del, pick)};
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
  LoadSeg load[kMaxDims];
};

/// Adds the arc from the cursor's location to `to` (nothing without a location).
RS_HD inline i64 add_arc(const MatrixRef& m, Cursor& c, i32 to) {
  if (c.loc < 0 || to < 0) return 0;
  const std::uint64_t at = static_cast<std::uint64_t>(c.loc) * m.n + static_cast<std::uint64_t>(to);
  const i64 d = m.durations[at];
  const i64 dist = m.distances != nullptr ? m.distances[at] : 0;
  const i64 co = m.costs[at];
  if (d >= kUnreachableArc || dist >= kUnreachableArc || co >= kUnreachableArc) c.ok = false;
  c.duration += d;
  c.distance += dist;
  c.cost += co;
  return d;
}

/// Visits `task` next (exactly schedule_route's timing, first window only).
RS_HD inline void visit(const ProblemView& p, const MatrixRef& m, Cursor& c, i32 task) {
  const i32 to = p.task_loc[task];
  const i64 arrival = c.t + add_arc(m, c, to);
  const i64 setup = c.loc != to ? p.task_setup[task] : 0;
  const i64 begin = max64(arrival, p.task_tw_start[task]);
  if (begin > p.task_tw_end[task]) c.ok = false;
  c.t = begin + setup + p.task_service[task];
  c.loc = to;
  ++c.count;
  for (u32 d = 0; d < p.dims && d < kMaxDims; ++d) c.load[d] = merge(c.load[d], task_seg(p, task, d));
}

// ------------------------------------------------------------------------------------------
// Prefix build: one route, O(length). Run per route (kernel thread / host loop iteration).
// ------------------------------------------------------------------------------------------

RS_HD inline void build_route(const ProblemView& p, const BatchView& b, const PrefixView& x, u32 r) {
  const u32 v = r % p.vehicles;
  const u32 first = b.route_offsets[r];
  const u32 last = b.route_offsets[r + 1] - 1;
  const MatrixRef m = p.travel[p.veh_travel[v]];
  const u32 dims = p.dims < kMaxDims ? p.dims : kMaxDims;
  const u32 w = 3 * p.dims;

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
    for (u32 d = 0; d < dims; ++d) {
      x.prefix_load[pos * w + 3 * d + 0] = c.load[d].jd;
      x.prefix_load[pos * w + 3 * d + 1] = c.load[d].net;
      x.prefix_load[pos * w + 3 * d + 2] = c.load[d].max;
    }
  }

  // Backward: latest begin at each task, and whether the rest is feasible.
  LoadSeg suf[kMaxDims];
  for (u32 d = 0; d < dims; ++d) {
    x.suffix_load[last * w + 3 * d + 0] = 0;
    x.suffix_load[last * w + 3 * d + 1] = 0;
    x.suffix_load[last * w + 3 * d + 2] = 0;
  }
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
        const std::uint64_t at = static_cast<std::uint64_t>(here) * m.n + static_cast<std::uint64_t>(end);
        leg = m.durations[at];
        if ((m.distances != nullptr && m.distances[at] >= kUnreachableArc) || m.costs[at] >= kUnreachableArc)
          rest_ok = false;
      }
    } else {
      const i32 nt = b.pos_task[next];
      const i32 nloc = p.task_loc[nt];
      const i64 setup = here != nloc ? p.task_setup[nt] : 0;
      latest_next = min64(p.task_tw_end[nt], x.latest[next] - setup);
      if (p.task_tw_start[nt] > latest_next) rest_ok = false;
      const std::uint64_t at = static_cast<std::uint64_t>(here) * m.n + static_cast<std::uint64_t>(nloc);
      leg = m.durations[at];
      if ((m.distances != nullptr && m.distances[at] >= kUnreachableArc) || m.costs[at] >= kUnreachableArc)
        rest_ok = false;
    }
    x.latest[pos] = latest_next - leg - p.task_service[task];
    if (leg >= kUnreachableArc) rest_ok = false;
    if (rest_ok) x.ok[pos] = static_cast<u8>(x.ok[pos] | kBackwardOk);
    for (u32 d = 0; d < dims; ++d) {
      suf[d] = merge(task_seg(p, task, d), suf[d]);
      x.suffix_load[pos * w + 3 * d + 0] = suf[d].jd;
      x.suffix_load[pos * w + 3 * d + 1] = suf[d].net;
      x.suffix_load[pos * w + 3 * d + 2] = suf[d].max;
    }
  }
  for (u32 d = 0; d < dims; ++d) {
    x.suffix_load[first * w + 3 * d + 0] = suf[d].jd;
    x.suffix_load[first * w + 3 * d + 1] = suf[d].net;
    x.suffix_load[first * w + 3 * d + 2] = suf[d].max;
  }
}

// ------------------------------------------------------------------------------------------
// Route composition and pricing
// ------------------------------------------------------------------------------------------

enum PieceKind : u8 { kPieceTasks = 0, kPieceForward = 1, kPieceReversed = 2 };

struct Piece {
  u8 kind = kPieceTasks;
  u32 count = 0;  // tasks: how many (<= 3)
  u32 from = 0, to = 0;  // ranges: global positions, inclusive, from <= to
  u32 skip0 = 0, skip1 = 0;  // forward ranges: positions left out (0: none; never a task)
  i32 task[3] = {-1, -1, -1};
};

inline constexpr u32 kMaxPieces = 5;

/// Range positions a piece visits (skips excluded).
RS_HD inline bool skipped(const Piece& pc, u32 pos) { return pos == pc.skip0 || pos == pc.skip1; }

/// A new route of vehicle `veh` (local index): own route's prefix up to `prefix` (global
/// position), pieces, then the suffix of route `suffix_route` from position `suffix`.
struct RouteSpec {
  u32 veh = 0;
  u32 prefix = 0;
  u32 pieces = 0;
  Piece piece[kMaxPieces];
  u32 suffix = 0;
  u32 suffix_route = 0;
};

struct Priced {
  bool feasible = false;
  i64 cost = 0;  // arc costs + fixed cost when the route is used
};

/// Prices a composed route exactly (within the model of the file comment).
RS_HD inline Priced price_route(const ProblemView& p, const BatchView& b, const PrefixView& x,
                                const RouteSpec& s, BreakRule breaks = BreakRule::Exclude) {
  Priced out;
  const u32 v = s.veh;
  if (p.dims > kMaxDims) return out;
  if ((p.veh_flags[v] & kVehicleBreaks) != 0u && breaks == BreakRule::Exclude) return out;
  const u32 w = 3 * p.dims;
  const MatrixRef m = p.travel[p.veh_travel[v]];
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
  for (u32 d = 0; d < p.dims; ++d)
    c.load[d] = LoadSeg{x.prefix_load[s.prefix * w + 3 * d], x.prefix_load[s.prefix * w + 3 * d + 1],
                        x.prefix_load[s.prefix * w + 3 * d + 2]};

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
    const i64 setup = c.loc != to ? p.task_setup[task] : 0;
    const i64 latest = min64(p.task_tw_end[task], x.latest[j] - setup);
    if ((x.ok[j] & kBackwardOk) == 0u || max64(arrival, p.task_tw_start[task]) > latest) c.ok = false;
    c.cost += x.cost[slast] - x.cost[j];
    c.duration += x.duration[slast] - x.duration[j];
    c.distance += x.distance[slast] - x.distance[j];
    c.count += slast - j;
  }
  if (!c.ok) return out;
  if (static_cast<i64>(c.count) > p.veh_max_tasks[v] || c.duration > p.veh_max_duration[v] ||
      c.distance > p.veh_max_distance[v])
    return out;
  for (u32 d = 0; d < p.dims; ++d) {
    const LoadSeg tail{x.suffix_load[j * w + 3 * d], x.suffix_load[j * w + 3 * d + 1],
                       x.suffix_load[j * w + 3 * d + 2]};
    const LoadSeg all = merge(c.load[d], tail);
    if (all.max > p.veh_capacity[v * p.dims + d]) return out;
  }
  out.feasible = true;
  out.cost = c.cost + (c.count > 0 ? p.veh_fixed[v] : 0);
  return out;
}

/// Current cost of route r (arc costs + fixed cost when used).
RS_HD inline i64 route_cost(const ProblemView& p, const BatchView& b, const PrefixView& x, u32 r) {
  const u32 first = b.route_offsets[r], last = b.route_offsets[r + 1] - 1;
  return last - first > 1 ? x.cost[last] + p.veh_fixed[r % p.vehicles] : 0;  // unused: free
}

RS_HD inline Piece tasks_piece(i32 a, i32 b2 = -1, i32 c3 = -1) {
  Piece pc;
  pc.kind = kPieceTasks;
  pc.task[0] = a;
  pc.task[1] = b2;
  pc.task[2] = c3;
  pc.count = a < 0 ? 0u : b2 < 0 ? 1u : c3 < 0 ? 2u : 3u;
  return pc;
}

RS_HD inline Piece range_piece(u8 kind, u32 from, u32 to, u32 skip0 = 0, u32 skip1 = 0) {
  Piece pc;
  pc.kind = kind;
  pc.from = from;
  pc.to = to;
  pc.skip0 = skip0;
  pc.skip1 = skip1;
  return pc;
}

/// Tasks a piece holds.
RS_HD inline u32 piece_tasks(const Piece& pc) {
  if (pc.kind == kPieceTasks) return pc.count;
  u32 n = pc.to - pc.from + 1;
  if (pc.skip0 >= pc.from && pc.skip0 <= pc.to) --n;
  if (pc.skip1 != pc.skip0 && pc.skip1 >= pc.from && pc.skip1 <= pc.to) --n;
  return n;
}

RS_HD inline void add_piece(RouteSpec& s, const Piece& pc) {
  if (pc.kind == kPieceTasks && pc.count == 0) return;
  if (pc.kind != kPieceTasks && (pc.from > pc.to || piece_tasks(pc) == 0)) return;
  s.piece[s.pieces++] = pc;
}

RS_HD inline bool is_shipment(const ProblemView& p, i32 task) {
  return (p.task_flags[task] & kTaskShipment) != 0u;
}

/// Shipment tasks at positions [from, to] of one route.
RS_HD inline u32 shipments_between(const PrefixView& x, u32 from, u32 to) {
  return from > to ? 0u : x.shipments[to] - x.shipments[from - 1];
}

/// The new routes of a move (1 for intra-route, 2 for inter-route); 0 when the move does not
/// apply (same task, a sentinel in the way, shipment rules, other vehicle class...).
RS_HD inline u32 make_specs(const ProblemView& p, const BatchView& b, const PrefixView& x, u32 sol,
                            i32 u, i32 v, u32 type, u32 aux, RouteSpec* out) {
  if (u == v || u < 0 || v < 0) return 0;
  const i32 pu_i = b.task_pos[static_cast<std::uint64_t>(sol) * p.tasks + u];
  const i32 pv_i = b.task_pos[static_cast<std::uint64_t>(sol) * p.tasks + v];
  if (pu_i < 0 || pv_i < 0) return 0;
  const u32 pu = static_cast<u32>(pu_i), pv = static_cast<u32>(pv_i);
  const u32 ru = b.pos_route[pu], rv = b.pos_route[pv];
  const u32 vu = ru % p.vehicles, vv = rv % p.vehicles;
  const u32 lu = b.route_offsets[ru + 1] - 1;  // end sentinel of u's route
  const bool intra = ru == rv;
  const bool ship_u = is_shipment(p, u), ship_v = is_shipment(p, v);

  // Segment of u moved by relocate / or-opt: positions pu .. pu + len - 1.
  u32 len = 0;
  if (type == kRelocateAfter || type == kRelocateBefore) len = 1;
  if (type == kOrOpt2) len = 2;
  if (type == kOrOpt3) len = 3;
  if (len > 0) {
    if (pu + len - 1 >= lu) return 0;
    if (shipments_between(x, pu, pu + len - 1) > 0) return 0;
    const i32 s0 = b.pos_task[pu];
    const i32 s1 = len > 1 ? b.pos_task[pu + 1] : -1;
    const i32 s2 = len > 2 ? b.pos_task[pu + 2] : -1;
    const u32 q = type == kRelocateBefore ? pv - 1 : pv;  // insert after position q
    if (!intra) {
      out[0] = RouteSpec{};
      out[0].veh = vu;
      out[0].prefix = pu - 1;
      out[0].suffix = pu + len;
      out[0].suffix_route = ru;
      out[1] = RouteSpec{};
      out[1].veh = vv;
      out[1].prefix = q;
      add_piece(out[1], tasks_piece(s0, s1, s2));
      out[1].suffix = q + 1;
      out[1].suffix_route = rv;
      return 2;
    }
    if (q + 1 >= pu && q <= pu + len - 1) return 0;  // inside the segment or a no-op
    out[0] = RouteSpec{};
    out[0].veh = vu;
    out[0].suffix_route = ru;
    if (q < pu) {
      out[0].prefix = q;
      add_piece(out[0], tasks_piece(s0, s1, s2));
      add_piece(out[0], range_piece(kPieceForward, q + 1, pu - 1));
      out[0].suffix = pu + len;
    } else {
      out[0].prefix = pu - 1;
      add_piece(out[0], range_piece(kPieceForward, pu + len, q));
      add_piece(out[0], tasks_piece(s0, s1, s2));
      out[0].suffix = q + 1;
    }
    return 1;
  }

  if (type == kSwap) {
    if (ship_u || ship_v) return 0;
    if (!intra) {
      out[0] = RouteSpec{};
      out[0].veh = vu;
      out[0].prefix = pu - 1;
      add_piece(out[0], tasks_piece(v));
      out[0].suffix = pu + 1;
      out[0].suffix_route = ru;
      out[1] = RouteSpec{};
      out[1].veh = vv;
      out[1].prefix = pv - 1;
      add_piece(out[1], tasks_piece(u));
      out[1].suffix = pv + 1;
      out[1].suffix_route = rv;
      return 2;
    }
    const u32 a = pu < pv ? pu : pv, c = pu < pv ? pv : pu;
    out[0] = RouteSpec{};
    out[0].veh = vu;
    out[0].prefix = a - 1;
    add_piece(out[0], tasks_piece(b.pos_task[c]));
    add_piece(out[0], range_piece(kPieceForward, a + 1, c - 1));
    add_piece(out[0], tasks_piece(b.pos_task[a]));
    out[0].suffix = c + 1;
    out[0].suffix_route = ru;
    return 1;
  }

  if (type == kTwoOptStar) {
    if (intra || p.veh_class[vu] != p.veh_class[vv]) return 0;
    const u32 fv = b.route_offsets[rv], lv = b.route_offsets[rv + 1] - 1;
    // Tails that change route must hold no shipment half.
    if (shipments_between(x, pu + 1, lu - 1) > 0 || shipments_between(x, pv, lv - 1) > 0) return 0;
    (void)fv;
    out[0] = RouteSpec{};
    out[0].veh = vu;
    out[0].prefix = pu;
    out[0].suffix = pv;
    out[0].suffix_route = rv;
    out[1] = RouteSpec{};
    out[1].veh = vv;
    out[1].prefix = pv - 1;
    out[1].suffix = pu + 1;
    out[1].suffix_route = ru;
    return 2;
  }

  if (type == kTwoOpt) {
    if (!intra) return 0;
    const u32 a = pu < pv ? pu : pv, c = pu < pv ? pv : pu;
    if (c <= a + 1) return 0;
    if (shipments_between(x, a + 1, c) > 0) return 0;
    out[0] = RouteSpec{};
    out[0].veh = vu;
    out[0].prefix = a;
    add_piece(out[0], range_piece(kPieceReversed, a + 1, c));
    out[0].suffix = c + 1;
    out[0].suffix_route = ru;
    return 1;
  }

  if (type == kPairRelocate) {
    // u: a pickup; d: its delivery, later in the same route. q = aux: d goes right after the
    // task at position q of v's route (q == pv: right after u), counted without u and d.
    if ((p.task_flags[u] & kTaskPickup) == 0u) return 0;
    const i32 d = p.task_sibling[u];
    if (d < 0 || d == v) return 0;
    const i32 pd_i = b.task_pos[static_cast<std::uint64_t>(sol) * p.tasks + d];
    if (pd_i < 0) return 0;
    const u32 pd = static_cast<u32>(pd_i), q = aux;
    const u32 lv = b.route_offsets[rv + 1] - 1;
    if (b.pos_route[pd] != ru || pd <= pu || q < pv || q >= lv || q == pu || q == pd) return 0;
    const i32 up = u, dn = d;
    if (!intra) {
      out[0] = RouteSpec{};
      out[0].veh = vu;
      out[0].prefix = pu - 1;
      add_piece(out[0], range_piece(kPieceForward, pu + 1, pd - 1));
      out[0].suffix = pd + 1;
      out[0].suffix_route = ru;
      out[1] = RouteSpec{};
      out[1].veh = vv;
      out[1].prefix = pv;
      if (q == pv) {
        add_piece(out[1], tasks_piece(up, dn));
      } else {
        add_piece(out[1], tasks_piece(up));
        add_piece(out[1], range_piece(kPieceForward, pv + 1, q));
        add_piece(out[1], tasks_piece(dn));
      }
      out[1].suffix = q + 1;
      out[1].suffix_route = rv;
      return 2;
    }
    // Same route: the route without u and d, u after pv, d after q. Unchanged when u already
    // follows pv there and d follows q (its predecessor without u: pd - 1, or pv when adjacent).
    const u32 d_pred = pd - 1 == pu ? pv : pd - 1;
    if (pv == pu - 1 && q == d_pred) return 0;
    const u32 lo = pu - 1 < pv ? pu - 1 : pv;  // last position kept in front
    const u32 hi = pd > q ? pd : q;             // last position changed
    out[0] = RouteSpec{};
    out[0].veh = vu;
    out[0].prefix = lo;
    add_piece(out[0], range_piece(kPieceForward, lo + 1, pv, pu, pd));
    if (q == pv) {
      add_piece(out[0], tasks_piece(up, dn));
    } else {
      add_piece(out[0], tasks_piece(up));
      add_piece(out[0], range_piece(kPieceForward, pv + 1, q, pu, pd));
      add_piece(out[0], tasks_piece(dn));
    }
    add_piece(out[0], range_piece(kPieceForward, q + 1, hi, pu, pd));
    out[0].suffix = hi + 1;
    out[0].suffix_route = ru;
    return 1;
  }
  return 0;
}

/// Delta of one move (new costs - old costs); feasible false when it does not apply or breaks
/// a constraint of the model.
struct MoveResult {
  bool feasible = false;
  i64 delta = 0;
};

RS_HD inline MoveResult price_move(const ProblemView& p, const BatchView& b, const PrefixView& x,
                                   u32 sol, i32 u, i32 v, u32 type, u32 aux = 0,
                                   BreakRule breaks = BreakRule::Exclude) {
  MoveResult res;
  RouteSpec spec[2];
  const u32 n = make_specs(p, b, x, sol, u, v, type, aux, spec);
  if (n == 0) return res;
  i64 delta = 0;
  for (u32 i = 0; i < n; ++i) {
    const Priced pr = price_route(p, b, x, spec[i], breaks);
    if (!pr.feasible) return res;
    delta += pr.cost - route_cost(p, b, x, b.pos_route[spec[i].prefix]);
  }
  res.feasible = true;
  res.delta = delta;
  return res;
}

/// The best improving move of customer u with its k-th neighbour in solution `sol` (what one
/// thread of the evaluation kernel computes), or a Move with delta kNoMove.
RS_HD inline Move best_move(const ProblemView& p, const BatchView& b, const PrefixView& x, u32 sol,
                            i32 u, u32 k) {
  Move best;
  const i32 pu = b.task_pos[static_cast<std::uint64_t>(sol) * p.tasks + u];
  if (pu < 0) return best;
  const u32 travel = p.veh_travel[b.pos_route[pu] % p.vehicles];
  const i32 v = p.neighbour[(static_cast<std::uint64_t>(travel) * p.tasks + u) * p.neighbours + k];
  if (v < 0) return best;
  for (u32 type = 0; type < kPairRelocate; ++type) {
    const MoveResult r = price_move(p, b, x, sol, u, v, type);
    if (r.feasible && r.delta < 0 && r.delta < best.delta) {
      best.delta = r.delta;
      best.u = u;
      best.v = v;
      best.type = type;
    }
  }
  // Pair relocate of a pickup: every delivery position of v's route, the first best one.
  if ((p.task_flags[u] & kTaskPickup) != 0u) {
    const i32 pv = b.task_pos[static_cast<std::uint64_t>(sol) * p.tasks + v];
    const u32 lv = pv < 0 ? 0u : b.route_offsets[b.pos_route[static_cast<u32>(pv)] + 1] - 1;
    for (u32 q = pv < 0 ? 0u : static_cast<u32>(pv); q < lv; ++q) {
      const MoveResult r = price_move(p, b, x, sol, u, v, kPairRelocate, q);
      if (r.feasible && r.delta < 0 && r.delta < best.delta) {
        best.delta = r.delta;
        best.u = u;
        best.v = v;
        best.type = kPairRelocate;
        best.aux = q;
      }
    }
  }
  return best;
}

// ------------------------------------------------------------------------------------------
// Move application, one round, written once for host and device: selection of the improving
// moves per solution (sorted candidates, then one thread per solution walks them), new route
// lengths (one per route), their exclusive scan into the new route offsets (CUB on the device,
// a loop on the host), and the new positions (one thread per route) written into the second
// buffer of the batch.
// ------------------------------------------------------------------------------------------

/// Scratch and results of one round's application.
struct ApplyView {
  DeviceSpan<const Move> best;  // solutions x tasks: best improving move per customer
  DeviceSpan<u32> cand;         // solutions x tasks: the improving customers, sorted
  DeviceSpan<u8> used;          // routes: changed by a selected move this round
  DeviceSpan<RouteSpec> spec;   // routes: the new route of a changed route
  DeviceSpan<u8> active;        // solutions: still descending (0: at a local optimum)
  DeviceSpan<u32> applied;      // solutions: moves applied this round
  DeviceSpan<i64> gain;         // solutions: sum of their deltas
  DeviceSpan<u32> length;       // routes + 1: positions of each new route (last: 0)
};

/// The second buffer of a batch, written by write_route.
struct BatchOut {
  DeviceSpan<u32> route_offsets;  // routes + 1 (the exclusive scan of ApplyView::length)
  DeviceSpan<i32> pos_task;
  DeviceSpan<u32> pos_route;
  DeviceSpan<i32> task_pos;       // assigned tasks rewritten; unassigned stay -1
};

/// Calls f(task) for every task of a composed route, in order.
template <typename F>
RS_HD inline void for_each_task(const BatchView& b, const RouteSpec& sp, F& f) {
  const u32 r = b.pos_route[sp.prefix];
  for (u32 pos = b.route_offsets[r] + 1; pos <= sp.prefix; ++pos) f(b.pos_task[pos]);
  for (u32 k = 0; k < sp.pieces; ++k) {
    const Piece& pc = sp.piece[k];
    if (pc.kind == kPieceTasks) {
      for (u32 j = 0; j < pc.count; ++j) f(pc.task[j]);
    } else {
      for (u32 j = 0; j <= pc.to - pc.from; ++j) {
        const u32 pos = pc.kind == kPieceForward ? pc.from + j : pc.to - j;
        if (!skipped(pc, pos)) f(b.pos_task[pos]);
      }
    }
  }
  const u32 slast = b.route_offsets[sp.suffix_route + 1] - 1;
  for (u32 pos = sp.suffix; pos < slast; ++pos) f(b.pos_task[pos]);
}

/// Tasks of a composed route, in O(pieces).
RS_HD inline u32 spec_tasks(const BatchView& b, const RouteSpec& sp) {
  u32 n = sp.prefix - b.route_offsets[b.pos_route[sp.prefix]];
  for (u32 k = 0; k < sp.pieces; ++k) n += piece_tasks(sp.piece[k]);
  const u32 slast = b.route_offsets[sp.suffix_route + 1] - 1;
  return n + (sp.suffix < slast ? slast - sp.suffix : 0u);
}

/// Order of the selection: lower delta first, then lower customer (each customer has at most
/// one candidate, so this is a total order: the host reference's std::sort gives the same).
RS_HD inline bool goes_first(const Move& a, const Move& b) {
  return a.delta < b.delta || (a.delta == b.delta && a.u < b.u);
}

RS_HD inline void sift_down(const Move* best, u32* c, u32 root, u32 n) {
  for (;;) {
    u32 child = 2 * root + 1;
    if (child >= n) return;
    if (child + 1 < n && goes_first(best[c[child]], best[c[child + 1]])) ++child;  // later one
    if (!goes_first(best[c[root]], best[c[child]])) return;
    const u32 t = c[root];
    c[root] = c[child];
    c[child] = t;
    root = child;
  }
}

/// Solution s's improving customers into a.cand, sorted in goes_first order (heap sort: in
/// place, no allocation); returns how many. The host twin's way; the device sorts every
/// customer by delta with a stable CUB segmented radix sort instead, which gives the same order.
RS_HD inline u32 sort_candidates(const ProblemView& p, const ApplyView& a, u32 s) {
  const std::uint64_t base = static_cast<std::uint64_t>(s) * p.tasks;
  const Move* best = &a.best[base];
  u32* c = &a.cand[base];
  u32 n = 0;
  for (u32 u = 0; u < p.tasks; ++u)
    if (best[u].delta < 0) c[n++] = u;
  for (u32 i = n / 2; i-- > 0;) sift_down(best, c, i, n);
  for (u32 end = n; end > 1; --end) {
    const u32 t = c[0];
    c[0] = c[end - 1];
    c[end - 1] = t;
    sift_down(best, c, 0, end - 1);
  }
  return n;
}

/// Solution s: the first n customers of a.cand (sorted) up to the first without an improving
/// move, each move taken unless it touches a route a taken one changed (the greedy maximal
/// non-overlapping set); their new routes into a.spec.
RS_HD inline void take_moves(const ProblemView& p, const BatchView& b, const PrefixView& x,
                             const ApplyView& a, u32 s, u32 n) {
  const u32 vehicles = p.vehicles;
  const std::uint64_t base = static_cast<std::uint64_t>(s) * p.tasks;
  for (u32 v = 0; v < vehicles; ++v) a.used[s * vehicles + v] = 0;
  a.applied[s] = 0;
  a.gain[s] = 0;
  if (a.active[s] == 0u) return;
  const Move* best = &a.best[base];
  const u32* c = &a.cand[base];
  u32 applied = 0;
  i64 gain = 0;
  for (u32 i = 0; i < n; ++i) {
    const Move& m = best[c[i]];
    if (m.delta >= 0) break;  // sorted: no improving move after this one
    RouteSpec sp[2];
    const u32 k = make_specs(p, b, x, s, m.u, m.v, m.type, m.aux, sp);
    if (k == 0) continue;
    bool clash = false;
    for (u32 j = 0; j < k; ++j)
      clash = clash || a.used[s * vehicles + sp[j].veh] != 0u || a.used[sp[j].suffix_route] != 0u;
    if (clash) continue;
    for (u32 j = 0; j < k; ++j) {
      a.spec[s * vehicles + sp[j].veh] = sp[j];
      a.used[s * vehicles + sp[j].veh] = 1;
      a.used[sp[j].suffix_route] = 1;
    }
    ++applied;
    gain += m.delta;
  }
  a.applied[s] = applied;
  a.gain[s] = gain;
  if (applied == 0) a.active[s] = 0;
}

/// Selection for solution s as the host twin runs it: sort_candidates, then take_moves.
RS_HD inline void select_moves(const ProblemView& p, const BatchView& b, const PrefixView& x,
                               const ApplyView& a, u32 s) {
  const u32 n = a.active[s] != 0u ? sort_candidates(p, a, s) : 0u;
  take_moves(p, b, x, a, s, n);
}

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

}  // namespace routesolve::cuda::detail::search
