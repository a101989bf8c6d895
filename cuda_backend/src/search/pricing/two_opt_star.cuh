#pragma once
// 2-opt*: the routes of u and v exchange tails (same vehicle class).

#include "move_site.cuh"

namespace routesolve::cuda::detail::batched {

/// The 2 new routes of a 2-opt* move; 0 when it does not apply.
RS_HD inline u32 two_opt_star_specs(const ProblemView& p, const BatchView& b, const PrefixView& x, const MoveSite& m,
                                    RouteSpec* out) {
  const u32 pu = m.pu, pv = m.pv, ru = m.ru, rv = m.rv, vu = m.vu, vv = m.vv, lu = m.lu;
  if (m.intra || p.veh_class[vu] != p.veh_class[vv]) return 0;
  const u32 lv = b.route_offsets[rv + 1] - 1;
  // Tails that change route must hold no shipment half.
  if (shipments_between(x, pu + 1, lu - 1) > 0 || shipments_between(x, pv, lv - 1) > 0) return 0;
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

}  // namespace routesolve::cuda::detail::batched
