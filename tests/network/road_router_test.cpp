// Fleet problems on road networks: snapping + CPU matrices fill the spec, a stop far from every
// road comes out unassigned with reason `unreachable`, and every solution passes the validator.

#include "routesolve/network/road_router.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "routesolve/cpu/cpu_backend.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/road_formats.hpp"
#include "routesolve/validator.hpp"
#include "test_support.hpp"

namespace routesolve::test {
namespace {

/// A k x k grid of two-way streets, about 111 m apart, near Monaco; 36 km/h everywhere.
RoadNetwork grid_network(std::size_t k) {
  RoadNetwork net;
  RoadGraph& g = net.graph;
  const auto id = [k](std::size_t x, std::size_t y) { return static_cast<NodeId>(y * k + x); };
  std::vector<std::vector<NodeId>> out(k * k);
  for (std::size_t y = 0; y < k; ++y)
    for (std::size_t x = 0; x < k; ++x) {
      if (x + 1 < k) out[id(x, y)].push_back(id(x + 1, y)), out[id(x + 1, y)].push_back(id(x, y));
      if (y + 1 < k) out[id(x, y)].push_back(id(x, y + 1)), out[id(x, y + 1)].push_back(id(x, y));
    }
  g.first_out.push_back(0);
  for (std::size_t u = 0; u < k * k; ++u) {
    for (NodeId v : out[u]) {
      g.head.push_back(v);
      const std::uint32_t metres = 80 + static_cast<std::uint32_t>((u * 7 + v * 3) % 40);
      g.length.push_back(metres);
      g.duration.push_back(metres);  // 10 m/s: one decisecond per metre
    }
    g.first_out.push_back(static_cast<std::uint32_t>(g.head.size()));
  }
  for (std::size_t y = 0; y < k; ++y)
    for (std::size_t x = 0; x < k; ++x)
      g.coords.push_back({7.42 + 0.001 * double(x), 43.73 + 0.001 * double(y)});
  net.source = "grid";
  return net;
}

LocationSpec at(double lon, double lat) {
  LocationSpec l;
  l.coords = Coordinates{lon, lat};
  return l;
}

JobSpec job(Id id, double lon, double lat) {
  JobSpec j;
  j.id = id;
  j.location = at(lon, lat);
  j.service = 60;
  return j;
}

VehicleSpec vehicle(Id id, double lon, double lat) {
  VehicleSpec v;
  v.id = id;
  v.start = at(lon, lat);
  v.end = at(lon, lat);
  return v;
}

Solution solve_and_validate(const Problem& problem) {
  Solution s = cpu::make_cpu_backend()->solve(problem, SolveOptions{});
  const ValidationReport report = validate(problem, s);
  EXPECT_TRUE(report.ok()) << report.to_text();
  return s;
}

TEST(NetworkMatrices, FillsSecondsAndMetresFromTheRoads) {
  const auto router = std::make_shared<const network::RoadRouter>(grid_network(5));
  ProblemSpec spec;
  spec.vehicles.push_back(vehicle(1, 7.42, 43.73));
  spec.jobs.push_back(job(1, 7.4241, 43.7339));  // near node (4, 4)
  spec.jobs.push_back(job(2, 7.4220, 43.7310));  // on node (2, 1)
  network::MatrixFill fill;
  ASSERT_TRUE(network::fill_matrices(spec, network::RoadProvider(router), &fill));
  ASSERT_EQ(fill.points.size(), 3u);
  ASSERT_EQ(spec.matrices.count("car"), 1u);
  const Matrix& dur = spec.matrices["car"].durations;
  const Matrix& dist = spec.matrices["car"].distances;
  for (std::size_t i = 0; i < 3; ++i) {
    ASSERT_TRUE(fill.matrices.snaps[i].found);
    for (std::size_t j = 0; j < 3; ++j) {
      const PathKey k =
          router->engine().shortest_key(fill.matrices.snaps[i].node, fill.matrices.snaps[j].node);
      EXPECT_EQ(dur(i, j), (static_cast<std::int64_t>(key_duration(k)) + 5) / 10) << i << "," << j;
      EXPECT_EQ(dist(i, j), static_cast<std::int64_t>(key_length(k))) << i << "," << j;
    }
  }
  EXPECT_EQ(fill.matrices.snaps[*spec.jobs[1].location.index].node, 1u * 5 + 2);
  EXPECT_EQ(fill.matrices.snaps[*spec.vehicles[0].start->index].node, 0u);
  EXPECT_EQ(Problem::create(spec)->planar_costs(0),
            nullptr);  // road arcs: the neighbour lists scan
  // A second call leaves given matrices alone.
  EXPECT_FALSE(network::fill_matrices(spec, network::RoadProvider(router)));
}

TEST(NetworkMatrices, StopFarFromTheRoadsIsUnassignedUnreachable) {
  const auto router = std::make_shared<const network::RoadRouter>(grid_network(4));
  ProblemSpec spec;
  spec.vehicles.push_back(vehicle(1, 7.42, 43.73));
  spec.jobs.push_back(job(1, 7.421, 43.731));
  spec.jobs.push_back(job(2, 7.60, 43.80));  // ~17 km away from every road
  spec.jobs.push_back(job(3, 7.423, 43.732));
  network::MatrixFill fill;
  ASSERT_TRUE(network::fill_matrices(spec, network::RoadProvider(router, 500.0, 2), &fill));
  ASSERT_EQ(fill.unplaced, std::vector<std::string>{"jobs[1].location"});
  const std::size_t far = *spec.jobs[1].location.index;
  const Matrix& dur = spec.matrices["car"].durations;
  for (std::size_t j = 0; j < dur.size(); ++j) {
    EXPECT_EQ(dur(far, j), far == j ? 0 : kUnreachable);
    EXPECT_EQ(dur(j, far), far == j ? 0 : kUnreachable);
  }
  const auto problem = Problem::create(spec);
  const Solution s = solve_and_validate(*problem);
  ASSERT_EQ(s.unassigned.size(), 1u);
  EXPECT_EQ(s.unassigned[0].id, 2u);
  EXPECT_EQ(to_string(s.unassigned[0].reason), "unreachable");
  EXPECT_EQ(s.summary.routes, 1u);
}

TEST(NetworkMatrices, VehicleStartFarFromTheRoadsIsAnInputError) {
  const auto router = std::make_shared<const network::RoadRouter>(grid_network(3));
  ProblemSpec spec;
  spec.source = "fleet.json";
  spec.vehicles.push_back(vehicle(1, 7.42, 43.73));
  spec.vehicles.push_back(vehicle(2, 9.0, 45.0));
  spec.jobs.push_back(job(1, 7.421, 43.731));
  try {
    network::fill_matrices(spec, network::RoadProvider(router));
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidInput);
    EXPECT_NE(std::string(e.what()).find("fleet.json: vehicles[1].start"), std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(spec.matrices.empty());
  EXPECT_FALSE(spec.jobs[0].location.index.has_value());
}

TEST(NetworkMatrices, LegGeometryFollowsTheRoads) {
  const auto router = std::make_shared<const network::RoadRouter>(grid_network(5));
  ProblemSpec spec;
  spec.vehicles.push_back(vehicle(1, 7.42, 43.73));
  spec.jobs.push_back(job(1, 7.424, 43.734));
  network::MatrixFill fill;
  network::fill_matrices(spec, network::RoadProvider(router), &fill);
  const auto line = network::RoadProvider(router).leg(
      fill.matrices, fill.points, *spec.vehicles[0].start->index, *spec.jobs[0].location.index);
  EXPECT_EQ(line.size(), 2u + 9u);  // both stops + 9 grid nodes (8 blocks)
  EXPECT_EQ(line.front(), (Coordinates{7.42, 43.73}));
  EXPECT_EQ(line.back(), (Coordinates{7.424, 43.734}));
}

TEST(NetworkMatrices, MonacoStopsAreRoutedOnRoads) {
  ROUTESOLVE_REQUIRE_DATASET("roads/osm/monaco.osm.pbf");
  const auto router = std::make_shared<const network::RoadRouter>(
      io::read_osm_pbf(datasets_dir() / "roads/osm/monaco.osm.pbf"));
  const RoadGraph& g = router->graph();
  std::mt19937_64 rng(5);
  std::uniform_int_distribution<std::size_t> node(0, g.node_count() - 1);
  ProblemSpec spec;
  const Coordinates depot = g.coords[node(rng)];
  spec.vehicles.push_back(vehicle(1, depot.lon, depot.lat));
  spec.vehicles.push_back(vehicle(2, depot.lon, depot.lat));
  for (Id i = 1; i <= 20; ++i) {
    const Coordinates c = g.coords[node(rng)];
    spec.jobs.push_back(job(i, c.lon + 0.0001, c.lat - 0.0001));
  }
  spec.jobs.push_back(job(99, 2.35, 48.85));  // Paris
  network::MatrixFill fill;
  ASSERT_TRUE(network::fill_matrices(spec, network::RoadProvider(router), &fill));
  EXPECT_EQ(fill.unplaced.size(), 1u);
  ASSERT_EQ(fill.matrices.stages.size(), 2u);
  EXPECT_EQ(fill.matrices.stages[1].name, "matrix");
  const auto problem = Problem::create(spec);
  const Solution s = solve_and_validate(*problem);
  ASSERT_EQ(s.unassigned.size(), 1u);
  EXPECT_EQ(s.unassigned[0].id, 99u);
  EXPECT_EQ(s.unassigned[0].reason, UnassignedReason::Unreachable);
}

}  // namespace
}  // namespace routesolve::test
