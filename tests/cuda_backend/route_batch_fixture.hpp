#pragma once
// Random route batches with owned matrices, and an independent plain-loop evaluation.

#include <cstdint>
#include <random>
#include <vector>

#include "routesolve/cuda/route_eval.hpp"

namespace routesolve::cuda::test {

/// A batch plus the matrices it borrows.
struct OwnedBatch {
  std::vector<std::vector<std::int64_t>> durations, distances, costs;
  RouteBatch batch;
};

struct RandomBatchOptions {
  std::size_t locations = 12;
  std::size_t travel_count = 3;
  std::size_t routes = 40;
  std::size_t max_visits = 30;
  bool null_distances_in_last = true;  ///< the last travel index has no distance matrix
};

inline OwnedBatch random_batch(std::uint64_t seed, const RandomBatchOptions& o = {}) {
  std::mt19937_64 rng(seed);
  const auto uniform = [&rng](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  OwnedBatch out;
  const std::size_t n = o.locations;
  out.durations.resize(o.travel_count);
  out.distances.resize(o.travel_count);
  out.costs.resize(o.travel_count);
  for (std::size_t t = 0; t < o.travel_count; ++t) {
    for (std::size_t c = 0; c < n * n; ++c) {
      out.durations[t].push_back(uniform(0, 100000));
      out.distances[t].push_back(uniform(0, 1000000));
      out.costs[t].push_back(uniform(-1000, 5000000));  // cost matrices may hold any integer
    }
    const bool no_distances = o.null_distances_in_last && t + 1 == o.travel_count && t > 0;
    out.batch.travel.push_back(TravelView{n, out.durations[t].data(),
                                          no_distances ? nullptr : out.distances[t].data(),
                                          out.costs[t].data()});
  }
  std::vector<std::uint32_t> visits;
  for (std::size_t r = 0; r < o.routes; ++r) {
    visits.clear();
    // One route in five is empty; the others have 1..max_visits visits.
    const std::size_t k =
        uniform(0, 4) == 0
            ? 0
            : static_cast<std::size_t>(uniform(1, static_cast<std::int64_t>(o.max_visits)));
    for (std::size_t i = 0; i < k; ++i)
      visits.push_back(static_cast<std::uint32_t>(uniform(0, static_cast<std::int64_t>(n) - 1)));
    const auto end_point = [&]() {
      return uniform(0, 1) == 0
                 ? kNoLocation
                 : static_cast<std::int32_t>(uniform(0, static_cast<std::int64_t>(n) - 1));
    };
    const std::int32_t start = end_point();
    const std::int32_t end = end_point();
    out.batch.add_route(
        static_cast<std::uint32_t>(uniform(0, static_cast<std::int64_t>(o.travel_count) - 1)),
        start, end, visits);
  }
  return out;
}

/// Plain loops, sharing nothing with the library: walk start, visits, end and add up the arcs.
inline std::vector<RouteTotals> reference_totals(const RouteBatch& b) {
  std::vector<RouteTotals> out;
  for (std::size_t r = 0; r < b.size(); ++r) {
    RouteTotals t;
    if (b.route_offsets[r + 1] > b.route_offsets[r]) {
      std::vector<std::size_t> path;
      if (b.route_start[r] != kNoLocation)
        path.push_back(static_cast<std::size_t>(b.route_start[r]));
      for (std::uint32_t i = b.route_offsets[r]; i < b.route_offsets[r + 1]; ++i)
        path.push_back(b.visits[i]);
      if (b.route_end[r] != kNoLocation) path.push_back(static_cast<std::size_t>(b.route_end[r]));
      const TravelView& m = b.travel[b.route_travel[r]];
      for (std::size_t i = 1; i < path.size(); ++i) {
        const std::size_t cell = path[i - 1] * m.n + path[i];
        t.duration += m.durations[cell];
        t.distance += m.distances != nullptr ? m.distances[cell] : 0;
        t.cost += m.costs[cell];
      }
    }
    out.push_back(t);
  }
  return out;
}

}  // namespace routesolve::cuda::test
