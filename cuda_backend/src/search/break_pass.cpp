// The host pass over routes of vehicles with breaks: the batched pricing skips them, so after
// each descent the moves touching them are priced without their breaks (exact cost, necessary
// feasibility) and applied when schedule_route accepts them.

#include <algorithm>
#include <tuple>
#include <vector>

#include "descent.hpp"
#include "solution_state.hpp"

namespace routesolve::cuda::search {

namespace ds = detail::search;

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
    std::vector<char> used(vehicles, 0);
    for (const Move& m : cand) {
      ds::RouteSpec spec[2];
      const std::uint32_t n = ds::make_specs(view_, bv, x, 0, m.u, m.v, m.type, m.aux, spec);
      bool clash = n == 0;
      for (std::uint32_t i = 0; i < n; ++i) clash = clash || used[spec[i].veh] || used[spec[i].suffix_route];
      if (clash) continue;
      std::vector<std::int32_t> seqs[2];
      Cost new_cost[2] = {0, 0};
      bool ok = true;
      Cost delta = 0;
      for (std::uint32_t i = 0; i < n && ok; ++i) {
        seqs[i] = materialize(bv, spec[i]);
        new_cost[i] = schedule_cost(p_, spec[i].veh, seqs[i], &ok);
        delta += new_cost[i] - costs[s][spec[i].veh];
      }
      if (!ok) {
        ++stats_.break_rejected;  // feasible without the breaks, not with them
        continue;
      }
      if (delta != m.delta) {
        ++stats_.mismatched;
        continue;
      }
      for (std::uint32_t i = 0; i < n; ++i) {
        sols[s][spec[i].veh] = std::move(seqs[i]);
        costs[s][spec[i].veh] = new_cost[i];
        used[spec[i].veh] = 1;
        used[spec[i].suffix_route] = 1;
      }
      ++stats_.break_applied;
      ++total;
    }
  }
  stats_.host += seconds_since(t0);
  return total;
}

}  // namespace routesolve::cuda::search
