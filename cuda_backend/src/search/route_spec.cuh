#pragma once
// Building composed routes (RouteSpec): pieces of explicit tasks or position ranges, their task
// counts, and the walk over a composed route's tasks in order.

#include "views.cuh"

namespace routesolve::cuda::detail::batched {

/// Range positions a piece visits (skips excluded).
RS_HD inline bool skipped(const Piece& pc, u32 pos) { return pos == pc.skip0 || pos == pc.skip1; }

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


}  // namespace routesolve::cuda::detail::batched
