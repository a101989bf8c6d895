#include "routesolve/problem.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "routesolve/error.hpp"
#include "spec_builders.hpp"

namespace routesolve {
namespace {

using test::at;
using test::job;
using test::line_spec;
using test::shipment;
using test::vehicle;

ProblemSpec valid_spec() {
  ProblemSpec spec = line_spec(5);
  spec.jobs.push_back(job(1, 1));
  spec.jobs.push_back(job(2, 2));
  spec.shipments.push_back(shipment(7, 3, 4));
  spec.vehicles.push_back(vehicle(10, 0, 0));
  return spec;
}

/// Expects Problem::create to reject the spec with a message naming `path`.
void expect_invalid(const ProblemSpec& spec, const std::string& path) {
  try {
    Problem::create(spec);
    ADD_FAILURE() << "accepted; expected an error at " << path;
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidInput) << e.what();
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos)
        << "message: " << e.what() << "\nexpected path: " << path;
  }
}

void expect_invalid(const std::function<void(ProblemSpec&)>& edit, const std::string& path) {
  ProblemSpec spec = valid_spec();
  edit(spec);
  expect_invalid(spec, path);
}

TEST(Problem, IndexesTasksVehiclesAndIds) {
  ProblemSpec spec = valid_spec();
  spec.jobs[0].skills = {3, 1, 3};
  spec.vehicles[0].skills = {3, 2, 1, 1};
  spec.jobs[1].time_windows = {{50, 60}, {0, 10}, {5, 20}};
  const auto p = Problem::create(spec);
  ASSERT_EQ(p->tasks().size(), 4u);
  EXPECT_EQ(p->task(0).type, TaskType::Job);
  EXPECT_EQ(p->task(2).type, TaskType::Pickup);
  EXPECT_EQ(p->task(3).type, TaskType::Delivery);
  EXPECT_EQ(p->task(2).sibling, 3u);
  EXPECT_EQ(p->task(3).sibling, 2u);
  EXPECT_EQ(p->task(0).sibling, kNone);
  EXPECT_EQ(p->task(3).source_index, 0u);
  EXPECT_EQ(p->task(0).skills, (std::vector<std::uint32_t>{1, 3}));
  EXPECT_EQ(p->vehicle(0).skills, (std::vector<std::uint32_t>{1, 2, 3}));
  EXPECT_EQ(p->task(1).time_windows, (std::vector<TimeWindow>{{0, 20}, {50, 60}}));
  EXPECT_EQ(p->task(0).time_windows, (std::vector<TimeWindow>{{0, kMaxTime}}));
  EXPECT_EQ(p->find_task(TaskType::Job, 2), 1u);
  EXPECT_EQ(p->find_task(TaskType::Pickup, 7), 2u);
  EXPECT_EQ(p->find_task(TaskType::Delivery, 7), 3u);
  EXPECT_EQ(p->find_task(TaskType::Job, 7), kNone);
  EXPECT_EQ(p->find_vehicle(10), 0u);
  EXPECT_EQ(p->find_vehicle(11), kNone);
  EXPECT_EQ(p->dimensions(), 0u);
  EXPECT_EQ(p->locations(), 5u);
  EXPECT_TRUE(p->has_distances());
  EXPECT_TRUE(p->compatible(0, 0));
}

TEST(Problem, SkillsDecideCompatibility) {
  ProblemSpec spec = valid_spec();
  spec.jobs[0].skills = {1, 2};
  spec.shipments[0].skills = {5};
  spec.vehicles.push_back(vehicle(11, 0, 0));
  spec.vehicles[0].skills = {1};
  spec.vehicles[1].skills = {1, 2, 5};
  const auto p = Problem::create(spec);
  EXPECT_FALSE(p->compatible(0, 0));
  EXPECT_TRUE(p->compatible(0, 1));
  EXPECT_FALSE(p->compatible(0, 2));
  EXPECT_TRUE(p->compatible(1, 0));
  EXPECT_TRUE(p->compatible(1, 3));
}

TEST(Problem, AmountsAreFilledToTheDimensions) {
  ProblemSpec spec = valid_spec();
  spec.jobs[0].delivery = {1, 2};
  spec.shipments[0].amount = {3, 4};
  const auto p = Problem::create(spec);
  EXPECT_EQ(p->dimensions(), 2u);
  EXPECT_EQ(p->task(0).delivery, (Amount{1, 2}));
  EXPECT_EQ(p->task(0).pickup, (Amount{0, 0}));
  EXPECT_EQ(p->task(1).delivery, (Amount{0, 0}));
  EXPECT_EQ(p->task(2).pickup, (Amount{3, 4}));
  EXPECT_EQ(p->task(2).delivery, (Amount{0, 0}));
  EXPECT_EQ(p->task(3).delivery, (Amount{3, 4}));
  EXPECT_EQ(p->vehicle(0).capacity, (Amount{kMaxTime, kMaxTime}));
}

TEST(Problem, ErrorMessagesCarryTheSource) {
  ProblemSpec spec = valid_spec();
  spec.source = "fleet.json";
  spec.jobs[1].time_windows = {{50, 10}};
  try {
    Problem::create(spec);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "fleet.json: jobs[1].time_windows[0]: start 50 is after end 10");
  }
  spec.source.clear();
  try {
    Problem::create(spec);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "jobs[1].time_windows[0]: start 50 is after end 10");
  }
}

TEST(Problem, RejectsStructuralErrors) {
  expect_invalid([](ProblemSpec& s) { s.vehicles.clear(); }, "vehicles");
  expect_invalid([](ProblemSpec& s) { s.jobs[1].id = 1; }, "jobs[1].id");
  expect_invalid([](ProblemSpec& s) { s.shipments.push_back(shipment(7, 1, 2)); },
                 "shipments[1].pickup.id");
  expect_invalid(
      [](ProblemSpec& s) {
        s.shipments.push_back(shipment(8, 1, 2));
        s.shipments[1].delivery.id = 7;
      },
      "shipments[1].delivery.id");
  expect_invalid([](ProblemSpec& s) { s.vehicles.push_back(vehicle(10, 1, 1)); }, "vehicles[1].id");
  expect_invalid(
      [](ProblemSpec& s) {
        s.vehicles[0].breaks = {test::break_spec(1, 5), test::break_spec(1, 5)};
      },
      "vehicles[0].breaks[1].id");
  expect_invalid(
      [](ProblemSpec& s) { s.vehicles.push_back(vehicle(11, std::nullopt, std::nullopt)); },
      "vehicles[1]");
}

TEST(Problem, AcceptsEqualIdsAcrossKinds) {
  ProblemSpec spec = valid_spec();
  spec.jobs[0].id = 7;  // a job, a pickup and a delivery may share an id
  spec.vehicles[0].breaks = {test::break_spec(7, 5)};
  spec.vehicles.push_back(vehicle(11, 0, std::nullopt));
  spec.vehicles[1].breaks = {test::break_spec(7, 5)};
  EXPECT_NO_THROW(Problem::create(spec));
}

TEST(Problem, RejectsInconsistentDimensions) {
  expect_invalid(
      [](ProblemSpec& s) {
        s.jobs[0].delivery = {1, 2};
        s.jobs[1].pickup = {1};
      },
      "jobs[1].pickup");
  expect_invalid(
      [](ProblemSpec& s) {
        s.jobs[0].delivery = {1};
        s.shipments[0].amount = {1, 2};
      },
      "shipments[0].amount");
  expect_invalid(
      [](ProblemSpec& s) {
        s.jobs[0].delivery = {1};
        s.vehicles[0].capacity = {1, 2};
      },
      "vehicles[0].capacity");
  expect_invalid(
      [](ProblemSpec& s) {
        s.vehicles[0].capacity = {1, 2};
        s.vehicles[0].breaks = {test::break_spec(1, 5)};
        s.vehicles[0].breaks[0].max_load = Amount{1};
      },
      "vehicles[0].breaks[0].max_load");
}

TEST(Problem, RejectsNegativeValues) {
  expect_invalid([](ProblemSpec& s) { s.jobs[0].delivery = {-1}; }, "jobs[0].delivery");
  expect_invalid([](ProblemSpec& s) { s.jobs[1].pickup = {-1}; }, "jobs[1].pickup");
  expect_invalid([](ProblemSpec& s) { s.shipments[0].amount = {-3}; }, "shipments[0].amount");
  expect_invalid([](ProblemSpec& s) { s.vehicles[0].capacity = {-3}; }, "vehicles[0].capacity");
  expect_invalid([](ProblemSpec& s) { s.jobs[1].service = -1; }, "jobs[1].service");
  expect_invalid([](ProblemSpec& s) { s.jobs[1].setup = -1; }, "jobs[1].setup");
  expect_invalid([](ProblemSpec& s) { s.shipments[0].delivery.service = -1; },
                 "shipments[0].delivery.service");
  expect_invalid([](ProblemSpec& s) { s.shipments[0].pickup.setup = -1; },
                 "shipments[0].pickup.setup");
  expect_invalid([](ProblemSpec& s) { s.jobs[0].priority = 101; }, "jobs[0].priority");
  expect_invalid([](ProblemSpec& s) { s.jobs[0].priority = -1; }, "jobs[0].priority");
  expect_invalid([](ProblemSpec& s) { s.shipments[0].priority = 200; }, "shipments[0].priority");
  expect_invalid([](ProblemSpec& s) { s.vehicles[0].costs.per_hour = -1; },
                 "vehicles[0].costs.per_hour");
  expect_invalid([](ProblemSpec& s) { s.vehicles[0].costs.fixed = -1; }, "vehicles[0].costs.fixed");
  expect_invalid([](ProblemSpec& s) { s.vehicles[0].breaks = {test::break_spec(1, -5)}; },
                 "vehicles[0].breaks[0].service");
}

TEST(Problem, RejectsBadTimeWindows) {
  expect_invalid(
      [](ProblemSpec& s) {
        s.jobs[1].time_windows = {{0, 10}, {30, 20}};
      },
      "jobs[1].time_windows[1]");
  expect_invalid(
      [](ProblemSpec& s) {
        s.shipments[0].delivery.time_windows = {{5, 4}};
      },
      "shipments[0].delivery.time_windows[0]");
  expect_invalid(
      [](ProblemSpec& s) {
        s.vehicles[0].time_window = {100, 50};
      },
      "vehicles[0].time_window");
  expect_invalid(
      [](ProblemSpec& s) {
        s.vehicles[0].breaks = {test::break_spec(1, 5, {{10, 5}})};
      },
      "vehicles[0].breaks[0].time_windows[0]");
}

TEST(Problem, MergesOverlappingWindows) {
  ProblemSpec spec = valid_spec();
  spec.jobs[0].time_windows = {{30, 40}, {0, 10}, {10, 15}, {35, 50}, {60, 70}};
  const auto p = Problem::create(spec);
  EXPECT_EQ(p->task(0).time_windows, (std::vector<TimeWindow>{{0, 15}, {30, 50}, {60, 70}}));
}

TEST(Problem, RejectsBadLocationsAndMatrices) {
  expect_invalid([](ProblemSpec& s) { s.jobs[1].location = at(5); }, "jobs[1].location");
  expect_invalid([](ProblemSpec& s) { s.shipments[0].delivery.location = at(9); },
                 "shipments[0].delivery.location");
  expect_invalid([](ProblemSpec& s) { s.vehicles[0].end = at(5); }, "vehicles[0].end");
  expect_invalid([](ProblemSpec& s) { s.jobs[1].location = LocationSpec{}; }, "jobs[1].location");
  expect_invalid([](ProblemSpec& s) { s.vehicles[0].profile = "bike"; }, "vehicles[0].profile");
  expect_invalid([](ProblemSpec& s) { s.matrices["car"].durations(1, 2) = -4; },
                 "matrices.car.durations");
  expect_invalid([](ProblemSpec& s) { s.matrices["car"].distances = Matrix(4); },
                 "matrices.car.distances");
  expect_invalid([](ProblemSpec& s) { s.matrices["car"].costs = Matrix(6); }, "matrices.car.costs");
  expect_invalid(
      [](ProblemSpec& s) {
        s.matrices["car"].costs = Matrix(5);
        (*s.matrices["car"].costs)(0, 1) = -1;
      },
      "matrices.car.costs");
  expect_invalid([](ProblemSpec& s) { s.matrices["car"].durations = Matrix(); },
                 "matrices.car.durations");
}

TEST(Problem, RejectsBadVehicleLimits) {
  expect_invalid([](ProblemSpec& s) { s.vehicles[0].speed_factor = 0.0; },
                 "vehicles[0].speed_factor");
  expect_invalid([](ProblemSpec& s) { s.vehicles[0].speed_factor = 5.5; },
                 "vehicles[0].speed_factor");
  expect_invalid([](ProblemSpec& s) { s.vehicles[0].speed_factor = -1.0; },
                 "vehicles[0].speed_factor");
  expect_invalid([](ProblemSpec& s) { s.vehicles[0].max_travel_time = -1; },
                 "vehicles[0].max_travel_time");
  expect_invalid([](ProblemSpec& s) { s.vehicles[0].max_distance = -1; },
                 "vehicles[0].max_distance");
  expect_invalid([](ProblemSpec& s) { s.scale.time = 1.5; }, "scale.time");
  expect_invalid([](ProblemSpec& s) { s.scale.distance = 0.0; }, "scale.distance");
  expect_invalid([](ProblemSpec& s) { s.scale.cost = 0.5; }, "scale.cost");
}

TEST(Problem, SpeedFactorDividesDurations) {
  ProblemSpec spec = valid_spec();
  spec.vehicles.push_back(vehicle(11, 0, 0));
  spec.vehicles[1].speed_factor = 3.0;
  spec.matrices["car"].durations(0, 4) = kUnreachable;
  const auto p = Problem::create(spec);
  EXPECT_EQ(p->travel_count(), 2u);
  const TravelView fast = p->travel(1);
  EXPECT_EQ(fast.n, 5u);
  EXPECT_EQ(fast.duration(0, 1), 3);  // 10 / 3 = 3.33
  EXPECT_EQ(fast.duration(0, 2), 7);  // 20 / 3 = 6.67
  EXPECT_EQ(fast.duration(0, 4), kUnreachable);
  EXPECT_EQ(fast.cost(0, 4), kUnreachable);
  EXPECT_EQ(fast.distance(0, 2), 200);
  EXPECT_EQ(p->travel(0).duration(0, 2), 20);
}

TEST(Problem, VehiclesShareTravelData) {
  ProblemSpec spec = valid_spec();
  spec.vehicles.push_back(vehicle(11, 1, 1));
  spec.vehicles.push_back(vehicle(12, 1, 1));
  spec.vehicles[2].costs.per_km = 5;
  const auto p = Problem::create(spec);
  EXPECT_EQ(p->travel_count(), 2u);
  EXPECT_EQ(p->vehicle(0).travel, p->vehicle(1).travel);
  EXPECT_NE(p->vehicle(0).travel, p->vehicle(2).travel);
}

TEST(Problem, DefaultCostsEqualDurations) {
  const auto p = Problem::create(valid_spec());
  EXPECT_EQ(p->cost_scale(), 1.0);
  const TravelView tv = p->travel(0);
  for (std::size_t i = 0; i < tv.n; ++i)
    for (std::size_t j = 0; j < tv.n; ++j) EXPECT_EQ(tv.cost(i, j), tv.duration(i, j));
  EXPECT_EQ(p->fixed_cost(0), 0);
}

TEST(Problem, CostsMatrixIsUsedAsIs) {
  ProblemSpec spec = valid_spec();
  Matrix costs(5);
  for (std::size_t i = 0; i < 5; ++i)
    for (std::size_t j = 0; j < 5; ++j) costs(i, j) = static_cast<std::int64_t>(7 * i + j);
  spec.matrices["car"].costs = costs;
  {
    const auto p = Problem::create(spec);
    EXPECT_EQ(p->cost_scale(), 1.0);
    EXPECT_EQ(p->travel(0).cost(2, 3), 17);
  }
  spec.scale.cost = 1000;
  {
    const auto p = Problem::create(spec);
    EXPECT_EQ(p->cost_scale(), 1000.0);
    EXPECT_EQ(p->travel(0).cost(2, 3), 17);
  }
}

TEST(Problem, MixedCostsStayExactIntegers) {
  ProblemSpec spec = valid_spec();
  spec.vehicles[0].costs = VehicleCosts{100, 3600, 1};  // 100 fixed, 1/s, 1/km
  const auto p = Problem::create(spec);
  // cost = dur + dist / 1000 in output units: internal unit 1/1000.
  EXPECT_EQ(p->cost_scale(), 1000.0);
  EXPECT_EQ(p->travel(0).cost(0, 2), 20 * 1000 + 200);
  EXPECT_EQ(p->fixed_cost(0), 100 * 1000);

  spec.vehicles[0].costs = VehicleCosts{0, 7200, 0};  // 2 per second
  const auto q = Problem::create(spec);
  EXPECT_EQ(q->cost_scale(), 1.0);
  EXPECT_EQ(q->travel(0).cost(0, 2), 40);

  spec.vehicles[0].costs = VehicleCosts{5, 1800, 0};  // 0.5 per second, fixed 5
  const auto r = Problem::create(spec);
  EXPECT_EQ(r->cost_scale(), 2.0);
  EXPECT_EQ(r->travel(0).cost(0, 1), 10);
  EXPECT_EQ(r->fixed_cost(0), 10);
}

TEST(Problem, ScaledUnitsKeepCostsInOutputUnits) {
  ProblemSpec spec = valid_spec();
  spec.scale.time = 10;
  spec.scale.distance = 1000;
  const auto p = Problem::create(spec);
  // Default cost = travel seconds = internal duration / 10.
  EXPECT_EQ(p->travel(0).cost(0, 2) / p->cost_scale(), 2.0);
}

TEST(Problem, MissingDistancesAreZero) {
  ProblemSpec spec = valid_spec();
  spec.matrices["car"].distances = Matrix();
  const auto p = Problem::create(spec);
  EXPECT_FALSE(p->has_distances());
  EXPECT_EQ(p->travel(0).distance(0, 3), 0);
}

TEST(Problem, UnlimitedVehicleDefaults) {
  ProblemSpec spec = valid_spec();
  spec.vehicles[0].max_tasks = 3;
  spec.vehicles[0].max_travel_time = 100;
  const auto p = Problem::create(spec);
  EXPECT_EQ(p->vehicle(0).max_tasks, 3u);
  EXPECT_EQ(p->vehicle(0).max_travel_time, 100);
  EXPECT_EQ(p->vehicle(0).max_distance, kMaxTime);
  EXPECT_EQ(p->vehicle(0).start, 0u);
  EXPECT_EQ(p->profile_names(), (std::vector<std::string>{"car"}));
}

}  // namespace
}  // namespace routesolve
