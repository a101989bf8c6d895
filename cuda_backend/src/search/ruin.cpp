// Ruin for the batched search: strings removed around a seed task and its neighbours,
// shipments with both halves, then everything unassigned recreated.

#include <algorithm>
#include <random>
#include <vector>

#include "routesolve/error.hpp"
#include "search.hpp"

namespace routesolve::cuda::search {

void Search::ruin(State& s, std::mt19937_64& rng) {
  std::vector<std::int32_t> assigned;
  for (const auto& r : s.routes) assigned.insert(assigned.end(), r.begin(), r.end());
  if (assigned.empty()) return;
  const std::size_t limit = std::clamp<std::size_t>(assigned.size() / 5, 2, 40);
  const std::size_t target = 1 + rng() % limit;
  const std::int32_t seed = assigned[rng() % assigned.size()];
  std::vector<std::int32_t> removed;
  std::vector<char> route_done(s.routes.size(), 0);
  std::vector<std::int32_t> where(p_.tasks().size(), -1);
  for (std::size_t v = 0; v < s.routes.size(); ++v)
    for (const auto t : s.routes[v]) where[static_cast<std::size_t>(t)] = static_cast<std::int32_t>(v);
  const std::uint32_t k = packed_.neighbours;
  const std::uint32_t travel = packed_.travel_count > 0 ? static_cast<std::uint32_t>(p_.vehicle(0).travel) : 0;
  std::vector<std::int32_t> around{seed};
  for (std::uint32_t i = 0; i < k; ++i)
    around.push_back(view_.neighbour[(std::size_t{travel} * packed_.tasks + static_cast<std::size_t>(seed)) * k + i]);
  for (const std::int32_t w : around) {
    if (removed.size() >= target || w < 0) break;
    const std::int32_t v = where[static_cast<std::size_t>(w)];
    if (v < 0 || route_done[static_cast<std::size_t>(v)]) continue;
    route_done[static_cast<std::size_t>(v)] = 1;
    auto& seq = s.routes[static_cast<std::size_t>(v)];
    const auto pos = static_cast<std::size_t>(std::find(seq.begin(), seq.end(), w) - seq.begin());
    const std::size_t len = 1 + rng() % std::min<std::size_t>(seq.size(), std::max<std::size_t>(1, target - removed.size()));
    const std::size_t from = pos >= len - 1 ? pos - (rng() % len) : 0;
    const std::size_t to = std::min(seq.size(), from + len);
    std::vector<std::int32_t> keep;
    for (std::size_t i = 0; i < seq.size(); ++i) {
      const bool out = i >= from && i < to;
      if (out) removed.push_back(seq[i]);
      else keep.push_back(seq[i]);
    }
    seq = std::move(keep);
  }
  // Shipments leave with both halves.
  std::vector<char> gone(p_.tasks().size(), 0);
  for (const auto t : removed) gone[static_cast<std::size_t>(t)] = 1;
  for (const auto t : std::vector<std::int32_t>(removed)) {
    const std::size_t sib = p_.task(static_cast<std::size_t>(t)).sibling;
    if (sib != kNone && !gone[sib]) {
      gone[sib] = 1;
      removed.push_back(static_cast<std::int32_t>(sib));
    }
  }
  for (auto& seq : s.routes)
    seq.erase(std::remove_if(seq.begin(), seq.end(), [&](std::int32_t t) { return gone[static_cast<std::size_t>(t)] != 0; }),
              seq.end());
  for (std::size_t v = 0; v < s.routes.size(); ++v) {
    bool ok = false;
    s.cost[v] = schedule_cost(v, s.routes[v], &ok);
    if (!ok) throw Error(ErrorCode::Internal, "batched search: a route became infeasible by removals");
  }
  // Earlier unassigned tasks get another chance.
  removed.insert(removed.end(), s.unassigned.begin(), s.unassigned.end());
  s.unassigned.clear();
  std::sort(removed.begin(), removed.end());
  removed.erase(std::unique(removed.begin(), removed.end()), removed.end());
  recreate(s, removed, rng, 0.01);
}

}  // namespace routesolve::cuda::search
