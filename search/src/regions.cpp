#include "routesolve/search/regions.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

namespace routesolve::search {

Regions split_regions(const Problem& problem, const TourPlan& plan, std::size_t count,
                      std::size_t start) {
  Regions out;
  const std::size_t nv = problem.vehicles().size();
  std::vector<std::size_t> used;
  std::size_t routed = 0;
  for (std::size_t v = 0; v < nv && v < plan.size(); ++v)
    if (!plan[v].empty()) {
      used.push_back(v);
      routed += plan[v].size();
    }
  if (count < 2 || used.size() < 2 * count) return out;
  // A nearest-neighbour chain over the tours' middle visits, their locations looked up once
  // (this runs between every two epochs, while the chains wait).
  const TravelView tv = problem.travel(0);
  std::vector<std::size_t> middle(used.size());
  for (std::size_t k = 0; k < used.size(); ++k) {
    const auto& tour = plan[used[k]];
    middle[k] = problem.task(tour[tour.size() / 2]).location;
  }
  auto gap = [&](std::size_t a, std::size_t b) {
    const std::size_t x = middle[a], y = middle[b];
    return std::min(tv.cost(x, y), tv.cost(y, x));
  };
  std::vector<std::size_t> order;
  std::vector<std::size_t> pending(used.size());  // tours not in the chain yet (any order)
  std::iota(pending.begin(), pending.end(), std::size_t{0});
  std::size_t slot = start % used.size();  // where the next tour of the chain is in `pending`
  for (;;) {
    const std::size_t at = pending[slot];
    order.push_back(used[at]);
    pending[slot] = pending.back();
    pending.pop_back();
    if (pending.empty()) break;
    std::size_t next = used.size();
    Cost best = std::numeric_limits<Cost>::max();
    for (std::size_t k = 0; k < pending.size(); ++k) {
      const std::size_t c = pending[k];
      const Cost g = gap(at, c);
      if (g < best || (g == best && c < next)) {  // ties: the lowest index
        best = g;
        next = c;
        slot = k;
      }
    }
  }
  out.owner.assign(nv, 0);
  out.vehicles.assign(count, std::vector<char>(nv, 0));
  out.tasks.assign(count, std::vector<char>(problem.tasks().size(), 0));
  // Consecutive runs of about routed / count tasks, each of at least one tour.
  std::size_t region = 0, in_region = 0, seen = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::size_t v = order[k];
    const std::size_t left = order.size() - k;  // tours not placed yet, this one included
    if (in_region > 0 && region + 1 < count &&
        (seen * count >= (region + 1) * routed || left <= count - 1 - region)) {
      ++region;
      in_region = 0;
    }
    out.owner[v] = region;
    out.vehicles[region][v] = 1;
    ++in_region;
    seen += plan[v].size();
  }
  std::size_t turn = start;
  for (std::size_t v = 0; v < nv; ++v)
    if (v >= plan.size() || plan[v].empty()) {
      out.owner[v] = turn % count;
      out.vehicles[turn++ % count][v] = 1;
    }
  std::vector<char> routed_task(problem.tasks().size(), 0);
  for (const auto& tour : plan)
    for (std::size_t t : tour) routed_task[t] = 1;
  for (std::size_t t = 0; t < problem.tasks().size(); ++t)
    if (!routed_task[t]) out.tasks[turn++ % count][t] = 1;
  return out;
}

}  // namespace routesolve::search
