#include "routesolve/search/neighbours.hpp"

#include <algorithm>
#include <boost/geometry.hpp>
#include <boost/geometry/index/rtree.hpp>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include "routesolve/memory_budget.hpp"

namespace routesolve::search {

namespace {

namespace bg = boost::geometry;
namespace bgi = boost::geometry::index;

// ---- the scan ------------------------------------------------------------------------------

// The k nearest of every task by c(a, b) + c(b, a), each entry saturated at kUnreachable so that
// sums cannot overflow; ties broken by index. One pass over every pair, cache-friendly: the
// tasks go in blocks, in the order of their locations (so a block reads a few cache lines of each
// row, whatever order the tasks were given in), the column entries c(b, a) of a block are
// gathered once per block from the rows of the matrix (the gather is what costs at 30,000 tasks:
// one page of each row per block, so the blocks are large, and the gathered entries keep the
// matrix's width), then each task of the block reads its own row. A pair joins the k best so far
// only when (sum, task index) is below the worst of them (a max-heap of k): the result is the k
// smallest (sum, index) pairs, in that order, whatever order the candidates run in.
template <typename Entry>
void nearest(const Entry* costs, std::size_t stride, const std::vector<std::size_t>& task_loc,
             std::size_t k, std::vector<std::uint32_t>& lists) {
  const std::size_t n = task_loc.size();
  std::vector<std::size_t> task(n);  // task[i]: the task at position i, in the order of locations
  for (std::size_t t = 0; t < n; ++t) task[t] = t;
  std::stable_sort(task.begin(), task.end(),
                   [&](std::size_t a, std::size_t b) { return task_loc[a] < task_loc[b]; });
  std::vector<std::size_t> loc(n);
  for (std::size_t i = 0; i < n; ++i) loc[i] = task_loc[task[i]];
  constexpr std::size_t kBlock = 256;
  auto entry = [&](std::size_t a, std::size_t b) {
    return static_cast<Entry>(
        std::min<std::int64_t>(std::int64_t{costs[a * stride + b]}, kUnreachable));
  };
  std::vector<Entry> back(std::min(kBlock, n) * n);  // back[b * n + w] = c(loc[w], loc[i0 + b])
  std::vector<std::pair<std::int64_t, std::size_t>> heap;
  heap.reserve(k + 1);
  for (std::size_t i0 = 0; i0 < n; i0 += kBlock) {
    const std::size_t block = std::min(kBlock, n - i0);
    for (std::size_t w = 0; w < n; ++w)
      for (std::size_t b = 0; b < block; ++b) back[b * n + w] = entry(loc[w], loc[i0 + b]);
    for (std::size_t b = 0; b < block; ++b) {
      const std::size_t i = i0 + b;
      const Entry* col = back.data() + b * n;
      const Entry* row = costs + loc[i] * stride;
      heap.clear();
      for (std::size_t w = 0; w < n; ++w) {
        if (w == i) continue;
        const std::pair<std::int64_t, std::size_t> candidate{
            std::min<std::int64_t>(std::int64_t{row[loc[w]]}, kUnreachable) + std::int64_t{col[w]},
            task[w]};
        if (heap.size() < k) {
          heap.push_back(candidate);
          std::push_heap(heap.begin(), heap.end());
        } else if (candidate < heap.front()) {
          std::pop_heap(heap.begin(), heap.end());
          heap.back() = candidate;
          std::push_heap(heap.begin(), heap.end());
        }
      }
      std::sort_heap(heap.begin(), heap.end());
      std::uint32_t* list = lists.data() + task[i] * k;
      for (const auto& [c, w] : heap) *list++ = static_cast<std::uint32_t>(w);
    }
  }
}

// ---- the spatial index ---------------------------------------------------------------------

using Point = bg::model::point<double, 2, bg::cs::cartesian>;
using Box = bg::model::box<Point>;
using Located = std::pair<Point, std::uint32_t>;  // a task at its point

/// The scan's measure of a pair of locations: c(a, b) + c(b, a), each saturated at kUnreachable.
std::int64_t round_trip(const TravelView& tv, std::size_t a, std::size_t b) {
  return std::min(tv.cost(a, b), kUnreachable) + std::min(tv.cost(b, a), kUnreachable);
}

/// (bound + 2) / (2 scale), the farthest from p a task with a sum of at most `bound` can be,
/// lengthened for the rounding of the arithmetic (of the readers' and of p +- reach; a longer
/// reach only adds candidates).
double reach(std::int64_t bound, double scale, const Point& p) {
  const double r = (static_cast<double>(bound) + 2.0) / (2.0 * scale);
  return r * (1.0 + 1e-6) + 1e-6 * (1.0 + std::fabs(bg::get<0>(p)) + std::fabs(bg::get<1>(p)));
}

/// The scan's lists from an R-tree over the tasks' points, where the first vehicle's costs are
/// the rounded planar distances of `planar`: every entry c > s d - 1 (s the scale, d the distance).
/// For task a, the k + 1 tasks nearest in the plane hold k others whose sums are at most M, the
/// k-th smallest of theirs; so the k smallest (sum, index) pairs have sums of at most M, and a
/// task w with sum(w) <= M has 2 (s d - 1) < M: it lies within (M + 2) / (2 s) of a. The tasks in
/// that disc, ranked by (sum read from the matrix, index), give the k smallest pairs, ties
/// included. O(n k log n) for points spread over the plane; the matrix reads (two per candidate,
/// cache misses at 30,000 locations) are most of the time, so the disc is cut out of the R-tree's
/// square before they are made, and the tasks go in the order of their locations (on a problem
/// in locality order, locality.hpp, neighbouring tasks then read neighbouring rows and columns).
/// False, with `lists` to be scanned, where the bound is not known to hold (a point or scale that
/// is not finite, a saturated sum).
bool nearest_planar(const Problem& problem, const PlanarSource& planar, std::size_t k,
                    std::vector<std::uint32_t>& lists) {
  const std::size_t n = problem.tasks().size();
  if (!std::isfinite(planar.scale) || !(planar.scale > 0.0)) return false;
  std::vector<Located> located(n);
  for (std::size_t t = 0; t < n; ++t) {
    const Coordinates& c = planar.points[problem.task(t).location];
    if (!std::isfinite(c.lon) || !std::isfinite(c.lat)) return false;
    located[t] = {Point(c.lon, c.lat), static_cast<std::uint32_t>(t)};
  }
  const bgi::rtree<Located, bgi::rstar<16>> tree(located.begin(),
                                                 located.end());  // bulk loading (packing)
  const TravelView tv = problem.travel(0);
  std::vector<Located> found;
  std::vector<std::pair<std::int64_t, std::uint32_t>> ranked;
  // The (sum, index) pairs of the tasks found within `h` of a, a itself left out.
  auto rank = [&](std::size_t a, double h) {
    const std::size_t la = problem.task(a).location;
    ranked.clear();
    for (const auto& [point, w] : found)
      if (w != a && bg::comparable_distance(point, located[a].first) <= h * h)
        ranked.emplace_back(round_trip(tv, la, problem.task(w).location), w);
  };
  std::vector<std::uint32_t> order(n);  // the tasks in the order of their locations
  for (std::size_t t = 0; t < n; ++t) order[t] = static_cast<std::uint32_t>(t);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return problem.task(a).location < problem.task(b).location;
  });
  for (const std::size_t a : order) {
    const Point& p = located[a].first;
    found.clear();
    tree.query(bgi::nearest(p, static_cast<unsigned>(k + 1)), std::back_inserter(found));
    rank(a, std::numeric_limits<double>::infinity());
    std::nth_element(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(k - 1),
                     ranked.end());
    const std::int64_t bound = ranked[k - 1].first;
    if (bound >= kUnreachable) return false;
    const double h = reach(bound, planar.scale, p);
    const Box square(Point(bg::get<0>(p) - h, bg::get<1>(p) - h),
                     Point(bg::get<0>(p) + h, bg::get<1>(p) + h));
    found.clear();
    tree.query(bgi::intersects(square), std::back_inserter(found));
    rank(a, h);
    std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(k),
                      ranked.end());
    std::uint32_t* list = lists.data() + a * k;
    for (std::size_t i = 0; i < k; ++i) list[i] = ranked[i].second;
  }
  return true;
}

}  // namespace

Neighbours::Neighbours(const Problem& problem, std::size_t k, Method method) {
  const std::size_t n = problem.tasks().size();
  if (problem.vehicles().empty() || n == 0 || k == 0) return;
  if (n > std::numeric_limits<std::uint32_t>::max())
    throw std::length_error("Neighbours: more tasks than 32-bit indices hold");
  k_ = std::min(k, n - 1);
  if (k_ == 0) return;
  lists_.resize(n * k_);
  if (method == Method::Auto) {
    const PlanarSource* planar = problem.planar_costs(0);
    spatial_ = planar != nullptr && nearest_planar(problem, *planar, k_, lists_);
    if (spatial_) return;
  }
  const TravelView tv = problem.travel(0);
  std::vector<std::size_t> loc(n);
  for (std::size_t t = 0; t < n; ++t) loc[t] = problem.task(t).location;
  if (tv.costs.computed()) {
    // A scan of computed costs (Method::Scan, or a bound that failed) reads its entries once.
    check_matrix_memory(tv.n, 1, "the neighbour scan", 4);
    std::vector<std::int32_t> costs(tv.n * tv.n);
    for (std::size_t i = 0; i < tv.n; ++i)
      for (std::size_t j = 0; j < tv.n; ++j)
        costs[i * tv.n + j] = static_cast<std::int32_t>(tv.cost(i, j));
    nearest(costs.data(), tv.n, loc, k_, lists_);
  } else if (tv.costs.narrow())
    nearest(static_cast<const std::int32_t*>(tv.costs.data()), tv.n, loc, k_, lists_);
  else
    nearest(static_cast<const std::int64_t*>(tv.costs.data()), tv.n, loc, k_, lists_);
}

Neighbours::Neighbours(const Problem& problem, const Neighbours& pool, std::size_t keep,
                       std::size_t extra) {
  const std::size_t n = problem.tasks().size();
  keep = std::min(keep, pool.k_);
  extra = std::min(extra, pool.k_ - keep);
  k_ = keep + extra;
  if (k_ == 0 || n == 0) {
    k_ = 0;
    return;
  }
  lists_.resize(n * k_);
  const TravelView tv = problem.travel(0);
  // The least wait and time warp of going from a to b: leaving a as late as its windows allow
  // (arriving at b as late as possible waits least), or as early (warps least).
  auto correlation = [&](std::size_t a, std::size_t b) {
    const Task& ta = problem.task(a);
    const Task& tb = problem.task(b);
    const std::int64_t travel = std::min(tv.duration(ta.location, tb.location), kUnreachable);
    const std::int64_t cost = std::min(tv.cost(ta.location, tb.location), kUnreachable);
    const std::int64_t earliest_a = ta.time_windows.front().start,
                       latest_a = ta.time_windows.back().end;
    const std::int64_t earliest_b = tb.time_windows.front().start,
                       latest_b = tb.time_windows.back().end;
    const std::int64_t wait =
        std::max<std::int64_t>(0, earliest_b - std::min(kMaxTime, latest_a + ta.service + travel));
    const std::int64_t warp =
        std::max<std::int64_t>(0, std::min(kMaxTime, earliest_a + ta.service + travel) - latest_b);
    return static_cast<double>(cost) + 0.2 * static_cast<double>(wait) + static_cast<double>(warp);
  };
  std::vector<std::pair<double, std::size_t>> ranked;
  for (std::size_t t = 0; t < n; ++t) {
    const auto from = pool.of(t);
    std::uint32_t* list = lists_.data() + t * k_;
    std::copy(from.begin(), from.begin() + static_cast<std::ptrdiff_t>(keep), list);
    ranked.clear();
    for (std::size_t x = keep; x < from.size(); ++x)
      ranked.emplace_back(std::min(correlation(t, from[x]), correlation(from[x], t)), x);
    std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(extra),
                      ranked.end());
    for (std::size_t e = 0; e < extra; ++e) list[keep + e] = from[ranked[e].second];
  }
}

}  // namespace routesolve::search
