// A problem whose tables are computed from points (Matrix::from_points) and the same problem with
// the stored cells give the same routes at fixed work and seed, on the cpu backend and on the
// batched host twin (cuda-host, whose arenas then hold the points): CVRP (nearest, scale 1) above
// the locality threshold, time windows (truncation at scale 10) and shipments (scale 1000).

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <vector>

#include "routesolve/cpu/cpu_backend.hpp"
#include "routesolve/cuda/search_backend.hpp"
#include "routesolve/validator.hpp"

namespace routesolve {
namespace {

struct Instance {
  std::vector<Coordinates> points;  // point 0 is the depot
  double scale = 1.0;
  PlanarRounding rounding = PlanarRounding::Nearest;
  bool windows = false, shipments = false;
};

Instance random_instance(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> coord(0, 1000);
  Instance x;
  x.points.push_back({500, 500});
  for (std::size_t i = 1; i < n; ++i)
    x.points.push_back({static_cast<double>(coord(rng)), static_cast<double>(coord(rng))});
  return x;
}

ProblemPtr build(const Instance& x, bool computed) {
  auto src = std::make_shared<const PlanarSource>(PlanarSource{x.points, x.scale, x.rounding});
  Matrix m = Matrix::from_points(src);
  if (!computed) m.materialise();
  ProblemSpec spec;
  spec.matrices["car"] = ProfileMatrices{m, m, m};
  spec.planar_coordinates = true;
  const std::size_t n = x.points.size();
  const auto s = static_cast<std::int64_t>(x.scale);
  auto at = [](std::size_t l) {
    LocationSpec loc;
    loc.index = l;
    return loc;
  };
  std::mt19937_64 rng(n);
  std::uniform_int_distribution<std::int64_t> demand(1, 20), start(0, 600);
  for (std::size_t i = 1; i < n; ++i) {
    if (x.shipments && i + 1 < n && i % 4 == 1) {
      ShipmentSpec sh;
      sh.pickup.id = i;
      sh.pickup.location = at(i);
      sh.delivery.id = i + 1;
      sh.delivery.location = at(i + 1);
      sh.amount = Amount{demand(rng)};
      spec.shipments.push_back(sh);
      ++i;
      continue;
    }
    JobSpec j;
    j.id = i;
    j.location = at(i);
    j.delivery = Amount{demand(rng)};
    if (x.windows) {
      const std::int64_t a = start(rng) * s;
      j.time_windows = {TimeWindow{a, a + 300 * s}};
      j.service = 10 * s;
    }
    spec.jobs.push_back(j);
  }
  for (Id v = 1; v <= n / 8 + 2; ++v) {
    VehicleSpec veh;
    veh.id = v;
    veh.start = at(0);
    veh.end = at(0);
    veh.capacity = Amount{150};
    spec.vehicles.push_back(veh);
  }
  return Problem::create(spec);
}

void expect_same_routes(const Instance& x, std::unique_ptr<Backend> (*make)(),
                        std::size_t iterations) {
  const ProblemPtr a = build(x, true), b = build(x, false);
  ASSERT_TRUE(a->travel(0).costs.computed());
  ASSERT_FALSE(b->travel(0).costs.computed());
  SolveOptions options;
  options.time_limit_s = 0;
  options.iterations = iterations;
  options.seed = 5;
  const Solution sa = make()->solve(*a, options);
  const Solution sb = make()->solve(*b, options);
  const ValidationReport report = validate(*a, sa);
  EXPECT_TRUE(report.ok()) << report.to_text();
  EXPECT_EQ(sa.summary.cost, sb.summary.cost);
  ASSERT_EQ(sa.routes.size(), sb.routes.size());
  for (std::size_t r = 0; r < sa.routes.size(); ++r) {
    EXPECT_EQ(sa.routes[r].vehicle, sb.routes[r].vehicle);
    ASSERT_EQ(sa.routes[r].steps.size(), sb.routes[r].steps.size());
    for (std::size_t k = 0; k < sa.routes[r].steps.size(); ++k) {
      EXPECT_EQ(sa.routes[r].steps[k].task, sb.routes[r].steps[k].task);
      EXPECT_EQ(sa.routes[r].steps[k].arrival, sb.routes[r].steps[k].arrival);
    }
  }
}

TEST(PlanarCosts, SameRoutesComputedOrStoredCvrpAboveTheLocalityThreshold) {
  const Instance x = random_instance(600, 1);
  expect_same_routes(x, cpu::make_cpu_backend, 150);
  expect_same_routes(x, cuda::make_cuda_host_backend, 60);
}

TEST(PlanarCosts, SameRoutesComputedOrStoredWithWindowsTruncatedAtScale10) {
  Instance x = random_instance(120, 2);
  x.scale = 10.0;
  x.rounding = PlanarRounding::Down;
  x.windows = true;
  expect_same_routes(x, cpu::make_cpu_backend, 300);
  expect_same_routes(x, cuda::make_cuda_host_backend, 100);
}

TEST(PlanarCosts, SameRoutesComputedOrStoredWithShipmentsAtScale1000) {
  Instance x = random_instance(100, 3);
  x.scale = 1000.0;
  x.shipments = true;
  expect_same_routes(x, cpu::make_cpu_backend, 300);
  expect_same_routes(x, cuda::make_cuda_host_backend, 100);
}

}  // namespace
}  // namespace routesolve
