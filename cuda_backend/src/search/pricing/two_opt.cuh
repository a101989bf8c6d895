#pragma once
// 2-opt: within one route, the path between u and v is reversed.

#include "move_site.cuh"

namespace routesolve::cuda::detail::batched {

/// The new route of a 2-opt move; 0 when it does not apply.
RS_HD inline u32 two_opt_specs(const PrefixView& x, const MoveSite& m, RouteSpec* out) {
  const u32 pu = m.pu, pv = m.pv, ru = m.ru, vu = m.vu;
  if (!m.intra) return 0;
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

}  // namespace routesolve::cuda::detail::batched
