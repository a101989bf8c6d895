#pragma once
// Small random instances for the dispatch tests: a depot and points on a grid, Manhattan travel.

#include <cstddef>
#include <cstdlib>
#include <random>
#include <utility>
#include <vector>

#include "routesolve/types.hpp"

namespace routesolve::test {

/// Location 0 at (0, 0) and n more drawn from rng on [-50, 50]^2; the Manhattan distances
/// between all of them.
inline Matrix manhattan_grid(std::mt19937_64& rng, std::size_t n) {
  std::vector<std::pair<int, int>> pts{{0, 0}};
  for (std::size_t i = 0; i < n; ++i)
    pts.emplace_back(static_cast<int>(rng() % 101) - 50, static_cast<int>(rng() % 101) - 50);
  Matrix m(pts.size());
  for (std::size_t a = 0; a < pts.size(); ++a)
    for (std::size_t b = 0; b < pts.size(); ++b)
      m(a, b) = std::abs(pts[a].first - pts[b].first) + std::abs(pts[a].second - pts[b].second);
  return m;
}

}  // namespace routesolve::test
