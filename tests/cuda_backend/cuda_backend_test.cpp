// The "cuda" backend and the Problem-level batch builders.

#include "routesolve/cuda/cuda_backend.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

#include "routesolve/cpu/cpu_backend.hpp"
#include "routesolve/cuda/route_eval.hpp"
#include "routesolve/error.hpp"
#include "routesolve/validator.hpp"

namespace routesolve::cuda {
namespace {

/// 8 locations, 6 jobs, 3 vehicles: with start and end, start only (and faster), end only
/// (and costed per km): several travel indices.
ProblemPtr small_problem(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> value(1, 1000);
  constexpr std::size_t n = 8;
  ProblemSpec spec;
  Matrix durations(n), distances(n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      if (i != j) {
        durations(i, j) = value(rng);
        distances(i, j) = 10 * value(rng);
      }
  spec.matrices["car"] = ProfileMatrices{durations, distances, std::nullopt};
  for (std::size_t j = 0; j < 6; ++j) {
    JobSpec job;
    job.id = 100 + j;
    job.location.index = 1 + j;
    spec.jobs.push_back(job);
  }
  VehicleSpec v0;
  v0.id = 1;
  v0.start = LocationSpec{0, std::nullopt};
  v0.end = LocationSpec{0, std::nullopt};
  VehicleSpec v1;
  v1.id = 2;
  v1.start = LocationSpec{7, std::nullopt};
  v1.speed_factor = 2.0;
  VehicleSpec v2;
  v2.id = 3;
  v2.end = LocationSpec{3, std::nullopt};
  v2.costs.per_km = 5;
  spec.vehicles = {v0, v1, v2};
  return Problem::create(std::move(spec));
}

RouteTotals plain_totals(const Problem& problem, std::size_t v,
                         const std::vector<std::size_t>& tasks) {
  RouteTotals t;
  if (tasks.empty()) return t;
  std::vector<std::size_t> path;
  if (problem.vehicle(v).start != kNone) path.push_back(problem.vehicle(v).start);
  for (std::size_t task : tasks) path.push_back(problem.task(task).location);
  if (problem.vehicle(v).end != kNone) path.push_back(problem.vehicle(v).end);
  const TravelView m = problem.travel(v);
  for (std::size_t i = 1; i < path.size(); ++i) {
    t.duration += m.duration(path[i - 1], path[i]);
    t.distance += m.distances != nullptr ? m.distance(path[i - 1], path[i]) : 0;
    t.cost += m.cost(path[i - 1], path[i]);
  }
  return t;
}

TEST(CudaBackend, MakeThrowsDeviceErrorWithoutDevice) {
  if (device_available()) GTEST_SKIP() << "a CUDA device is present";
  try {
    (void)make_cuda_backend();
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Device);
    const std::string message = e.what();
    EXPECT_EQ(message.rfind("CUDA backend requested but ", 0), 0u) << message;
    EXPECT_NE(message.find(device_unavailable_reason()), std::string::npos) << message;
  }
}

TEST(RouteBatchFromProblem, PlansMatchPlainLoops) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const ProblemPtr problem = small_problem(seed);
    std::vector<std::size_t> order(problem->tasks().size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), std::mt19937_64(seed));
    const std::vector<std::vector<std::size_t>> split{
        {order[0], order[1], order[2]}, {order[3], order[4]}, {order[5]}};
    std::vector<RoutePlan> plans;
    std::vector<RouteTotals> expected;
    for (std::size_t v = 0; v < 3; ++v) {
      RoutePlan plan;
      plan.vehicle = v;
      for (std::size_t t : split[v]) plan.visits.push_back(PlannedVisit{false, t});
      plans.push_back(plan);
      expected.push_back(plain_totals(*problem, v, split[v]));
    }
    plans.push_back(RoutePlan{1, {}});  // an unused vehicle
    expected.push_back(RouteTotals{});
    EXPECT_EQ(evaluate_routes_host(*problem, plans), expected) << "seed " << seed;
    if (device_available()) {
      EXPECT_EQ(evaluate_routes_device(*problem, plans), expected) << "seed " << seed;
    }
  }
}

TEST(RouteBatchFromProblem, RejectsUnknownVehicleOrTask) {
  const ProblemPtr problem = small_problem(1);
  EXPECT_THROW((void)make_route_batch(*problem, std::vector<RoutePlan>{RoutePlan{9, {}}}), Error);
  EXPECT_THROW((void)make_route_batch(
                   *problem, std::vector<RoutePlan>{RoutePlan{0, {PlannedVisit{false, 99}}}}),
               Error);
}

// The invariant the cuda backend checks after every solve, here on the host twin: the batched
// figures of the CPU backend's routes equal their reported duration, distance and cost.
TEST(CudaBackend, HostTwinMatchesCpuSolutionFigures) {
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const ProblemPtr problem = small_problem(seed);
    const Solution solution = cpu::make_cpu_backend()->solve(*problem, SolveOptions{});
    ASSERT_FALSE(solution.routes.empty());
    const auto totals = evaluate_routes_host(*problem, solution.routes);
    ASSERT_EQ(totals.size(), solution.routes.size());
    for (std::size_t r = 0; r < totals.size(); ++r) {
      const Route& route = solution.routes[r];
      EXPECT_EQ(totals[r].duration, route.duration) << "seed " << seed << " route " << r;
      EXPECT_EQ(totals[r].distance, route.distance) << "seed " << seed << " route " << r;
      EXPECT_EQ(totals[r].cost, route.cost - problem->fixed_cost(route.vehicle))
          << "seed " << seed << " route " << r;
    }
  }
}

TEST(CudaBackend, SolvesThroughHostSearchAndChecksOnDevice) {
  if (!device_available()) GTEST_SKIP() << "no CUDA device: " << device_unavailable_reason();
  const ProblemPtr problem = small_problem(5);
  const auto backend = make_cuda_backend();
  EXPECT_EQ(backend->name(), "cuda");
  const Solution solution = backend->solve(*problem, SolveOptions{});
  EXPECT_EQ(solution.backend, "cuda");
  const ValidationReport report = validate(*problem, solution);
  EXPECT_TRUE(report.ok()) << report.to_text();
  for (const char* stage : {"host_search", "h2d", "kernel", "d2h"})
    EXPECT_TRUE(std::any_of(solution.profile.begin(), solution.profile.end(),
                            [&](const StageTime& s) { return s.stage == stage; }))
        << "missing stage " << stage;
  // The solution's routes, re-evaluated on the device, equal their own figures.
  const auto totals = evaluate_routes_device(*problem, solution.routes);
  for (std::size_t r = 0; r < solution.routes.size(); ++r) {
    EXPECT_EQ(totals[r].duration, solution.routes[r].duration);
    EXPECT_EQ(totals[r].distance, solution.routes[r].distance);
  }
}

}  // namespace
}  // namespace routesolve::cuda
