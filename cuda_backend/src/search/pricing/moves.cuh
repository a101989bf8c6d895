#pragma once
// One move priced: its new routes (make_specs, by family), their exact prices, and the best
// improving move of one (solution, customer, neighbour) triple: what one thread of the pricing
// kernel computes (kernels.cuh, PriceBody).

#include "pair_relocate.cuh"
#include "price_route.cuh"
#include "relocate.cuh"
#include "swap.cuh"
#include "two_opt.cuh"
#include "two_opt_star.cuh"

namespace routesolve::cuda::detail::batched {

/// The new routes of a move (1 for intra-route, 2 for inter-route); 0 when the move does not
/// apply (same task, a sentinel in the way, shipment rules, other vehicle class...).
RS_HD inline u32 make_specs(const ProblemView& p, const BatchView& b, const PrefixView& x, u32 sol,
                            i32 u, i32 v, u32 type, u32 aux, RouteSpec* out) {
  MoveSite m;
  if (!locate(p, b, sol, u, v, m)) return 0;
  switch (type) {
    case kRelocateAfter:
    case kRelocateBefore:
    case kOrOpt2:
    case kOrOpt3:
      return relocate_specs(b, x, m, type, out);
    case kSwap:
      return swap_specs(b, m, out);
    case kTwoOptStar:
      return two_opt_star_specs(p, b, x, m, out);
    case kTwoOpt:
      return two_opt_specs(x, m, out);
    case kPairRelocate:
      return pair_relocate_specs(p, b, m, aux, out);
    default:
      return 0;
  }
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

}  // namespace routesolve::cuda::detail::batched
