// Locations renumbered for the cache (see locality.hpp).

#include "routesolve/search/locality.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <utility>

#include "routesolve/memory_budget.hpp"

namespace routesolve::search {

namespace {

/// Position of (x, y) on the Hilbert curve filling a 2^16 x 2^16 grid.
std::uint64_t hilbert_index(std::uint32_t x, std::uint32_t y) {
  constexpr std::uint32_t kSide = 1u << 16;
  std::uint64_t d = 0;
  for (std::uint32_t s = kSide / 2; s > 0; s /= 2) {
    const std::uint32_t rx = (x & s) != 0 ? 1 : 0;
    const std::uint32_t ry = (y & s) != 0 ? 1 : 0;
    d += std::uint64_t{s} * s * ((3 * rx) ^ ry);
    if (ry == 0) {  // rotate the quadrant
      if (rx == 1) {
        x = kSide - 1 - x;
        y = kSide - 1 - y;
      }
      std::swap(x, y);
    }
  }
  return d;
}

/// Locations of the tasks and vehicles (used[l]), and their coordinates where known.
struct Places {
  std::vector<char> used;
  std::vector<std::optional<Coordinates>> coords;
};

Places places_of(const Problem& problem) {
  const std::size_t n = problem.locations();
  Places p{std::vector<char>(n, 0), std::vector<std::optional<Coordinates>>(n)};
  auto mark = [&](std::size_t l, const std::optional<Coordinates>& c) {
    if (l >= n) return;
    p.used[l] = 1;
    if (c && !p.coords[l]) p.coords[l] = c;
  };
  for (const Task& t : problem.tasks()) mark(t.location, t.coords);
  for (const Vehicle& v : problem.vehicles()) {
    if (v.start != kNone) mark(v.start, v.start_coords);
    if (v.end != kNone) mark(v.end, v.end_coords);
  }
  return p;
}

std::vector<std::size_t> hilbert_order(const std::vector<std::size_t>& locations, const Places& p) {
  double x0 = std::numeric_limits<double>::max(), y0 = x0, x1 = -x0, y1 = -x0;
  for (std::size_t l : locations) {
    x0 = std::min(x0, p.coords[l]->lon);
    x1 = std::max(x1, p.coords[l]->lon);
    y0 = std::min(y0, p.coords[l]->lat);
    y1 = std::max(y1, p.coords[l]->lat);
  }
  // (Coordinates spanning more than a double holds give NaN or infinite shares: those go to
  // the edge of the grid, so the order is still a permutation.)
  auto cell = [](double v, double lo, double hi) {
    const double f = (v - lo) / (hi - lo);
    if (!(f > 0.0)) return std::uint32_t{0};
    if (f >= 1.0) return std::uint32_t{65535};
    return static_cast<std::uint32_t>(f * 65535.0);
  };
  std::vector<std::pair<std::uint64_t, std::size_t>> keyed;
  keyed.reserve(locations.size());
  for (std::size_t l : locations)
    keyed.emplace_back(
        hilbert_index(cell(p.coords[l]->lon, x0, x1), cell(p.coords[l]->lat, y0, y1)), l);
  std::sort(keyed.begin(), keyed.end());
  std::vector<std::size_t> order;
  order.reserve(keyed.size());
  for (const auto& [key, l] : keyed) order.push_back(l);
  return order;
}

/// A nearest-neighbour chain from the first location, by the first travel table's cost (out of
/// the last location placed; unreachable arcs are as far as they get).
std::vector<std::size_t> chain_order(const std::vector<std::size_t>& locations,
                                     const Problem& problem) {
  const TravelView tv = problem.travel_by_index(0);
  std::vector<std::size_t> left = locations, order;
  order.reserve(locations.size());
  std::size_t at = left.front();
  left.erase(left.begin());
  order.push_back(at);
  while (!left.empty()) {
    std::size_t best = 0;
    std::int64_t best_cost = std::numeric_limits<std::int64_t>::max();
    for (std::size_t k = 0; k < left.size(); ++k) {
      const std::int64_t c = tv.cost(at, left[k]);
      if (c < best_cost) {
        best_cost = c;
        best = k;
      }
    }
    at = left[best];
    left[best] = left.back();  // the order of what is left does not matter: ties go to the lowest k
    left.pop_back();
    order.push_back(at);
  }
  return order;
}

/// Bytes a copy of the problem would add: the spec's distinct matrices and the travel tables
/// the problem converted for itself (speed factors, per-km costs).
std::uint64_t copy_bytes(const Problem& problem) {
  std::map<const void*, std::uint64_t> tables;
  for (const auto& [name, pm] : problem.spec().matrices)
    for (const Matrix* m : {&pm.durations, &pm.distances, pm.costs ? &*pm.costs : nullptr})
      if (m && !m->empty()) tables[m->storage()] = m->storage_bytes();
  for (std::size_t t = 0; t < problem.travel_count(); ++t) {
    const TravelView tv = problem.travel_by_index(t);
    for (const TravelTable* table : {&tv.durations, &tv.distances, &tv.costs})
      if (*table && !tables.contains(table->data()))
        tables[table->data()] = table->storage_bytes(tv.n);
  }
  std::uint64_t bytes = 0;
  for (const auto& [p, b] : tables) bytes += b;
  return bytes;
}

}  // namespace

std::vector<std::size_t> locality_order(const Problem& problem) {
  const Places p = places_of(problem);
  std::vector<std::size_t> used, unused;
  bool coords = true;
  for (std::size_t l = 0; l < p.used.size(); ++l) {
    if (!p.used[l]) {
      unused.push_back(l);
      continue;
    }
    used.push_back(l);
    coords = coords && p.coords[l].has_value();
  }
  std::vector<std::size_t> order;
  if (!used.empty()) order = coords ? hilbert_order(used, p) : chain_order(used, problem);
  order.insert(order.end(), unused.begin(), unused.end());
  return order;
}

ProblemPtr locality_ordered(const Problem& problem, std::size_t min_locations,
                            std::uint64_t max_bytes) {
  const std::size_t n = problem.locations();
  if (n < min_locations || problem.travel_count() == 0) return nullptr;
  const std::uint64_t bytes = copy_bytes(problem);
  const std::uint64_t available = available_memory_bytes();
  if (bytes > max_bytes || (available > 0 && bytes > available / 2)) return nullptr;

  return problem.relocated(locality_order(problem));
}

}  // namespace routesolve::search
