#pragma once
// Swap: u and v trade places.

#include "move_site.cuh"

namespace routesolve::cuda::detail::batched {

/// The new routes of a swap: 2 between routes, 1 within one; 0 when it does not apply.
RS_HD inline u32 swap_specs(const BatchView& b, const MoveSite& m, RouteSpec* out) {
  const i32 u = m.u, v = m.v;
  const u32 pu = m.pu, pv = m.pv, ru = m.ru, rv = m.rv, vu = m.vu, vv = m.vv;
  const bool intra = m.intra, ship_u = m.ship_u, ship_v = m.ship_v;
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

}  // namespace routesolve::cuda::detail::batched
