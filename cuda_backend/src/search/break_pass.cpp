// The host pass over routes of vehicles with breaks: the batched pricing skips them, so after
// each descent the moves touching them are priced without their breaks (exact cost, necessary
// feasibility) and applied when schedule_route accepts them.

#include <algorithm>
#include <tuple>
#include <vector>

#include "descent.hpp"
#include "solution_state.hpp"

namespace routesolve::cuda::batched {

namespace ds = detail::batched;

std::size_t Descent::break_pass(std::vector<RouteSet>& sols, std::vector<std::vector<Cost>>& costs) {
  const auto t0 = Clock::now();
  const std::uint32_t tasks = packed_.tasks, vehicles = packed_.vehicles, k = packed_.neighbours;
  std::size_t total = 0;
  HostPrefix prefix;
  for (std::size_t s = 0; s < sols.size(); ++s) {
    const PackedBatch one = pack_batch(packed_, {&sols[s]});
    const BatchView bv = one.view(one.arena.bytes.data());
    build_prefix_host(view_, bv, one.routes, prefix, 1);
    const ds::PrefixView& x = prefix.view;
    const auto has_breaks = [&](std::uint32_t pos) {
      return (view_.veh_flags[bv.pos_route[pos] % vehicles] & ds::kVehicleBreaks) != 0u;
    };
    std::vector<Move> cand;
    const auto consider = [&](std::int32_t u, std::int32_t v, std::uint32_t type, std::uint32_t aux) {
      const ds::MoveResult r = ds::price_move(view_, bv, x, 0, u, v, type, aux, ds::BreakRule::Relax);
      if (r.feasible && r.delta < 0) cand.push_back(Move{r.delta, u, v, type, aux});
    };
    for (std::uint32_t ui = 0; ui < tasks; ++ui) {
      const auto u = static_cast<std::int32_t>(ui);
      const std::int32_t pu = bv.task_pos[ui];
      if (pu < 0) continue;
      const std::uint32_t travel = view_.veh_travel[bv.pos_route[static_cast<std::uint32_t>(pu)] % vehicles];
      for (std::uint32_t j = 0; j < k; ++j) {
        const std::int32_t v = view_.neighbour[(std::size_t{travel} * tasks + ui) * k + j];
        if (v < 0) continue;
        const std::int32_t pv = bv.task_pos[static_cast<std::size_t>(v)];
        if (pv < 0 || !(has_breaks(static_cast<std::uint32_t>(pu)) || has_breaks(static_cast<std::uint32_t>(pv)))) continue;
        for (std::uint32_t type = 0; type < ds::kPairRelocate; ++type) consider(u, v, type, 0);
        if ((view_.task_flags[ui] & ds::kTaskPickup) != 0u) {
          const std::uint32_t lv = bv.route_offsets[bv.pos_route[static_cast<std::uint32_t>(pv)] + 1] - 1;
          for (std::uint32_t q = static_cast<std::uint32_t>(pv); q < lv; ++q) consider(u, v, ds::kPairRelocate, q);
        }
      }
    }
    std::sort(cand.begin(), cand.end(), [](const Move& a, const Move& b) {
      return std::tie(a.delta, a.u, a.v, a.type, a.aux) < std::tie(b.delta, b.u, b.v, b.type, b.aux);
    });
    // Feasible without the breaks, not with them: rejected.
    const Applied done = apply_verified(bv, x, 0, cand, sols[s], costs[s]);
    stats_.break_rejected += done.rejected;
    stats_.mismatched += done.mismatched;
    stats_.break_applied += done.applied;
    total += done.applied;
  }
  stats_.host += seconds_since(t0);
  return total;
}

}  // namespace routesolve::cuda::batched
