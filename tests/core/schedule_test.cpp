// schedule_route / schedule_plan on hand-computed examples. Locations lie on a line: travel
// between i and j takes 10 * |i - j| and covers 100 * |i - j| (see spec_builders.hpp).

#include <gtest/gtest.h>

#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"
#include "spec_builders.hpp"

namespace routesolve {
namespace {

using test::break_spec;
using test::job;
using test::line_spec;
using test::shipment;
using test::vehicle;

/// A line of 6 locations, one vehicle at 0 (start and end) and jobs at the given locations.
ProblemSpec jobs_at(const std::vector<std::size_t>& locations, Duration service = 0) {
  ProblemSpec spec = line_spec(6);
  for (std::size_t i = 0; i < locations.size(); ++i)
    spec.jobs.push_back(job(i + 1, locations[i], service));
  spec.vehicles.push_back(vehicle(1, 0, 0));
  return spec;
}

ScheduleResult run(const ProblemSpec& spec, const std::vector<std::size_t>& tasks,
                   std::size_t v = 0) {
  const auto p = Problem::create(spec);
  return schedule_route(*p, v, tasks);
}

std::vector<StepType> types(const Route& r) {
  std::vector<StepType> t;
  for (const Step& s : r.steps) t.push_back(s.type);
  return t;
}

std::vector<Duration> arrivals(const Route& r) {
  std::vector<Duration> t;
  for (const Step& s : r.steps) t.push_back(s.arrival);
  return t;
}

TEST(Schedule, SimpleClosedRoute) {
  const auto r = run(jobs_at({1, 3}, 5), {0, 1});
  ASSERT_TRUE(r.feasible);
  EXPECT_FALSE(r.violation.has_value());
  const Route& route = r.route;
  EXPECT_EQ(route.vehicle, 0u);
  EXPECT_EQ(route.vehicle_id, 1u);
  EXPECT_EQ(types(route),
            (std::vector<StepType>{StepType::Start, StepType::Job, StepType::Job, StepType::End}));
  EXPECT_EQ(arrivals(route), (std::vector<Duration>{0, 10, 35, 70}));
  EXPECT_EQ(route.steps[1].duration, 10);
  EXPECT_EQ(route.steps[1].distance, 100);
  EXPECT_EQ(route.steps[2].duration, 30);
  EXPECT_EQ(route.steps[2].distance, 300);
  EXPECT_EQ(route.steps[3].duration, 60);
  EXPECT_EQ(route.steps[3].distance, 600);
  EXPECT_EQ(route.steps[1].id, 1u);
  EXPECT_EQ(route.steps[2].task, 1u);
  EXPECT_EQ(route.steps[2].location, 3u);
  EXPECT_EQ(route.steps[0].location, 0u);
  EXPECT_EQ(route.duration, 60);
  EXPECT_EQ(route.distance, 600);
  EXPECT_EQ(route.service, 10);
  EXPECT_EQ(route.setup, 0);
  EXPECT_EQ(route.waiting_time, 0);
  EXPECT_EQ(route.cost, 60);
  EXPECT_EQ(route.priority, 0);
}

TEST(Schedule, EmptyRouteIsFeasible) {
  const auto r = run(jobs_at({1}), {});
  EXPECT_TRUE(r.feasible);
  EXPECT_TRUE(r.route.steps.empty());
  EXPECT_EQ(r.route.cost, 0);
}

TEST(Schedule, FixedCostIsCharged) {
  ProblemSpec spec = jobs_at({1, 3});
  spec.vehicles[0].costs.fixed = 100;
  const auto r = run(spec, {0, 1});
  ASSERT_TRUE(r.feasible);
  EXPECT_EQ(r.route.cost, 160);
}

TEST(Schedule, WaitsForTheTimeWindow) {
  ProblemSpec spec = jobs_at({2}, 4);
  spec.jobs[0].time_windows = {{50, 60}};
  const auto r = run(spec, {0});
  ASSERT_TRUE(r.feasible);
  const Step& s = r.route.steps[1];
  EXPECT_EQ(s.arrival, 20);
  EXPECT_EQ(s.waiting_time, 30);
  EXPECT_EQ(r.route.steps[2].arrival, 74);  // 50 + 4 + 20
  EXPECT_EQ(r.route.waiting_time, 30);
  EXPECT_EQ(r.route.duration, 40);
}

TEST(Schedule, LateArrivalMissesTheWindow) {
  ProblemSpec spec = jobs_at({2});
  spec.jobs[0].time_windows = {{0, 19}};
  const auto r = run(spec, {0});
  EXPECT_FALSE(r.feasible);
  EXPECT_EQ(r.violation, UnassignedReason::TimeWindow);
  spec.jobs[0].time_windows = {{0, 20}};  // the window bounds the start of the work
  EXPECT_TRUE(run(spec, {0}).feasible);
}

TEST(Schedule, PicksTheFirstReachableWindow) {
  ProblemSpec spec = jobs_at({1}, 2);
  spec.jobs[0].time_windows = {{50, 60}, {0, 5}, {20, 30}};
  auto r = run(spec, {0});
  ASSERT_TRUE(r.feasible);
  EXPECT_EQ(r.route.steps[1].arrival + r.route.steps[1].waiting_time, 20);

  spec.vehicles[0].time_window = {25, 1000};  // arrives at 35: waits for [50, 60]
  r = run(spec, {0});
  ASSERT_TRUE(r.feasible);
  EXPECT_EQ(r.route.steps[1].arrival, 35);
  EXPECT_EQ(r.route.steps[1].waiting_time, 15);
  EXPECT_EQ(r.route.steps[0].arrival, 25);

  spec.vehicles[0].time_window = {55, 1000};  // arrives at 65: every window is closed
  r = run(spec, {0});
  EXPECT_FALSE(r.feasible);
  EXPECT_EQ(r.violation, UnassignedReason::TimeWindow);
}

TEST(Schedule, SetupOnlyWhenTheLocationChanges) {
  ProblemSpec spec = jobs_at({2, 2, 0}, 3);
  for (auto& j : spec.jobs) j.setup = 7;
  const auto r = run(spec, {0, 1, 2});
  ASSERT_TRUE(r.feasible);
  const Route& route = r.route;
  EXPECT_EQ(route.steps[1].setup, 7);
  EXPECT_EQ(route.steps[2].setup, 0);
  EXPECT_EQ(route.steps[2].arrival, 30);  // 20 + 7 + 3
  EXPECT_EQ(route.steps[3].setup, 7);     // back at 0, from 2
  EXPECT_EQ(route.steps[3].arrival, 53);  // 30 + 3 + 20
  EXPECT_EQ(route.steps[4].arrival, 63);  // end at 0: no travel
  EXPECT_EQ(route.setup, 14);
  EXPECT_EQ(route.service, 9);

  // A job at the start location needs no setup.
  ProblemSpec spec2 = jobs_at({0}, 3);
  spec2.jobs[0].setup = 7;
  const auto r2 = run(spec2, {0});
  ASSERT_TRUE(r2.feasible);
  EXPECT_EQ(r2.route.steps[1].setup, 0);
}

TEST(Schedule, CapacityWithJobDeliveriesAndPickups) {
  ProblemSpec spec = jobs_at({1, 2, 3});
  spec.vehicles[0].capacity = {10};
  spec.jobs[0].delivery = {6};
  spec.jobs[1].pickup = {5};
  spec.jobs[2].delivery = {4};
  auto r = run(spec, {0, 1, 2});
  ASSERT_TRUE(r.feasible);
  EXPECT_EQ(r.route.steps[0].load, (Amount{10}));
  EXPECT_EQ(r.route.steps[1].load, (Amount{4}));
  EXPECT_EQ(r.route.steps[2].load, (Amount{9}));
  EXPECT_EQ(r.route.steps[3].load, (Amount{5}));
  EXPECT_EQ(r.route.steps[4].load, (Amount{5}));
  EXPECT_EQ(r.route.delivery, (Amount{10}));
  EXPECT_EQ(r.route.pickup, (Amount{5}));

  r = run(spec, {1, 0, 2});  // 10 on board, +5 first: 15
  EXPECT_FALSE(r.feasible);
  EXPECT_EQ(r.violation, UnassignedReason::Capacity);

  spec.jobs[0].delivery = {7};  // 11 at the start
  r = run(spec, {0, 2});
  EXPECT_FALSE(r.feasible);
  EXPECT_EQ(r.violation, UnassignedReason::Capacity);
}

TEST(Schedule, CapacityIsCheckedInEveryDimension) {
  ProblemSpec spec = jobs_at({1, 2});
  spec.vehicles[0].capacity = {10, 1};
  spec.jobs[0].pickup = {1, 1};
  spec.jobs[1].pickup = {1, 1};
  const auto r = run(spec, {0, 1});
  EXPECT_FALSE(r.feasible);
  EXPECT_EQ(r.violation, UnassignedReason::Capacity);
}

TEST(Schedule, ShipmentsCarryTheirAmount) {
  ProblemSpec spec = jobs_at({3});
  spec.jobs[0].delivery = {3};
  spec.shipments.push_back(shipment(1, 1, 2, {8}));
  spec.vehicles[0].capacity = {10};
  // tasks: 0 = job, 1 = pickup, 2 = delivery
  auto r = run(spec, {0, 1, 2});
  ASSERT_TRUE(r.feasible);
  EXPECT_EQ(types(r.route), (std::vector<StepType>{StepType::Start, StepType::Job, StepType::Pickup,
                                                   StepType::Delivery, StepType::End}));
  EXPECT_EQ(r.route.steps[0].load, (Amount{3}));
  EXPECT_EQ(r.route.steps[1].load, (Amount{0}));
  EXPECT_EQ(r.route.steps[2].load, (Amount{8}));
  EXPECT_EQ(r.route.steps[3].load, (Amount{0}));
  EXPECT_EQ(r.route.delivery, (Amount{11}));
  EXPECT_EQ(r.route.pickup, (Amount{8}));

  r = run(spec, {1, 0, 2});  // 3 + 8 on board
  EXPECT_FALSE(r.feasible);
  EXPECT_EQ(r.violation, UnassignedReason::Capacity);
}

TEST(Schedule, ShipmentsNeedBothHalvesInOrder) {
  ProblemSpec spec = jobs_at({3});
  spec.shipments.push_back(shipment(1, 1, 2));
  EXPECT_TRUE(run(spec, {1, 0, 2}).feasible);
  EXPECT_FALSE(run(spec, {2, 1}).feasible);
  EXPECT_FALSE(run(spec, {0, 1}).feasible);
  EXPECT_FALSE(run(spec, {2}).feasible);
  EXPECT_FALSE(run(spec, {0, 0}).feasible);  // a task twice
}

TEST(Schedule, SkillsMustMatch) {
  ProblemSpec spec = jobs_at({1, 2});
  spec.jobs[1].skills = {4};
  const auto r = run(spec, {0, 1});
  EXPECT_FALSE(r.feasible);
  EXPECT_EQ(r.violation, UnassignedReason::NoCompatibleVehicle);
  spec.vehicles[0].skills = {4, 5};
  EXPECT_TRUE(run(spec, {0, 1}).feasible);
}

TEST(Schedule, OpenRouteWithoutStart) {
  ProblemSpec spec = jobs_at({2, 1}, 1);
  spec.vehicles[0] = vehicle(1, std::nullopt, 0);
  spec.jobs[0].setup = 5;
  const auto r = run(spec, {0, 1});
  ASSERT_TRUE(r.feasible);
  EXPECT_EQ(types(r.route), (std::vector<StepType>{StepType::Job, StepType::Job, StepType::End}));
  EXPECT_EQ(r.route.steps[0].arrival, 0);
  EXPECT_EQ(r.route.steps[0].setup, 5);  // first task of a route without start
  EXPECT_EQ(r.route.steps[0].duration, 0);
  EXPECT_EQ(r.route.steps[1].arrival, 16);
  EXPECT_EQ(r.route.steps[2].arrival, 27);
  EXPECT_EQ(r.route.duration, 20);
  EXPECT_EQ(r.route.distance, 200);
}

TEST(Schedule, OpenRouteWithoutEnd) {
  ProblemSpec spec = jobs_at({1, 3}, 2);
  spec.vehicles[0] = vehicle(1, 0, std::nullopt);
  spec.vehicles[0].time_window = {0, 34};  // last service ends at 32 + 2
  auto r = run(spec, {0, 1});
  ASSERT_TRUE(r.feasible);
  EXPECT_EQ(types(r.route), (std::vector<StepType>{StepType::Start, StepType::Job, StepType::Job}));
  EXPECT_EQ(r.route.duration, 30);
  EXPECT_EQ(r.route.cost, 30);
  spec.vehicles[0].time_window = {0, 33};
  r = run(spec, {0, 1});
  EXPECT_FALSE(r.feasible);
  EXPECT_EQ(r.violation, UnassignedReason::TimeWindow);
}

TEST(Schedule, VehicleTimeWindowBoundsTheReturn) {
  ProblemSpec spec = jobs_at({1, 3});
  spec.vehicles[0].time_window = {0, 60};
  EXPECT_TRUE(run(spec, {0, 1}).feasible);
  spec.vehicles[0].time_window = {0, 59};
  const auto r = run(spec, {0, 1});
  EXPECT_FALSE(r.feasible);
  EXPECT_EQ(r.violation, UnassignedReason::TimeWindow);
}

TEST(Schedule, MaxTasks) {
  ProblemSpec spec = jobs_at({1, 2, 3});
  spec.vehicles[0].max_tasks = 2;
  EXPECT_TRUE(run(spec, {0, 1}).feasible);
  const auto r = run(spec, {0, 1, 2});
  EXPECT_FALSE(r.feasible);
  EXPECT_EQ(r.violation, UnassignedReason::MaxTasks);
}

TEST(Schedule, MaxTravelTimeAndDistance) {
  ProblemSpec spec = jobs_at({1, 3});
  spec.vehicles[0].max_travel_time = 60;
  spec.vehicles[0].max_distance = 600;
  EXPECT_TRUE(run(spec, {0, 1}).feasible);
  spec.vehicles[0].max_travel_time = 59;
  auto r = run(spec, {0, 1});
  EXPECT_FALSE(r.feasible);
  EXPECT_EQ(r.violation, UnassignedReason::MaxTravelTime);
  spec.vehicles[0].max_travel_time.reset();
  spec.vehicles[0].max_distance = 599;
  r = run(spec, {0, 1});
  EXPECT_FALSE(r.feasible);
  EXPECT_EQ(r.violation, UnassignedReason::MaxDistance);
}

TEST(Schedule, UnreachableArc) {
  ProblemSpec spec = jobs_at({1, 3});
  spec.matrices["car"].durations(1, 3) = kUnreachable;
  auto r = run(spec, {0, 1});
  EXPECT_FALSE(r.feasible);
  EXPECT_EQ(r.violation, UnassignedReason::Unreachable);
  EXPECT_TRUE(run(spec, {1, 0}).feasible);
}

TEST(Schedule, SpeedFactorShortensTravel) {
  ProblemSpec spec = jobs_at({1, 3});
  spec.vehicles[0].speed_factor = 2.0;
  const auto r = run(spec, {0, 1});
  ASSERT_TRUE(r.feasible);
  EXPECT_EQ(arrivals(r.route), (std::vector<Duration>{0, 5, 15, 30}));
  EXPECT_EQ(r.route.distance, 600);
  EXPECT_EQ(r.route.cost, 30);
}

TEST(Schedule, BreakBeforeTheFirstTask) {
  ProblemSpec spec = jobs_at({1});
  spec.vehicles[0].breaks = {break_spec(9, 5, {{0, 5}})};
  const auto r = run(spec, {0});
  ASSERT_TRUE(r.feasible);
  EXPECT_EQ(types(r.route), (std::vector<StepType>{StepType::Start, StepType::Break, StepType::Job,
                                                   StepType::End}));
  const Step& b = r.route.steps[1];
  EXPECT_EQ(b.id, 9u);
  EXPECT_EQ(b.location, kNone);
  EXPECT_EQ(b.arrival, 0);
  EXPECT_EQ(b.service, 5);
  EXPECT_EQ(r.route.steps[2].arrival, 15);
  EXPECT_EQ(r.route.steps[3].arrival, 25);
  EXPECT_EQ(r.route.service, 5);  // break service counts, as in VROOM
}

TEST(Schedule, BreakBetweenTasksIsTakenEnRoute) {
  // Job 1 left at 10; the window opens at 12, so the vehicle drives 2 of the 20 units towards
  // job 2, stops at 12 and drives the other 18 after the break (VROOM's model).
  ProblemSpec spec = jobs_at({1, 3});
  spec.vehicles[0].breaks = {break_spec(9, 5, {{12, 14}})};
  const auto r = run(spec, {0, 1});
  ASSERT_TRUE(r.feasible);
  EXPECT_EQ(types(r.route), (std::vector<StepType>{StepType::Start, StepType::Job, StepType::Break,
                                                   StepType::Job, StepType::End}));
  const Step& b = r.route.steps[2];
  EXPECT_EQ(b.arrival, 12);
  EXPECT_EQ(b.waiting_time, 0);
  EXPECT_EQ(b.duration, 12);
  EXPECT_EQ(b.distance, 120);  // 100 + 2/20 of the leg's 200
  EXPECT_EQ(r.route.steps[3].arrival, 35);
  EXPECT_EQ(r.route.steps[3].duration, 30);
  EXPECT_EQ(r.route.steps[4].arrival, 65);
  EXPECT_EQ(r.route.waiting_time, 0);
  EXPECT_EQ(r.route.duration, 60);
  EXPECT_EQ(r.route.distance, 600);
}

TEST(Schedule, BreakWindowOpeningAfterTheLegWaitsAtTheNextStop) {
  // One job at 3, window [50, 60]: driving the whole leg (30) does not reach the window, so the
  // vehicle waits 20 at the job's location before the break, then serves the job at 55.
  ProblemSpec spec = jobs_at({3});
  spec.vehicles[0].end.reset();
  spec.vehicles[0].breaks = {break_spec(9, 5, {{50, 60}})};
  RoutePlan plan;
  plan.visits = {{true, 0}, {false, 0}};
  const auto p = Problem::create(spec);
  const auto r = schedule_plan(*p, plan);
  ASSERT_TRUE(r.feasible);
  const Step& b = r.route.steps[1];
  EXPECT_EQ(b.type, StepType::Break);
  EXPECT_EQ(b.arrival, 30);
  EXPECT_EQ(b.waiting_time, 20);
  EXPECT_EQ(b.duration, 30);
  EXPECT_EQ(b.distance, 300);
  EXPECT_EQ(r.route.steps[2].arrival, 55);
  EXPECT_EQ(r.route.steps[2].waiting_time, 0);
  EXPECT_EQ(r.route.waiting_time, 20);
}

TEST(Schedule, BreakOnTheWayBackShortensTheDay) {
  // Window [40, 50]: taken on the leg after job 2 (left at 30), 10 units into the 30-unit drive
  // home, the day ends at 65; on the leg before job 2 it would end at 75.
  ProblemSpec spec = jobs_at({1, 3});
  spec.vehicles[0].breaks = {break_spec(9, 5, {{40, 50}})};
  const auto r = run(spec, {0, 1});
  ASSERT_TRUE(r.feasible);
  EXPECT_EQ(types(r.route), (std::vector<StepType>{StepType::Start, StepType::Job, StepType::Job,
                                                   StepType::Break, StepType::End}));
  const Step& b = r.route.steps[3];
  EXPECT_EQ(b.arrival, 40);
  EXPECT_EQ(b.waiting_time, 0);
  EXPECT_EQ(b.duration, 40);
  EXPECT_EQ(b.distance, 400);
  EXPECT_EQ(r.route.steps[4].arrival, 65);
  EXPECT_EQ(r.route.steps[4].duration, 60);
}

TEST(Schedule, TwoBreaksOnOneLeg) {
  // A leg of 300 distance driven at speed 3 (10 units): a break 1 unit into it counts 30 of
  // distance, and the second break counts its own share from where the first ended.
  ProblemSpec spec = jobs_at({3});
  spec.vehicles[0].speed_factor = 3.0;
  spec.vehicles[0].end.reset();
  spec.vehicles[0].breaks = {break_spec(1, 2, {{1, 1}}), break_spec(2, 2, {{4, 9}})};
  const auto r = run(spec, {0});
  ASSERT_TRUE(r.feasible);
  ASSERT_EQ(types(r.route), (std::vector<StepType>{StepType::Start, StepType::Break,
                                                   StepType::Break, StepType::Job}));
  EXPECT_EQ(r.route.steps[1].arrival, 1);
  EXPECT_EQ(r.route.steps[1].distance, 30);
  EXPECT_EQ(r.route.steps[2].arrival, 4);  // break 1 ends at 3, one more unit of driving
  EXPECT_EQ(r.route.steps[2].duration, 2);
  EXPECT_EQ(r.route.steps[2].distance, 60);
  EXPECT_EQ(r.route.steps[3].arrival, 14);  // break 2 ends at 6, 8 units left
  EXPECT_EQ(r.route.steps[3].distance, 300);
}

TEST(Schedule, BreakAfterTheLastTask) {
  ProblemSpec spec = jobs_at({1, 3});
  spec.vehicles[0].breaks = {break_spec(9, 5, {{30, 40}})};
  const auto r = run(spec, {0, 1});
  ASSERT_TRUE(r.feasible);
  EXPECT_EQ(types(r.route), (std::vector<StepType>{StepType::Start, StepType::Job, StepType::Job,
                                                   StepType::Break, StepType::End}));
  EXPECT_EQ(r.route.steps[3].arrival, 30);
  EXPECT_EQ(r.route.steps[3].duration, 30);
  EXPECT_EQ(r.route.steps[4].arrival, 65);
}

TEST(Schedule, BreakThatCannotFit) {
  ProblemSpec spec = jobs_at({1, 3});
  spec.vehicles[0].time_window = {0, 90};
  spec.vehicles[0].breaks = {break_spec(9, 5, {{100, 110}})};
  const auto r = run(spec, {0, 1});
  EXPECT_FALSE(r.feasible);
  EXPECT_EQ(r.violation, UnassignedReason::Break);
}

TEST(Schedule, BreakMaxLoadDecidesThePlace) {
  ProblemSpec spec = jobs_at({1, 3});
  spec.vehicles[0].capacity = {10};
  spec.jobs[0].delivery = {5};
  spec.jobs[1].pickup = {5};
  spec.vehicles[0].breaks = {break_spec(9, 5)};
  spec.vehicles[0].breaks[0].max_load = Amount{0};
  auto r = run(spec, {0, 1});
  ASSERT_TRUE(r.feasible);
  EXPECT_EQ(r.route.steps[2].type, StepType::Break);
  EXPECT_EQ(r.route.steps[2].load, (Amount{0}));

  spec.jobs[1].pickup = {0};
  spec.jobs[1].delivery = {1};  // loaded everywhere but after the last task
  r = run(spec, {0, 1});
  ASSERT_TRUE(r.feasible);
  EXPECT_EQ(r.route.steps[3].type, StepType::Break);

  spec.jobs[1].pickup = {1};  // never empty
  r = run(spec, {0, 1});
  EXPECT_FALSE(r.feasible);
  EXPECT_EQ(r.violation, UnassignedReason::Break);
}

TEST(Schedule, SeveralBreaksInOrder) {
  ProblemSpec spec = jobs_at({1, 2, 3});
  spec.vehicles[0].breaks = {break_spec(1, 3, {{0, 0}}), break_spec(2, 4, {{20, 25}})};
  const auto r = run(spec, {0, 1, 2});
  ASSERT_TRUE(r.feasible);
  // break 1 at 0..3, job@1 at 13, job@2 at 23, break 2 at 23..27, job@3 at 37, end at 67.
  EXPECT_EQ(types(r.route),
            (std::vector<StepType>{StepType::Start, StepType::Break, StepType::Job, StepType::Job,
                                   StepType::Break, StepType::Job, StepType::End}));
  EXPECT_EQ(arrivals(r.route), (std::vector<Duration>{0, 0, 13, 23, 23, 37, 67}));
  EXPECT_EQ(r.route.steps[4].id, 2u);
}

TEST(Schedule, BreaksOnAnEmptyRoute) {
  ProblemSpec spec = jobs_at({1});
  spec.vehicles[0].breaks = {break_spec(1, 3)};
  EXPECT_TRUE(run(spec, {}).feasible);
}

TEST(Schedule, PlanWithFixedBreaks) {
  ProblemSpec spec = jobs_at({1, 3});
  spec.vehicles[0].breaks = {break_spec(9, 5, {{0, 100}})};
  const auto p = Problem::create(spec);
  RoutePlan plan;
  plan.vehicle = 0;
  plan.visits = {{false, 0}, {false, 1}, {true, 0}};
  auto r = schedule_plan(*p, plan);
  ASSERT_TRUE(r.feasible);
  EXPECT_EQ(types(r.route), (std::vector<StepType>{StepType::Start, StepType::Job, StepType::Job,
                                                   StepType::Break, StepType::End}));
  EXPECT_EQ(r.route.steps[4].arrival, 65);

  plan.visits = {{true, 0}, {false, 0}, {false, 1}};
  r = schedule_plan(*p, plan);
  ASSERT_TRUE(r.feasible);
  EXPECT_EQ(r.route.steps[1].type, StepType::Break);
  EXPECT_EQ(r.route.steps[2].arrival, 15);

  plan.visits = {{false, 0}, {false, 1}};  // breaks left to the scheduler
  r = schedule_plan(*p, plan);
  ASSERT_TRUE(r.feasible);
  EXPECT_EQ(r.route.steps.size(), 5u);

  plan.visits = {{true, 0}, {false, 0}, {true, 0}};  // a break twice
  r = schedule_plan(*p, plan);
  EXPECT_FALSE(r.feasible);
  EXPECT_EQ(r.violation, UnassignedReason::Break);
}

TEST(Schedule, PlanBreakOutsideItsWindow) {
  ProblemSpec spec = jobs_at({1, 3});
  spec.vehicles[0].breaks = {break_spec(9, 5, {{0, 20}})};
  const auto p = Problem::create(spec);
  RoutePlan plan;
  plan.visits = {{false, 0}, {false, 1}, {true, 0}};  // break at 30: too late
  auto r = schedule_plan(*p, plan);
  EXPECT_FALSE(r.feasible);
  EXPECT_EQ(r.violation, UnassignedReason::Break);

  // A break that pushes a task out of its window is reported as a break problem.
  ProblemSpec spec2 = jobs_at({1});
  spec2.jobs[0].time_windows = {{0, 10}};
  spec2.vehicles[0].breaks = {break_spec(9, 5)};
  const auto p2 = Problem::create(spec2);
  plan.visits = {{true, 0}, {false, 0}};
  r = schedule_plan(*p2, plan);
  EXPECT_FALSE(r.feasible);
  EXPECT_EQ(r.violation, UnassignedReason::Break);
}

TEST(Schedule, PrioritiesAreSummed) {
  ProblemSpec spec = jobs_at({1, 2});
  spec.jobs[0].priority = 10;
  spec.jobs[1].priority = 32;
  const auto r = run(spec, {0, 1});
  ASSERT_TRUE(r.feasible);
  EXPECT_EQ(r.route.priority, 42);
}

}  // namespace
}  // namespace routesolve
