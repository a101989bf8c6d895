#include "routesolve/search/neighbours.hpp"

#include <algorithm>
#include <utility>

namespace routesolve::search {

Neighbours::Neighbours(const Problem& problem, std::size_t k) {
  const std::size_t n = problem.tasks().size();
  lists_.resize(n);
  if (problem.vehicles().empty() || n == 0) return;
  const TravelView tv = problem.travel(0);
  std::vector<std::pair<std::int64_t, std::size_t>> order;
  for (std::size_t t = 0; t < n; ++t) {
    order.clear();
    const std::size_t a = problem.task(t).location;
    for (std::size_t w = 0; w < n; ++w) {
      if (w == t) continue;
      const std::size_t b = problem.task(w).location;
      // Saturate unreachable pairs so that sums cannot overflow.
      const std::int64_t c = std::min(tv.cost(a, b), kUnreachable) + std::min(tv.cost(b, a), kUnreachable);
      order.emplace_back(c, w);
    }
    // The k nearest, then sorted (the pairs are distinct, so the result is partial_sort's at a
    // fraction of its cost when n is large).
    const std::size_t m = std::min(k, order.size());
    const auto mid = order.begin() + static_cast<std::ptrdiff_t>(m);
    if (m < order.size()) std::nth_element(order.begin(), mid, order.end());
    std::sort(order.begin(), mid);
    lists_[t].reserve(m);
    for (std::size_t i = 0; i < m; ++i) lists_[t].push_back(order[i].second);
  }
}

}  // namespace routesolve::search
