// The batched descent: rounds applied in the engine (in_engine, the default) or on the host
// after schedule_route (on_host, the reference), every result verified.

#include "descent.hpp"

#include <algorithm>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

#include "routesolve/error.hpp"
#include "solution_state.hpp"

namespace routesolve::cuda::batched {

namespace ds = detail::batched;

void Descent::on_host(std::vector<RouteSet>& sols, std::vector<std::vector<Cost>>& costs) {
  std::vector<char> active(sols.size(), 1);
  std::vector<Move> best;
  HostPrefix prefix;
  for (std::uint64_t round = 0; round < 10000; ++round) {
    std::vector<std::size_t> ids;
    std::vector<const RouteSet*> ptrs;
    for (std::size_t i = 0; i < sols.size(); ++i)
      if (active[i]) {
        ids.push_back(i);
        ptrs.push_back(&sols[i]);
      }
    if (ids.empty() || expired()) return;
    const auto t0 = Clock::now();
    const PackedBatch packed = pack_batch(packed_, ptrs);
    stats_.engine.pack += seconds_since(t0);
    engine_.evaluate(packed, best, stats_.engine);
    ++stats_.ls_rounds;

    const auto t1 = Clock::now();
    const BatchView bv = packed.view(packed.arena.bytes.data());
    build_prefix_host(view_, bv, packed.routes, prefix, 1);  // for make_specs' shipment counts
    const std::uint32_t tasks = packed_.tasks;
    for (std::size_t s = 0; s < ids.size(); ++s) {
      RouteSet& routes = sols[ids[s]];
      std::vector<Cost>& cost = costs[ids[s]];
      std::vector<Move> cand;
      for (std::uint32_t u = 0; u < tasks; ++u) {
        const Move& m = best[s * tasks + u];
        if (m.delta < 0 && m.delta != ds::kNoMove) cand.push_back(m);
      }
      std::sort(cand.begin(), cand.end(), [](const Move& a, const Move& b) {
        return std::tie(a.delta, a.u, a.v, a.type, a.aux) < std::tie(b.delta, b.u, b.v, b.type, b.aux);
      });
      const Applied done = apply_verified(bv, prefix.view, static_cast<std::uint32_t>(s), cand, routes, cost);
      stats_.rejected += done.rejected;
      stats_.mismatched += done.mismatched;
      const std::size_t applied = done.applied;
      stats_.applied += applied;
      if (applied == 0) active[ids[s]] = 0;
    }
    stats_.host += seconds_since(t1);
  }
}

void Descent::in_engine(std::vector<RouteSet>& sols, std::vector<std::vector<Cost>>& costs) {
  if (sols.empty() || expired()) return;
  const auto t0 = Clock::now();
  std::vector<const RouteSet*> ptrs;
  for (const RouteSet& rs : sols) ptrs.push_back(&rs);
  PackedBatch batch = pack_batch(packed_, ptrs);
  stats_.engine.pack += seconds_since(t0);
  engine_.load(batch, stats_.engine);
  const auto n = sols.size();
  std::vector<Cost> start(n), gained(n, 0);
  for (std::size_t s = 0; s < n; ++s) start[s] = std::accumulate(costs[s].begin(), costs[s].end(), Cost{0});
  std::vector<std::uint32_t> applied;
  std::vector<std::int64_t> gain;
  const auto check = [&](std::size_t s, const RouteSet& rs, std::vector<Cost>& cost) {
    if (!schedule_changed(sols[s], costs[s], rs, cost)) return false;
    return std::accumulate(cost.begin(), cost.end(), Cost{0}) == start[s] + gained[s];
  };
  for (std::uint64_t round = 0; round < 10000 && !expired(); ++round) {
    engine_.round(applied, gain, stats_.engine);
    ++stats_.ls_rounds;
    bool any = false;
    for (std::size_t s = 0; s < n; ++s) {
      gained[s] += gain[s];
      stats_.applied += applied[s];
      any = any || applied[s] > 0;
    }
    if (opts_.verify_rounds) {
      engine_.fetch(batch, stats_.engine);
      for (std::size_t s = 0; s < n; ++s) {
        std::vector<Cost> cost;
        if (!check(s, unpack_solution(batch, batch.arena.bytes.data(), static_cast<std::uint32_t>(s), packed_.vehicles), cost))
          throw Error(ErrorCode::Internal, "batched search: round " + std::to_string(round) + " of the engine descent: solution " +
                                               std::to_string(s) + " is infeasible or not priced exactly");
      }
    }
    if (!any) break;
  }
  engine_.fetch(batch, stats_.engine);
  const auto t1 = Clock::now();
  for (std::size_t s = 0; s < n; ++s) {
    RouteSet rs = unpack_solution(batch, batch.arena.bytes.data(), static_cast<std::uint32_t>(s), packed_.vehicles);
    std::vector<Cost> cost;
    if (!check(s, rs, cost)) {
      ++stats_.mismatched;  // a pricing bug: keep the solution as it was before the descent
      continue;
    }
    sols[s] = std::move(rs);
    costs[s] = std::move(cost);
  }
  stats_.host += seconds_since(t1);
}

void descend(const Problem& problem, const PackedProblem& packed, MoveEngine& engine,
             std::vector<RouteSet>& solutions, std::vector<std::vector<Cost>>& costs,
             const BatchedSearchOptions& options, SearchStats& stats, const std::function<bool()>& expired) {
  Descent d(problem, packed, engine, options, stats, expired);
  d.run(solutions, costs);
}

Descent::Applied Descent::apply_verified(const BatchView& bv, const ds::PrefixView& prefix, std::uint32_t s,
                                          const std::vector<Move>& cand, RouteSet& routes,
                                          std::vector<Cost>& cost) const {
  const std::uint32_t vehicles = packed_.vehicles;
  std::vector<char> used(vehicles, 0);
  Applied done;
  for (const Move& m : cand) {
    ds::RouteSpec spec[2];
    const std::uint32_t n = ds::make_specs(view_, bv, prefix, s, m.u, m.v, m.type, m.aux, spec);
    if (n == 0) continue;
    bool clash = false;
    for (std::uint32_t i = 0; i < n; ++i) clash = clash || used[spec[i].veh] || used[spec[i].suffix_route % vehicles];
    if (clash) continue;
    // Materialise the new sequences from the (unchanged) packed batch, then verify.
    std::vector<std::int32_t> seqs[2];
    Cost new_cost[2] = {0, 0};
    bool ok = true;
    Cost delta = 0;
    for (std::uint32_t i = 0; i < n && ok; ++i) {
      seqs[i] = materialize(bv, spec[i]);
      new_cost[i] = schedule_cost(p_, spec[i].veh, seqs[i], &ok);
      delta += new_cost[i] - cost[spec[i].veh];
    }
    if (!ok) {
      ++done.rejected;
      continue;
    }
    if (delta != m.delta) {
      ++done.mismatched;  // a pricing bug: never apply what was not priced exactly
      continue;
    }
    for (std::uint32_t i = 0; i < n; ++i) {
      routes[spec[i].veh] = std::move(seqs[i]);
      cost[spec[i].veh] = new_cost[i];
      used[spec[i].veh] = 1;
      used[spec[i].suffix_route % vehicles] = 1;
    }
    ++done.applied;
  }
  return done;
}

}  // namespace routesolve::cuda::batched
