#pragma once
// Pair relocate: a shipment's pickup and delivery move together (pickup first, one route).

#include "move_site.cuh"

namespace routesolve::cuda::detail::batched {

/// The new routes of a pair relocate (aux: the delivery's position, see MoveType): 2 between
/// routes, 1 within one; 0 when it does not apply.
RS_HD inline u32 pair_relocate_specs(const ProblemView& p, const BatchView& b, const MoveSite& m, u32 aux,
                                     RouteSpec* out) {
  const i32 u = m.u, v = m.v;
  const u32 sol = m.sol;
  const u32 pu = m.pu, pv = m.pv, ru = m.ru, rv = m.rv, vu = m.vu, vv = m.vv;
  const bool intra = m.intra;
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

}  // namespace routesolve::cuda::detail::batched
