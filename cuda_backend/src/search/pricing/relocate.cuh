#pragma once
// Relocate (u right after / before v) and or-opt (u and its next one or two right after v):
// the new routes, without or with a change of route.

#include "move_site.cuh"

namespace routesolve::cuda::detail::batched {

/// The new routes of a relocate or or-opt move (kRelocateAfter, kRelocateBefore, kOrOpt2,
/// kOrOpt3): 2 between routes, 1 within one; 0 when it does not apply.
RS_HD inline u32 relocate_specs(const BatchView& b, const PrefixView& x, const MoveSite& m,
                                u32 type, RouteSpec* out) {
  const u32 pu = m.pu, pv = m.pv, ru = m.ru, rv = m.rv, vu = m.vu, vv = m.vv, lu = m.lu;
  const bool intra = m.intra;
  // Segment of u moved by relocate / or-opt: positions pu .. pu + len - 1.
  u32 len = 0;
  if (type == kRelocateAfter || type == kRelocateBefore) len = 1;
  if (type == kOrOpt2) len = 2;
  if (type == kOrOpt3) len = 3;
  if (len == 0) return 0;
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

}  // namespace routesolve::cuda::detail::batched
