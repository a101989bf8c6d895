#include <gtest/gtest.h>

#include <cmath>

#include "routesolve/error.hpp"
#include "routesolve/network/matrix_provider.hpp"
#include "routesolve/problem.hpp"
#include "spec_builders.hpp"

namespace routesolve {
namespace {

LocationSpec coords(double lon, double lat) {
  LocationSpec l;
  l.coords = Coordinates{lon, lat};
  return l;
}

ProblemSpec coordinate_spec() {
  ProblemSpec spec;
  JobSpec a;
  a.id = 1;
  a.location = coords(2.3522, 48.8566);  // Paris
  JobSpec b;
  b.id = 2;
  b.location = coords(-0.1276, 51.5072);  // London
  spec.jobs = {a, b};
  ShipmentSpec s;
  s.pickup.id = 1;
  s.pickup.location = coords(2.3522, 48.8566);  // Paris again: same index
  s.delivery.id = 1;
  s.delivery.location = coords(4.3517, 50.8503);  // Brussels
  spec.shipments = {s};
  VehicleSpec v;
  v.id = 1;
  v.start = coords(2.3522, 48.8566);
  v.profile = "truck";
  spec.vehicles = {v};
  return spec;
}

TEST(Coordinates, HaversineMatricesAndIndices) {
  ProblemSpec spec = coordinate_spec();
  ASSERT_TRUE(network::fill_matrices(spec, network::GreatCircleProvider{10.0}));
  ASSERT_EQ(spec.matrices.size(), 1u);
  ASSERT_TRUE(spec.matrices.count("truck"));
  const ProfileMatrices& m = spec.matrices.at("truck");
  EXPECT_EQ(m.durations.size(), 3u);  // Paris, London, Brussels
  EXPECT_EQ(*spec.jobs[0].location.index, 0u);
  EXPECT_EQ(*spec.jobs[1].location.index, 1u);
  EXPECT_EQ(*spec.shipments[0].pickup.location.index, 0u);
  EXPECT_EQ(*spec.shipments[0].delivery.location.index, 2u);
  EXPECT_EQ(*spec.vehicles[0].start->index, 0u);
  // Paris - London great circle: about 343.5 km.
  const auto d = m.distances(0, 1);
  EXPECT_NEAR(static_cast<double>(d), 343500.0, 1500.0);
  EXPECT_EQ(m.distances(1, 0), d);
  EXPECT_EQ(m.distances(0, 0), 0);
  EXPECT_EQ(m.durations(0, 1), std::llround(static_cast<double>(d) / 10.0));
  // Paris - Brussels: about 264 km.
  EXPECT_NEAR(static_cast<double>(m.distances(0, 2)), 264000.0, 1500.0);
  EXPECT_FALSE(m.costs.has_value());

  // The filled spec is a valid problem.
  const auto p = Problem::create(spec);
  EXPECT_EQ(p->locations(), 3u);
}

TEST(Coordinates, LeavesGivenMatricesAlone) {
  ProblemSpec spec = test::line_spec(3);
  spec.jobs.push_back(test::job(1, 1));
  spec.vehicles.push_back(test::vehicle(1, 0, 0));
  const ProblemSpec before = spec;
  EXPECT_FALSE(network::fill_matrices(spec, network::GreatCircleProvider{}));
  EXPECT_EQ(spec.matrices.at("car").durations, before.matrices.at("car").durations);
}

TEST(Coordinates, MissingCoordinatesNameTheLocation) {
  ProblemSpec spec = coordinate_spec();
  spec.jobs[1].location = LocationSpec{};
  spec.jobs[1].location.index = 4;
  try {
    network::fill_matrices(spec, network::GreatCircleProvider{});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidInput);
    EXPECT_NE(std::string(e.what()).find("jobs[1].location"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(spec.matrices.empty());
  EXPECT_FALSE(spec.jobs[0].location.index.has_value());  // unchanged on error

  ProblemSpec spec2 = coordinate_spec();
  spec2.vehicles[0].end = LocationSpec{};
  try {
    network::fill_matrices(spec2, network::GreatCircleProvider{});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("vehicles[0].end"), std::string::npos) << e.what();
  }
}

TEST(Coordinates, CreateNeverBuildsMatrices) {
  try {
    (void)Problem::create(coordinate_spec());
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidInput);
    EXPECT_NE(std::string(e.what()).find("no travel matrices"), std::string::npos) << e.what();
  }
}

TEST(Coordinates, ProviderFillsMatricesForCreate) {
  ProblemSpec spec = coordinate_spec();
  ASSERT_TRUE(network::fill_matrices(spec, network::GreatCircleProvider{}));
  const auto p = Problem::create(spec);
  EXPECT_EQ(p->locations(), 3u);
  EXPECT_TRUE(p->has_distances());
  EXPECT_GT(p->travel(0).duration(0, 1), 0);
  EXPECT_TRUE(p->task(0).coords.has_value());
  EXPECT_EQ(p->planar_costs(0), nullptr);  // great-circle arcs: the neighbour lists scan
}

}  // namespace
}  // namespace routesolve
