// Snapping stops to roads: exact nodes on a small grid, the nearer endpoint of the nearest
// segment, the maximum snap distance, and random stops against a brute-force scan of every
// segment.

#include "routesolve/snap.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "routesolve/error.hpp"
#include "routesolve/road_graph.hpp"

using namespace routesolve;

namespace {

constexpr double kStep = 0.001;  // degrees between grid nodes (~111 m north-south, ~71 m east-west)

// A w x h grid of two-way streets at lon 10 + i*step, lat 50 + j*step; node = j*w + i.
RoadGraph grid(int w, int h) {
  RoadGraph g;
  g.first_out.push_back(0);
  for (int j = 0; j < h; ++j) {
    for (int i = 0; i < w; ++i) {
      g.coords.push_back({10 + i * kStep, 50 + j * kStep});
      const auto add = [&](int x, int y) {
        if (x < 0 || y < 0 || x >= w || y >= h) return;
        g.head.push_back(static_cast<NodeId>(y * w + x));
        g.duration.push_back(10);
        g.length.push_back(70);
      };
      add(i, j - 1);
      add(i - 1, j);
      add(i + 1, j);
      add(i, j + 1);
      g.first_out.push_back(static_cast<std::uint32_t>(g.head.size()));
    }
  }
  return g;
}

// Distance from p to segment ab in a local equirectangular projection at p (metres).
double segment_distance(Coordinates p, Coordinates a, Coordinates b) {
  const double m = 6371000.0 * 3.14159265358979323846 / 180.0,
               sx = std::cos(p.lat * 3.14159265358979323846 / 180) * m;
  const double ax = (a.lon - p.lon) * sx, ay = (a.lat - p.lat) * m, bx = (b.lon - p.lon) * sx,
               by = (b.lat - p.lat) * m;
  const double dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
  const double t = l2 > 0 ? std::clamp(-(ax * dx + ay * dy) / l2, 0.0, 1.0) : 0.0;
  return std::hypot(ax + t * dx, ay + t * dy);
}

TEST(Snapper, ExactNodes) {
  const RoadGraph g = grid(3, 3);
  const Snapper snapper(g);
  EXPECT_EQ(snapper.segment_count(), 12u);
  for (NodeId v = 0; v < 9; ++v) {
    const SnapResult r = snapper.snap(g.coords[v], 10.0);
    ASSERT_TRUE(r.found);
    EXPECT_EQ(r.node, v);
    EXPECT_NEAR(r.road_distance_m, 0.0, 1e-6);
    EXPECT_NEAR(r.node_distance_m, 0.0, 1e-6);
  }
}

TEST(Snapper, NearerEndpointOfNearestSegment) {
  const RoadGraph g = grid(3, 3);
  const Snapper snapper(g);
  // 30% along the bottom street from node 0 to node 1, 0.0001 deg (~11 m) south of it.
  const Coordinates stop{10 + 0.3 * kStep, 50 - 0.0001};
  const SnapResult r = snapper.snap(stop, 50.0);
  ASSERT_TRUE(r.found);
  EXPECT_EQ(r.node, 0u);
  EXPECT_NEAR(r.road_distance_m, haversine_m(stop, {stop.lon, 50.0}), 0.01);
  EXPECT_NEAR(r.node_distance_m, haversine_m(stop, g.coords[0]), 1e-9);
  // 70% along: node 1.
  EXPECT_EQ(snapper.snap({10 + 0.7 * kStep, 50 - 0.0001}, 50.0).node, 1u);
  // Inside a block, nearer the vertical street x = 2 between rows 1 and 2: node 5 or 8.
  const SnapResult inner = snapper.snap({10 + 1.9 * kStep, 50 + 1.6 * kStep}, 100.0);
  ASSERT_TRUE(inner.found);
  EXPECT_EQ(inner.node, 8u);
}

TEST(Snapper, MaxDistance) {
  const RoadGraph g = grid(3, 3);
  const Snapper snapper(g);
  const Coordinates far{10 + kStep, 50 - 0.01};  // ~1.1 km south of the grid
  const SnapResult r = snapper.snap(far, 500.0);
  EXPECT_FALSE(r.found);
  EXPECT_EQ(r.node, kNoNode);
  EXPECT_NEAR(r.road_distance_m, haversine_m(far, g.coords[1]), 0.5);  // how far the road was
  EXPECT_TRUE(snapper.snap(far, 2000.0).found);
  EXPECT_TRUE(snapper.snap(g.coords[4], 0.0).found);
  EXPECT_FALSE(snapper.snap({NAN, 50}, 1e9).found);
  EXPECT_THROW((void)snapper.snap(far, -1.0), Error);
}

TEST(Snapper, BatchMatchesSingle) {
  const RoadGraph g = grid(4, 5);
  const Snapper snapper(g);
  const std::vector<Coordinates> stops = {
      {10.0012, 50.0021}, {9.99, 50.0}, {10.0031, 50.0039}, {10.5, 50.5}};
  const std::vector<SnapResult> batch = snapper.snap(stops, 1000.0);
  ASSERT_EQ(batch.size(), stops.size());
  for (std::size_t i = 0; i < stops.size(); ++i) {
    const SnapResult one = snapper.snap(stops[i], 1000.0);
    EXPECT_EQ(batch[i].found, one.found);
    EXPECT_EQ(batch[i].node, one.node);
    EXPECT_EQ(batch[i].road_distance_m, one.road_distance_m);
  }
  EXPECT_FALSE(batch[3].found);
}

TEST(Snapper, RandomStopsAgainstBruteForce) {
  // An irregular network: a grid with jittered node positions and some diagonal streets.
  RoadGraph g = grid(12, 10);
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> jitter(-0.0003, 0.0003);
  for (Coordinates& c : g.coords) c.lon += jitter(rng), c.lat += jitter(rng);
  const Snapper snapper(g);
  std::uniform_real_distribution<double> lon(9.999, 10.012), lat(49.999, 50.010);
  for (int k = 0; k < 2000; ++k) {
    const Coordinates p{lon(rng), lat(rng)};
    double best = INFINITY;
    for (NodeId u = 0; u < g.node_count(); ++u)
      for (std::uint32_t a = g.first_out[u]; a < g.first_out[u + 1]; ++a)
        best = std::min(best, segment_distance(p, g.coords[u], g.coords[g.head[a]]));
    const SnapResult r = snapper.snap(p, 1e6);
    ASSERT_TRUE(r.found);
    // The local projection and haversine agree to well under a millimetre at this scale.
    ASSERT_NEAR(r.road_distance_m, best, 1e-3 + 1e-5 * best) << "stop " << k;
    // The node is an endpoint of a nearest segment and no farther from the stop than the road
    // distance plus half that segment.
    bool endpoint_of_nearest = false;
    for (std::uint32_t a = g.first_out[r.node]; a < g.first_out[r.node + 1]; ++a)
      if (std::fabs(segment_distance(p, g.coords[r.node], g.coords[g.head[a]]) - best) <
          1e-3 + 1e-5 * best)
        endpoint_of_nearest = true;
    ASSERT_TRUE(endpoint_of_nearest) << "stop " << k;
    ASSERT_NEAR(r.node_distance_m, haversine_m(p, g.coords[r.node]), 1e-9);
  }
}

TEST(Snapper, NeedsCoordinates) {
  RoadGraph g = grid(2, 2);
  g.coords.clear();
  EXPECT_THROW(Snapper{g}, Error);
}

TEST(Haversine, KnownDistance) {
  // One degree of latitude on the 6371 km sphere.
  EXPECT_NEAR(haversine_m({0, 0}, {0, 1}), 111194.93, 0.01);
  EXPECT_EQ(haversine_m({7.4, 43.7}, {7.4, 43.7}), 0.0);
}

}  // namespace
