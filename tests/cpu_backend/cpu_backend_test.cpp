// Feature tests of the CPU backend on small problems built in code; every solution goes
// through core's validator.

#include "routesolve/cpu/cpu_backend.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>

#include "routesolve/validator.hpp"
#include "test_problems.hpp"

namespace routesolve::test {
namespace {

Solution solve_and_validate(const Problem& problem, SolveOptions options = {}) {
  auto backend = cpu::make_cpu_backend();
  EXPECT_EQ(backend->name(), "cpu");
  Solution s = backend->solve(problem, options);
  const ValidationReport report = validate(problem, s);
  EXPECT_TRUE(report.ok()) << report.to_text();
  EXPECT_EQ(s.backend, "cpu");
  return s;
}

const Unassigned* find_unassigned(const Solution& s, Id id) {
  for (const Unassigned& u : s.unassigned)
    if (u.id == id) return &u;
  return nullptr;
}

std::size_t vehicle_of_job(const Solution& s, Id id) {
  for (const Route& r : s.routes)
    for (const Step& step : r.steps)
      if (step.type == StepType::Job && step.id == id) return r.vehicle;
  return kNone;
}

ProblemSpec ring_spec(std::size_t customers, std::size_t vehicles, std::int64_t capacity) {
  auto spec = points_spec(random_points(customers + 1, 7));
  for (std::size_t i = 1; i <= customers; ++i) spec.jobs.push_back(make_job(i, i, 1));
  for (std::size_t v = 0; v < vehicles; ++v)
    spec.vehicles.push_back(make_vehicle(v + 1, 0, capacity));
  return spec;
}

TEST(CpuBackend, CvrpRoutesEveryJob) {
  const auto problem = Problem::create(ring_spec(30, 10, 8));
  const Solution s = solve_and_validate(*problem);
  EXPECT_TRUE(s.unassigned.empty());
  EXPECT_GE(s.summary.routes, 4u);  // 30 jobs of 1, capacity 8
  ASSERT_EQ(s.profile.size(), 2u);
  EXPECT_EQ(s.profile[0].stage, "construction");
  EXPECT_EQ(s.profile[1].stage, "local_search");
}

TEST(CpuBackend, JobsThatCannotBeServedGetReasons) {
  auto spec = points_spec({{0, 0}, {10, 0}, {20, 0}, {0, 30}, {5, 5}});
  spec.jobs.push_back(make_job(1, 1, 1));
  spec.jobs.push_back(make_job(2, 2, 50));  // over capacity
  JobSpec late = make_job(3, 3, 1);
  late.time_windows = {{0, 5}};  // 30 away
  spec.jobs.push_back(late);
  JobSpec skilled = make_job(4, 4, 1);
  skilled.skills = {9};
  spec.jobs.push_back(skilled);
  spec.vehicles.push_back(make_vehicle(1, 0, 10));
  const auto problem = Problem::create(spec);
  const Solution s = solve_and_validate(*problem);
  ASSERT_EQ(s.unassigned.size(), 3u);
  EXPECT_EQ(find_unassigned(s, 2)->reason, UnassignedReason::Capacity);
  EXPECT_EQ(find_unassigned(s, 3)->reason, UnassignedReason::TimeWindow);
  EXPECT_EQ(find_unassigned(s, 4)->reason, UnassignedReason::NoCompatibleVehicle);
}

TEST(CpuBackend, SkillsChooseTheVehicle) {
  auto spec = points_spec({{0, 0}, {10, 0}, {0, 10}, {10, 10}});
  for (Id j = 1; j <= 3; ++j) spec.jobs.push_back(make_job(j, j, 1));
  spec.jobs[1].skills = {3};
  spec.vehicles.push_back(make_vehicle(1, 0, 10));
  spec.vehicles.push_back(make_vehicle(2, 0, 10));
  spec.vehicles[1].skills = {3, 4};
  const auto problem = Problem::create(spec);
  const Solution s = solve_and_validate(*problem);
  EXPECT_TRUE(s.unassigned.empty());
  EXPECT_EQ(vehicle_of_job(s, 2), 1u);
}

TEST(CpuBackend, ShipmentsArePickedUpBeforeDelivery) {
  auto spec = points_spec(random_points(13, 11));
  for (std::size_t k = 0; k < 6; ++k) {
    ShipmentSpec sh;
    sh.pickup.id = 100 + k;
    sh.pickup.location.index = 1 + 2 * k;
    sh.delivery.id = 200 + k;
    sh.delivery.location.index = 2 + 2 * k;
    sh.amount = Amount{3};
    spec.shipments.push_back(sh);
  }
  spec.jobs.push_back(make_job(1, 5, 0));
  spec.vehicles.push_back(make_vehicle(1, 0, 4));
  spec.vehicles.push_back(make_vehicle(2, 0, 4));
  const auto problem = Problem::create(spec);
  const Solution s = solve_and_validate(*problem);
  EXPECT_TRUE(s.unassigned.empty());
  for (const Route& r : s.routes) {
    for (std::size_t i = 0; i < r.steps.size(); ++i) {
      if (r.steps[i].type != StepType::Delivery) continue;
      const Id pickup_id = r.steps[i].id - 100;
      const bool before = std::any_of(
          r.steps.begin(), r.steps.begin() + static_cast<std::ptrdiff_t>(i),
          [&](const Step& st) { return st.type == StepType::Pickup && st.id == pickup_id; });
      EXPECT_TRUE(before) << "delivery " << r.steps[i].id;
    }
  }
}

TEST(CpuBackend, ShipmentOverCapacityIsUnassignedWithBothHalves) {
  auto spec = points_spec({{0, 0}, {10, 0}, {20, 0}});
  ShipmentSpec sh;
  sh.pickup.id = 1;
  sh.pickup.location.index = 1;
  sh.delivery.id = 2;
  sh.delivery.location.index = 2;
  sh.amount = Amount{9};
  spec.shipments.push_back(sh);
  spec.vehicles.push_back(make_vehicle(1, 0, 5));
  const auto problem = Problem::create(spec);
  const Solution s = solve_and_validate(*problem);
  ASSERT_EQ(s.unassigned.size(), 2u);
  for (const Unassigned& u : s.unassigned) EXPECT_EQ(u.reason, UnassignedReason::Capacity);
}

TEST(CpuBackend, BreaksAreScheduled) {
  auto spec = ring_spec(12, 2, 100);
  for (VehicleSpec& v : spec.vehicles) {
    BreakSpec b;
    b.id = v.id * 10;
    b.time_windows = {{50, 120}};
    b.service = 15;
    v.breaks.push_back(b);
  }
  const auto problem = Problem::create(spec);
  const Solution s = solve_and_validate(*problem);
  EXPECT_TRUE(s.unassigned.empty());
  for (const Route& r : s.routes)
    EXPECT_EQ(std::count_if(r.steps.begin(), r.steps.end(),
                            [](const Step& st) { return st.type == StepType::Break; }),
              1);
}

TEST(CpuBackend, OpenRoutes) {
  auto spec = ring_spec(10, 2, 5);
  spec.vehicles[0].end.reset();
  spec.vehicles[1].start.reset();
  const auto problem = Problem::create(spec);
  const Solution s = solve_and_validate(*problem);
  EXPECT_TRUE(s.unassigned.empty());
  ASSERT_EQ(s.routes.size(), 2u);
  for (const Route& r : s.routes) {
    if (r.vehicle == 0)
      EXPECT_NE(r.steps.back().type, StepType::End);
    else
      EXPECT_NE(r.steps.front().type, StepType::Start);
  }
}

TEST(CpuBackend, MultiDepotServesEachClusterFromItsDepot) {
  // Depots at 0 and 1000; five customers near each.
  std::vector<std::pair<double, double>> pts{{0, 0}, {1000, 0}};
  for (int i = 0; i < 5; ++i) pts.push_back({10.0 + i, 5.0 * i});
  for (int i = 0; i < 5; ++i) pts.push_back({990.0 - i, 5.0 * i});
  auto spec = points_spec(pts);
  for (std::size_t i = 2; i < pts.size(); ++i) spec.jobs.push_back(make_job(i, i, 1));
  spec.vehicles.push_back(make_vehicle(1, 0, 10));
  spec.vehicles.push_back(make_vehicle(2, 1, 10));
  const auto problem = Problem::create(spec);
  const Solution s = solve_and_validate(*problem);
  EXPECT_TRUE(s.unassigned.empty());
  for (Id j = 2; j < 7; ++j) EXPECT_EQ(vehicle_of_job(s, j), 0u);
  for (Id j = 7; j < 12; ++j) EXPECT_EQ(vehicle_of_job(s, j), 1u);
}

TEST(CpuBackend, HighPriorityPreferredWhenCapacityIsShort) {
  auto spec = points_spec({{0, 0}, {10, 0}, {100, 0}, {11, 0}});
  spec.jobs.push_back(make_job(1, 1, 5));
  spec.jobs.push_back(make_job(2, 2, 5));  // far, but important
  spec.jobs.push_back(make_job(3, 3, 5));
  spec.jobs[1].priority = 50;
  spec.vehicles.push_back(make_vehicle(1, 0, 10));
  const auto problem = Problem::create(spec);
  const Solution s = solve_and_validate(*problem);
  ASSERT_EQ(s.unassigned.size(), 1u);
  EXPECT_NE(s.unassigned[0].id, 2u);
  EXPECT_EQ(s.unassigned[0].reason, UnassignedReason::Capacity);
}

TEST(CpuBackend, MaxTasksLimitsRoutes) {
  auto spec = ring_spec(5, 2, 100);
  for (VehicleSpec& v : spec.vehicles) v.max_tasks = 2;
  const auto problem = Problem::create(spec);
  const Solution s = solve_and_validate(*problem);
  ASSERT_EQ(s.unassigned.size(), 1u);
  EXPECT_EQ(s.unassigned[0].reason, UnassignedReason::MaxTasks);
}

TEST(CpuBackend, MaxTravelTimeAndDistance) {
  auto spec = points_spec({{0, 0}, {10, 0}, {200, 0}, {0, 300}});
  spec.jobs.push_back(make_job(1, 1, 1));
  spec.jobs.push_back(make_job(2, 2, 1));
  spec.jobs.push_back(make_job(3, 3, 1));
  spec.vehicles.push_back(make_vehicle(1, 0, 10));
  spec.vehicles[0].max_travel_time = 100;
  spec.vehicles.push_back(make_vehicle(2, 0, 10));
  spec.vehicles[1].max_distance = 500;
  spec.vehicles[1].skills = {1};
  spec.jobs[1].skills = {1};  // job 2 (400 round trip) only for vehicle 2
  const auto problem = Problem::create(spec);
  const Solution s = solve_and_validate(*problem);
  EXPECT_EQ(vehicle_of_job(s, 2), 1u);
  // Job 3 needs 600 of travel: over vehicle 1's time and vehicle 2's distance.
  ASSERT_NE(find_unassigned(s, 3), nullptr);
  const UnassignedReason r = find_unassigned(s, 3)->reason;
  EXPECT_TRUE(r == UnassignedReason::MaxTravelTime || r == UnassignedReason::MaxDistance);

  auto only_time = points_spec({{0, 0}, {0, 300}});
  only_time.jobs.push_back(make_job(1, 1, 1));
  only_time.vehicles.push_back(make_vehicle(1, 0, 10));
  only_time.vehicles[0].max_travel_time = 100;
  const auto p2 = Problem::create(only_time);
  const Solution s2 = solve_and_validate(*p2);
  ASSERT_EQ(s2.unassigned.size(), 1u);
  EXPECT_EQ(s2.unassigned[0].reason, UnassignedReason::MaxTravelTime);

  auto only_distance = points_spec({{0, 0}, {0, 300}});
  only_distance.jobs.push_back(make_job(1, 1, 1));
  only_distance.vehicles.push_back(make_vehicle(1, 0, 10));
  only_distance.vehicles[0].max_distance = 100;
  const auto p3 = Problem::create(only_distance);
  const Solution s3 = solve_and_validate(*p3);
  ASSERT_EQ(s3.unassigned.size(), 1u);
  EXPECT_EQ(s3.unassigned[0].reason, UnassignedReason::MaxDistance);
}

TEST(CpuBackend, SeveralTimeWindowsPerTask) {
  auto spec = points_spec({{0, 0}, {50, 0}, {0, 50}});
  JobSpec a = make_job(1, 1, 1);
  a.time_windows = {{0, 10}, {200, 300}};  // first window unreachable
  a.service = 10;
  JobSpec b = make_job(2, 2, 1);
  b.time_windows = {{60, 90}, {500, 600}};
  spec.jobs = {a, b};
  spec.vehicles.push_back(make_vehicle(1, 0, 10));
  const auto problem = Problem::create(spec);
  const Solution s = solve_and_validate(*problem);
  EXPECT_TRUE(s.unassigned.empty());
}

TEST(CpuBackend, HeterogeneousFleetUsesTheCheaperVehicle) {
  auto spec = ring_spec(6, 0, 0);
  VehicleSpec expensive = make_vehicle(1, 0, 100);
  expensive.costs.fixed = 100000;
  VehicleSpec cheap = make_vehicle(2, 0, 100);
  cheap.costs.per_hour = 7200;
  cheap.speed_factor = 2.0;  // twice as fast, twice the hourly cost
  VehicleSpec fast = make_vehicle(3, 0, 3);
  fast.speed_factor = 1.5;
  spec.vehicles = {expensive, cheap, fast};
  const auto problem = Problem::create(spec);
  const Solution s = solve_and_validate(*problem);
  EXPECT_TRUE(s.unassigned.empty());
  for (const Route& r : s.routes) EXPECT_NE(r.vehicle, 0u);
}

TEST(CpuBackend, SameSeedSameSolution) {
  auto spec = ring_spec(40, 10, 7);
  for (std::size_t i = 0; i < spec.jobs.size(); ++i)
    spec.jobs[i].time_windows = {
        {static_cast<Duration>(i * 5), static_cast<Duration>(i * 5 + 400)}};
  const auto problem = Problem::create(spec);
  SolveOptions options;
  options.seed = 42;
  const Solution a = solve_and_validate(*problem, options);
  const Solution b = solve_and_validate(*problem, options);
  ASSERT_EQ(a.routes.size(), b.routes.size());
  EXPECT_EQ(a.summary.cost, b.summary.cost);
  for (std::size_t r = 0; r < a.routes.size(); ++r) {
    ASSERT_EQ(a.routes[r].steps.size(), b.routes[r].steps.size());
    for (std::size_t k = 0; k < a.routes[r].steps.size(); ++k)
      EXPECT_EQ(a.routes[r].steps[k].id, b.routes[r].steps[k].id);
  }
}

TEST(CpuBackend, SameSeedAndThreadsSameSolution) {
  // Several threads exchange their best solutions at fixed iteration counts, so the result
  // depends on (seed, threads) only when the budget is counted in iterations (no time limit).
  auto spec = ring_spec(40, 10, 7);
  ShipmentSpec sh;
  sh.pickup.id = 500;
  sh.pickup.location.index = 3;
  sh.delivery.id = 501;
  sh.delivery.location.index = 9;
  sh.amount = Amount{1};
  spec.shipments.push_back(sh);
  const auto problem = Problem::create(spec);
  SolveOptions options;
  options.seed = 7;
  options.threads = 2;
  const Solution a = solve_and_validate(*problem, options);
  const Solution b = solve_and_validate(*problem, options);
  EXPECT_EQ(a.summary.cost, b.summary.cost);
  ASSERT_EQ(a.routes.size(), b.routes.size());
  for (std::size_t r = 0; r < a.routes.size(); ++r) {
    ASSERT_EQ(a.routes[r].steps.size(), b.routes[r].steps.size());
    for (std::size_t k = 0; k < a.routes[r].steps.size(); ++k)
      EXPECT_EQ(a.routes[r].steps[k].id, b.routes[r].steps[k].id);
  }
}

TEST(CpuBackend, TimeLimitedSearchWithThreads) {
  // The search stops on its own under a time limit and returns a complete, valid solution
  // (no assertion on wall-clock time: CI machines are loaded).
  const auto problem = Problem::create(ring_spec(60, 20, 6));
  SolveOptions options;
  options.time_limit_s = 0.3;
  options.threads = 2;
  const Solution s = solve_and_validate(*problem, options);
  EXPECT_TRUE(s.unassigned.empty());
}

TEST(CpuBackend, OptimalOnASmallRing) {
  // Ten jobs on a circle around the depot, one vehicle: the optimum visits them in circle order.
  std::vector<std::pair<double, double>> pts{{0, 0}};
  for (int i = 0; i < 10; ++i)
    pts.emplace_back(100 * std::cos(i * 0.6283), 100 * std::sin(i * 0.6283));
  auto spec = points_spec(pts);
  for (std::size_t i = 1; i <= 10; ++i) spec.jobs.push_back(make_job(i, i, 1));
  spec.vehicles.push_back(make_vehicle(1, 0, 100));
  const auto problem = Problem::create(spec);
  const Solution s = solve_and_validate(*problem);
  Cost ring = 0;
  for (std::size_t i = 1; i < 10; ++i) ring += problem->travel(0).cost(i, i + 1);
  ring += problem->travel(0).cost(0, 1) + problem->travel(0).cost(10, 0);
  EXPECT_EQ(s.summary.cost, ring);
}

TEST(CpuBackend, VehiclesThenCostObjective) {
  auto spec = ring_spec(30, 10, 8);
  const auto problem = Problem::create(spec);
  SolveOptions options;
  options.objective = Objective::VehiclesThenCost;
  const Solution s = solve_and_validate(*problem, options);
  EXPECT_TRUE(s.unassigned.empty());
  EXPECT_EQ(s.summary.routes, 4u);
}

TEST(CpuBackend, StopFlagReturnsAValidSolution) {
  const auto problem = Problem::create(ring_spec(30, 10, 8));
  std::atomic<bool> stop{true};
  SolveOptions options;
  options.stop = &stop;
  const Solution s = solve_and_validate(*problem, options);
  EXPECT_EQ(s.unassigned.size(), 30u);
  for (const Unassigned& u : s.unassigned) EXPECT_EQ(u.reason, UnassignedReason::NotRouted);
}

TEST(CpuBackend, TimeUsedBeforeTheSolveLeavesTheConstructionOnly) {
  // The caller spent the whole limit (reading, matrices): the construction still completes,
  // at the regret size and at the size of the greedy construction, and no search runs.
  for (const std::size_t customers : {30u, 1600u}) {
    const auto problem = Problem::create(ring_spec(customers, customers / 4, 8));
    SolveOptions options;
    options.time_limit_s = 5.0;
    options.time_used_s = 10.0;
    const Solution s = solve_and_validate(*problem, options);
    EXPECT_TRUE(s.unassigned.empty()) << customers;
    EXPECT_EQ(s.iterations, 0u) << customers;
  }
}

TEST(CpuBackend, ReportsProgress) {
  const auto problem = Problem::create(ring_spec(30, 10, 8));
  int calls = 0;
  SolveOptions options;
  options.on_progress = [&](const Progress& p) {
    ++calls;
    EXPECT_GE(p.fraction, 0.0);
    EXPECT_LE(p.fraction, 1.0);
  };
  solve_and_validate(*problem, options);
  EXPECT_GE(calls, 2);
}

}  // namespace
}  // namespace routesolve::test
