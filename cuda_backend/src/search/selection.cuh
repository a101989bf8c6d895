#pragma once
// Selection of one round's moves, per solution: the improving customers in goes_first order
// (sorted by the device's CUB segmented radix sort, by std::stable_sort in the host twin), then
// the greedy maximal set of non-overlapping moves, their new routes noted per route.

#include "pricing/moves.cuh"

namespace routesolve::cuda::detail::batched {

/// Order of the selection: lower delta first, then lower customer (each customer has at most
/// one candidate, so this is a total order: the host reference's std::sort gives the same).
RS_HD inline bool goes_first(const Move& a, const Move& b) {
  return a.delta < b.delta || (a.delta == b.delta && a.u < b.u);
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


}  // namespace routesolve::cuda::detail::batched
