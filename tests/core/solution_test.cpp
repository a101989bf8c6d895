#include "routesolve/solution.hpp"

#include <gtest/gtest.h>

#include "routesolve/error.hpp"
#include "spec_builders.hpp"

namespace routesolve {
namespace {

TEST(Solution, Names) {
  EXPECT_EQ(to_string(StepType::Start), "start");
  EXPECT_EQ(to_string(StepType::Job), "job");
  EXPECT_EQ(to_string(StepType::Pickup), "pickup");
  EXPECT_EQ(to_string(StepType::Delivery), "delivery");
  EXPECT_EQ(to_string(StepType::Break), "break");
  EXPECT_EQ(to_string(StepType::End), "end");
  EXPECT_EQ(to_string(UnassignedReason::NoCompatibleVehicle), "no_compatible_vehicle");
  EXPECT_EQ(to_string(UnassignedReason::Capacity), "capacity");
  EXPECT_EQ(to_string(UnassignedReason::TimeWindow), "time_window");
  EXPECT_EQ(to_string(UnassignedReason::MaxTasks), "max_tasks");
  EXPECT_EQ(to_string(UnassignedReason::MaxTravelTime), "max_travel_time");
  EXPECT_EQ(to_string(UnassignedReason::MaxDistance), "max_distance");
  EXPECT_EQ(to_string(UnassignedReason::Unreachable), "unreachable");
  EXPECT_EQ(to_string(UnassignedReason::Break), "break");
  EXPECT_EQ(to_string(UnassignedReason::NotRouted), "not_routed");
}

ProblemPtr two_vehicle_problem() {
  ProblemSpec spec = test::line_spec(5);
  for (Id i = 1; i <= 4; ++i) {
    spec.jobs.push_back(test::job(i, static_cast<std::size_t>(i), 2));
    spec.jobs.back().delivery = {1};
    spec.jobs.back().priority = 5;
  }
  spec.vehicles.push_back(test::vehicle(10, 0, 0));
  spec.vehicles.push_back(test::vehicle(20, 4, 4));
  spec.vehicles[1].costs.fixed = 7;
  return Problem::create(spec);
}

TEST(Solution, SummarisesRoutesAndDropsEmptyOnes) {
  const auto p = two_vehicle_problem();
  std::vector<Route> routes;
  routes.push_back(schedule_route(*p, 1, {3}).route);
  routes.push_back(schedule_route(*p, 0, {0, 1}).route);
  routes.push_back(schedule_route(*p, 0, {}).route);
  std::vector<Unassigned> unassigned{{2, 0, TaskType::Job, UnassignedReason::TimeWindow}};
  const Solution sol = make_solution(*p, routes, unassigned);
  ASSERT_EQ(sol.routes.size(), 2u);
  EXPECT_EQ(sol.routes[0].vehicle, 0u);  // in vehicle order
  EXPECT_EQ(sol.routes[1].vehicle, 1u);
  EXPECT_EQ(sol.summary.routes, 2u);
  EXPECT_EQ(sol.summary.unassigned, 1u);
  EXPECT_EQ(sol.unassigned[0].id, 3u);  // filled from the task
  EXPECT_EQ(sol.summary.cost, 40 + (0 + 7));
  EXPECT_EQ(sol.summary.service, 6);
  EXPECT_EQ(sol.summary.duration, 40);
  EXPECT_EQ(sol.summary.distance, 400);
  EXPECT_EQ(sol.summary.delivery, (Amount{3}));
  EXPECT_EQ(sol.summary.pickup, (Amount{0}));
  EXPECT_EQ(sol.summary.priority, 15);
}

TEST(Solution, RejectsInconsistentInput) {
  const auto p = two_vehicle_problem();
  const Route a = schedule_route(*p, 0, {0, 1}).route;
  const Route b = schedule_route(*p, 1, {1}).route;
  EXPECT_THROW(make_solution(*p, {a, b}, {}), Error);  // task twice
  EXPECT_THROW(make_solution(*p, {a}, {{0, 1, TaskType::Job, UnassignedReason::NotRouted}}), Error);
  EXPECT_THROW(make_solution(*p, {a, schedule_route(*p, 0, {2}).route}, {}),
               Error);  // vehicle twice
  try {
    make_solution(*p, {a, b}, {});
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Internal);
  }
  ProblemSpec spec = p->spec();
  spec.jobs[3].time_windows = {{0, 5}};
  const auto q = Problem::create(spec);
  Route late = schedule_route(*p, 0, {3}).route;  // feasible in p, not in q
  EXPECT_THROW(make_solution(*q, {late}, {}), Error);
}

}  // namespace
}  // namespace routesolve
