#pragma once
// Shared by the road-network benchmark suites: the same reproducible stops in every suite, so
// their numbers compare side by side.

#include <algorithm>
#include <cstddef>
#include <random>
#include <vector>

#include "routesolve/network/road_router.hpp"
#include "routesolve/road_graph.hpp"
#include "routesolve/snap.hpp"

namespace routesolve::bench {

/// n random stops that snap within 500 m of a road, reproducible (seed 20261129).
inline std::vector<NodeId> random_stops(const network::RoadRouter& router, std::size_t n) {
  const RoadGraph& g = router.graph();
  Coordinates lo = g.coords.front(), hi = g.coords.front();
  for (const Coordinates& c : g.coords) {
    lo.lon = std::min(lo.lon, c.lon), lo.lat = std::min(lo.lat, c.lat);
    hi.lon = std::max(hi.lon, c.lon), hi.lat = std::max(hi.lat, c.lat);
  }
  std::mt19937_64 rng(20261129);
  std::uniform_real_distribution<double> lon(lo.lon, hi.lon), lat(lo.lat, hi.lat);
  std::vector<NodeId> stops;
  while (stops.size() < n) {
    const SnapResult s = router.snapper().snap(Coordinates{lon(rng), lat(rng)}, 500.0);
    if (s.found) stops.push_back(s.node);
  }
  return stops;
}

}  // namespace routesolve::bench
