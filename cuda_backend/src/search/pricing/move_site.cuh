#pragma once
// Where a move's two customers are (MoveSite), shared by the move families' spec builders
// (relocate.cuh, swap.cuh, two_opt_star.cuh, two_opt.cuh, pair_relocate.cuh).

#include "../route_spec.cuh"

namespace routesolve::cuda::detail::batched {

/// The two customers of a move in solution `sol`: positions, routes, vehicles.
struct MoveSite {
  u32 sol = 0;
  i32 u = -1, v = -1;
  u32 pu = 0, pv = 0;  ///< global positions
  u32 ru = 0, rv = 0;  ///< routes
  u32 vu = 0, vv = 0;  ///< vehicles (local index)
  u32 lu = 0;          ///< end sentinel of u's route
  bool intra = false;  ///< same route
  bool ship_u = false, ship_v = false;
};

/// Fills `m`; false when u == v or one of them is not routed.
RS_HD inline bool locate(const ProblemView& p, const BatchView& b, u32 sol, i32 u, i32 v, MoveSite& m) {
  if (u == v || u < 0 || v < 0) return false;
  const i32 pu_i = b.task_pos[static_cast<std::uint64_t>(sol) * p.tasks + u];
  const i32 pv_i = b.task_pos[static_cast<std::uint64_t>(sol) * p.tasks + v];
  if (pu_i < 0 || pv_i < 0) return false;
  m.sol = sol;
  m.u = u;
  m.v = v;
  m.pu = static_cast<u32>(pu_i);
  m.pv = static_cast<u32>(pv_i);
  m.ru = b.pos_route[m.pu];
  m.rv = b.pos_route[m.pv];
  m.vu = m.ru % p.vehicles;
  m.vv = m.rv % p.vehicles;
  m.lu = b.route_offsets[m.ru + 1] - 1;
  m.intra = m.ru == m.rv;
  m.ship_u = is_shipment(p, u);
  m.ship_v = is_shipment(p, v);
  return true;
}

}  // namespace routesolve::cuda::detail::batched
