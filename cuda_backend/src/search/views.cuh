#pragma once
// The data the batched move engine reads and writes, as views for host and device (RS_HD):
// the packed problem, a structure-of-arrays batch of solutions, the per-position prefix arrays,
// the Move records, and the scratch of one round's move application. Written once; the
// kernels (move_eval.cu) and the host twin (host_engine.cpp) run the same bodies over them.
//
// Model (exactly schedule_route's, see core/src/schedule.cpp; the load and visit arithmetic is
// core's routesolve/hd/segment.hpp), with three documented limits:
//  * one time window per task: the first one. Any schedule feasible under it is feasible and
//    identical under all windows (a task begins at max(arrival, start) either way), so the
//    restriction is conservative: it can only reject moves, never accept an infeasible one;
//  * routes of vehicles with breaks are excluded from the batched moves: under the default
//    BreakRule::Exclude every move touching one is infeasible. BreakRule::Relax prices them
//    without their breaks, a necessary condition (removing breaks only makes a schedule earlier
//    and drops their max_load) with the exact cost (breaks change no arc); the host then checks
//    such a candidate with schedule_route before it applies it (break_pass.cpp);
//  * shipment halves move only as a pair (kPairRelocate: pickup and delivery together, pickup
//    first, in one route); no other move moves one, and a segment holding one is never reversed
//    or sent to another route, so precedence and pairing cannot break. Loads are exact for
//    shipments.
// Setup is counted when arriving from another location, so a suffix keeps its latest start as
// min(tw_end, y - setup(pred)): two numbers per position instead of one.

#include <cstdint>

#include "../device_span.cuh"
#include "routesolve/hd/segment.hpp"
#include "routesolve/hd/travel_view.hpp"

namespace routesolve::cuda::detail::batched {

using i64 = std::int64_t;
using u32 = std::uint32_t;
using i32 = std::int32_t;
using u8 = std::uint8_t;

using routesolve::kMaxDims;      // larger problems: every move infeasible (documented)
using routesolve::kUnreachable;  // a matrix entry at or above it: no path
inline constexpr i64 kNoMove = INT64_MAX;  // delta of "no improving move"
inline constexpr u32 kMaxRange = 128;      // longest range an intra-route move walks through

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
  DeviceSpan<const TravelView> travel;                     // per travel index
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

/// Per-position data filled by build_route (prefix.cuh) and read by the pricing.
struct PrefixView {
  DeviceSpan<i64> depart;          // earliest departure (start: vehicle start; end: arrival)
  DeviceSpan<i64> cost, duration, distance;  // cumulative travel up to this position
  DeviceSpan<i64> latest;          // y: latest begin here is min(tw_end, y - setup(pred))
  DeviceSpan<u8> ok;               // kForwardOk | kBackwardOk
  DeviceSpan<u32> shipments;       // shipment tasks at positions first..this, inclusive
  DeviceSpan<i64> prefix_load;     // positions x dims x 3: LoadProfile (carried, net, peak)
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

enum PieceKind : u8 { kPieceTasks = 0, kPieceForward = 1, kPieceReversed = 2 };

/// A middle piece of a composed route: up to 3 explicit tasks, or a forward / reversed range of
/// positions of the same route.
struct Piece {
  u8 kind = kPieceTasks;
  u32 count = 0;  // tasks: how many (<= 3)
  u32 from = 0, to = 0;  // ranges: global positions, inclusive, from <= to
  u32 skip0 = 0, skip1 = 0;  // forward ranges: positions left out (0: none; never a task)
  i32 task[3] = {-1, -1, -1};
};

inline constexpr u32 kMaxPieces = 5;

/// A new route of vehicle `veh` (local index): own route's prefix up to `prefix` (global
/// position), pieces, then the suffix of route `suffix_route` from position `suffix`. Prefix and
/// suffix are O(1) (prefix arrays); a piece of tasks is O(1), a range O(length) (at most
/// kMaxRange positions).
struct RouteSpec {
  u32 veh = 0;
  u32 prefix = 0;
  u32 pieces = 0;
  Piece piece[kMaxPieces];
  u32 suffix = 0;
  u32 suffix_route = 0;
};

/// Scratch and results of one round's application.
struct ApplyView {
  DeviceSpan<const Move> best;  // solutions x tasks: best improving move per customer
  DeviceSpan<u32> cand;         // solutions x tasks: every customer, in goes_first order
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

}  // namespace routesolve::cuda::detail::batched
