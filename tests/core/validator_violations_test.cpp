// Validator: one broken copy of the hand-computed solution (validator_fixture.hpp) per violation
// kind, each reported where it happens.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "validator_fixture.hpp"

namespace routesolve {
namespace {

using namespace validator_fixture;

// ---- one test per violation kind ---------------------------------------------------------------

TEST_F(ValidatorTest, UnknownVehicleIndexIsReportedNotCrashed) {
  solution.routes[1].vehicle = 42;
  const ValidationReport report = validate(*problem, solution);
  EXPECT_VIOLATION(report, ViolationKind::UnknownVehicle, "routes[1]");
  // Its task still counts as present.
  EXPECT_FALSE(
      has(report, ViolationKind::MissingTask, "tasks[" + std::to_string(job(*problem, 104)) + "]"));
}

TEST_F(ValidatorTest, UnknownVehicleId) {
  solution.routes[1].vehicle_id = 77;
  const ValidationReport report = validate(*problem, solution);
  EXPECT_VIOLATION(report, ViolationKind::UnknownVehicle, "routes[1]");
  EXPECT_TRUE(only_kind(report, ViolationKind::UnknownVehicle)) << report.to_text();
}

TEST_F(ValidatorTest, DuplicateVehicle) {
  Route extra;
  extra.vehicle = 1;
  extra.vehicle_id = 2;
  extra.steps = {make_step(StepType::End, 0, kNone, 0, 0, 0, 0, 0, 0, 0, 0)};
  solution.routes.push_back(extra);
  const ValidationReport report = validate(*problem, solution, figures_off());
  EXPECT_VIOLATION(report, ViolationKind::DuplicateVehicle, "routes[2]");
  EXPECT_TRUE(only_kind(report, ViolationKind::DuplicateVehicle)) << report.to_text();
}

TEST_F(ValidatorTest, UnknownTaskInRoute) {
  solution.routes[0].steps[2].id = 999;  // index says 103
  EXPECT_VIOLATION(validate(*problem, solution), ViolationKind::UnknownTask, "routes[0].steps[2]");
  solution = fixture_solution(*problem);
  solution.routes[0].steps[2].type = StepType::Pickup;  // 103 is a job
  EXPECT_VIOLATION(validate(*problem, solution), ViolationKind::UnknownTask, "routes[0].steps[2]");
  solution = fixture_solution(*problem);
  solution.routes[0].steps[2].task = 1000;  // out of range
  EXPECT_VIOLATION(validate(*problem, solution), ViolationKind::UnknownTask, "routes[0].steps[2]");
}

TEST_F(ValidatorTest, UnknownTaskInUnassigned) {
  solution.unassigned[0].id = 5;
  EXPECT_VIOLATION(validate(*problem, solution), ViolationKind::UnknownTask, "unassigned[0]");
  solution.unassigned[0] = Unassigned{kNone, 105, TaskType::Job, UnassignedReason::NotRouted};
  EXPECT_VIOLATION(validate(*problem, solution), ViolationKind::UnknownTask, "unassigned[0]");
  solution.unassigned[0] =
      Unassigned{job(*problem, 105), 105, TaskType::Delivery, UnassignedReason::NotRouted};
  EXPECT_VIOLATION(validate(*problem, solution), ViolationKind::UnknownTask, "unassigned[0]");
}

TEST_F(ValidatorTest, UnknownBreak) {
  solution.routes[0].steps[4].id = 8;
  EXPECT_VIOLATION(validate(*problem, solution), ViolationKind::UnknownTask, "routes[0].steps[4]");
}

TEST_F(ValidatorTest, DuplicateTask) {
  solution.unassigned.push_back(
      Unassigned{job(*problem, 101), 101, TaskType::Job, UnassignedReason::NotRouted});
  solution.summary.unassigned = 2;
  const ValidationReport report = validate(*problem, solution);
  EXPECT_VIOLATION(report, ViolationKind::DuplicateTask, "unassigned[1]");
  EXPECT_TRUE(only_kind(report, ViolationKind::DuplicateTask)) << report.to_text();
}

TEST_F(ValidatorTest, MissingTask) {
  solution.unassigned.clear();
  solution.summary.unassigned = 0;
  const ValidationReport report = validate(*problem, solution);
  const std::string where = "tasks[" + std::to_string(job(*problem, 105)) + "]";
  EXPECT_VIOLATION(report, ViolationKind::MissingTask, where);
  EXPECT_TRUE(only_kind(report, ViolationKind::MissingTask)) << report.to_text();
  EXPECT_NE(report.violations[0].message.find("105"), std::string::npos) << report.to_text();
}

TEST_F(ValidatorTest, BadStepOrder) {
  auto& steps = solution.routes[0].steps;
  {
    Solution s = solution;
    s.routes[0].steps.pop_back();  // vehicle 1 has an end
    EXPECT_VIOLATION(validate(*problem, s, figures_off()), ViolationKind::BadStepOrder,
                     "routes[0]");
  }
  {
    Solution s = solution;
    std::swap(s.routes[0].steps[0], s.routes[0].steps[1]);  // start in second place
    const ValidationReport report = validate(*problem, s, figures_off());
    EXPECT_VIOLATION(report, ViolationKind::BadStepOrder, "routes[0].steps[1]");
    EXPECT_VIOLATION(report, ViolationKind::BadStepOrder, "routes[0]");
  }
  {
    // Vehicle 2 has no start: a start step stands for VROOM's marker at the first stop, so one
    // elsewhere is at the wrong location, and one after steps[0] is out of order.
    Solution s = solution;
    s.routes[1].steps.insert(s.routes[1].steps.begin(), steps[0]);
    EXPECT_VIOLATION(validate(*problem, s, figures_off()), ViolationKind::WrongLocation,
                     "routes[1].steps[0]");
    s.routes[1].steps[0].location = s.routes[1].steps[1].location;
    EXPECT_TRUE(validate(*problem, s, figures_off()).ok())
        << validate(*problem, s, figures_off()).to_text();
    s.routes[1].steps.insert(s.routes[1].steps.begin() + 1, s.routes[1].steps[0]);
    EXPECT_VIOLATION(validate(*problem, s, figures_off()), ViolationKind::BadStepOrder,
                     "routes[1].steps[1]");
  }
}

// VROOM writes a start and an end step on every route, at the first and last stop of a vehicle
// without them: the markers' figures are checked (the arrival they anchor, no travel, the load).
TEST_F(ValidatorTest, OpenRouteMarkersAsVroomWritesThem) {
  Solution s = solution;
  Route& r = s.routes[1];  // vehicle 2: no start
  Step marker = r.steps.front();
  marker.type = StepType::Start;
  marker.id = 0;
  marker.task = kNone;
  marker.setup = marker.service = marker.waiting_time = 0;
  Amount start_load = r.steps.front().load;
  for (std::size_t d = 0; d < start_load.size(); ++d)
    start_load[d] += problem->task(r.steps.front().task).delivery[d] -
                     problem->task(r.steps.front().task).pickup[d];
  marker.load = start_load;
  r.steps.insert(r.steps.begin(), marker);
  EXPECT_TRUE(validate(*problem, s).ok()) << validate(*problem, s).to_text();
  r.steps.front().arrival += 1;  // the first stop is reached when the marker says
  EXPECT_VIOLATION(validate(*problem, s), ViolationKind::ArrivalMismatch, "routes[1].steps[1]");

  // Starting at 0 without an end, vehicle 2's route stops at job 104 (left at 23): VROOM's end
  // step there.
  auto open = variant([](ProblemSpec& spec) {
    spec.vehicles[1].start = at(0);
    spec.vehicles[1].end.reset();
  });
  const ScheduleResult scheduled = schedule_route(*open, 1, {r.steps[1].task});
  ASSERT_TRUE(scheduled.feasible);
  Route route = scheduled.route;
  ASSERT_EQ(route.steps.back().type, StepType::Job);
  Step end = route.steps.back();
  end.type = StepType::End;
  end.id = 0;
  end.task = kNone;
  end.arrival = route.steps.back().arrival + route.steps.back().waiting_time +
                route.steps.back().setup + route.steps.back().service;
  end.setup = end.service = end.waiting_time = 0;
  route.steps.push_back(end);
  Solution with_end = make_solution(*open, {solution.routes[0], route}, solution.unassigned);
  EXPECT_TRUE(validate(*open, with_end).ok()) << validate(*open, with_end).to_text();
  with_end.routes[1].steps.back().arrival += 1;
  EXPECT_VIOLATION(validate(*open, with_end), ViolationKind::ArrivalMismatch, "routes[1].steps[2]");
  with_end.routes[1].steps.back().arrival -= 1;
  with_end.routes[1].steps.back().location = 0;
  EXPECT_VIOLATION(validate(*open, with_end), ViolationKind::WrongLocation, "routes[1].steps[2]");
}

TEST_F(ValidatorTest, Skills) {
  auto p = variant([](ProblemSpec& s) { s.vehicles[1].skills.clear(); });
  const ValidationReport report = validate(*p, solution);
  EXPECT_VIOLATION(report, ViolationKind::Skills, "routes[1].steps[0]");
  EXPECT_TRUE(only_kind(report, ViolationKind::Skills)) << report.to_text();
}

TEST_F(ValidatorTest, Capacity) {
  auto p = variant([](ProblemSpec& s) { s.vehicles[0].capacity = Amount{5}; });
  const ValidationReport report = validate(*p, solution);
  EXPECT_VIOLATION(report, ViolationKind::Capacity,
                   "routes[0].steps[5]");  // load 6 after the pickup
  EXPECT_TRUE(only_kind(report, ViolationKind::Capacity)) << report.to_text();
}

TEST_F(ValidatorTest, CapacityAtStart) {
  auto p = variant([](ProblemSpec& s) { s.vehicles[0].capacity = Amount{2}; });
  EXPECT_VIOLATION(validate(*p, solution), ViolationKind::Capacity,
                   "routes[0].steps[0]");  // 101's delivery 3
}

TEST_F(ValidatorTest, TimeWindow) {
  auto p = variant([](ProblemSpec& s) { s.jobs[1].time_windows = {TimeWindow{0, 20}}; });
  const ValidationReport report = validate(*p, solution);
  EXPECT_VIOLATION(report, ViolationKind::TimeWindow, "routes[0].steps[3]");
  EXPECT_TRUE(only_kind(report, ViolationKind::TimeWindow)) << report.to_text();
}

TEST_F(ValidatorTest, TimeWindowTooEarly) {
  solution.routes[0].steps[3].waiting_time = 0;  // service would start at 30, window opens at 40
  solution.routes[0].waiting_time -= 10;
  solution.summary.waiting_time -= 10;
  EXPECT_VIOLATION(validate(*problem, solution), ViolationKind::TimeWindow, "routes[0].steps[3]");
}

TEST_F(ValidatorTest, VehicleTimeWindow) {
  auto p = variant([](ProblemSpec& s) { s.vehicles[0].time_window = TimeWindow{0, 100}; });
  const ValidationReport report = validate(*p, solution);
  EXPECT_VIOLATION(report, ViolationKind::VehicleTimeWindow, "routes[0].steps[7]");
  EXPECT_TRUE(only_kind(report, ViolationKind::VehicleTimeWindow)) << report.to_text();
}

TEST_F(ValidatorTest, VehicleLeavesBeforeItsWindow) {
  auto p = variant([](ProblemSpec& s) { s.vehicles[0].time_window = TimeWindow{5, 500}; });
  EXPECT_VIOLATION(validate(*p, solution), ViolationKind::VehicleTimeWindow, "routes[0].steps[0]");
  // Without a start step the first arrival is bounded by the window start.
  auto q = variant([](ProblemSpec& s) { s.vehicles[1].time_window = TimeWindow{5, 500}; });
  EXPECT_VIOLATION(validate(*q, solution), ViolationKind::VehicleTimeWindow, "routes[1].steps[0]");
}

TEST_F(ValidatorTest, BreakMissing) {
  auto& steps = solution.routes[0].steps;
  steps.erase(steps.begin() + 4);
  const ValidationReport report = validate(*problem, solution, figures_off());
  EXPECT_VIOLATION(report, ViolationKind::BreakMissing, "routes[0]");
  EXPECT_TRUE(only_kind(report, ViolationKind::BreakMissing)) << report.to_text();
}

TEST_F(ValidatorTest, BreakTakenTwice) {
  auto& steps = solution.routes[0].steps;
  steps.insert(steps.begin() + 5, steps[4]);
  EXPECT_VIOLATION(validate(*problem, solution, figures_off()), ViolationKind::BreakMissing,
                   "routes[0].steps[5]");
}

TEST_F(ValidatorTest, BreaksOutOfVehicleOrder) {
  auto p = variant([](ProblemSpec& s) {
    BreakSpec b;
    b.id = 10;
    b.service = 0;
    s.vehicles[0].breaks.push_back(b);  // must come after break 9
  });
  auto& steps = solution.routes[0].steps;
  Step b10 = steps[4];
  b10.id = 10;
  b10.service = 0;
  steps.insert(steps.begin() + 2, b10);  // before break 9
  const ValidationReport report = validate(*p, solution, figures_off());
  EXPECT_VIOLATION(report, ViolationKind::BreakMissing, "routes[0].steps[5]");
  EXPECT_TRUE(only_kind(report, ViolationKind::BreakMissing)) << report.to_text();
}

TEST_F(ValidatorTest, BreakTimeWindow) {
  auto p = variant([](ProblemSpec& s) {
    s.vehicles[0].breaks[0].time_windows = {TimeWindow{0, 30}};
  });
  const ValidationReport report = validate(*p, solution);
  EXPECT_VIOLATION(report, ViolationKind::BreakTimeWindow, "routes[0].steps[4]");
  EXPECT_TRUE(only_kind(report, ViolationKind::BreakTimeWindow)) << report.to_text();
  EXPECT_VIOLATION(validate(*p, solution, figures_off()), ViolationKind::BreakTimeWindow,
                   "routes[0].steps[4]");
}

TEST_F(ValidatorTest, BreakMaxLoad) {
  auto p = variant([](ProblemSpec& s) { s.vehicles[0].breaks[0].max_load = Amount{1}; });
  const ValidationReport report = validate(*p, solution);
  EXPECT_VIOLATION(report, ViolationKind::BreakMaxLoad, "routes[0].steps[4]");
  EXPECT_TRUE(only_kind(report, ViolationKind::BreakMaxLoad)) << report.to_text();
}

TEST_F(ValidatorTest, ShipmentSplitWithUnassignedHalf) {
  auto& steps = solution.routes[0].steps;
  steps.erase(steps.begin() + 6);  // drop the delivery from the route ...
  solution.unassigned.push_back(
      Unassigned{problem->find_task(TaskType::Delivery, 202), 202, TaskType::Delivery,
                 UnassignedReason::NotRouted});  // ... and list it unassigned
  const ValidationReport report = validate(*problem, solution, figures_off());
  EXPECT_VIOLATION(report, ViolationKind::ShipmentSplit, "routes[0].steps[5]");
  EXPECT_TRUE(only_kind(report, ViolationKind::ShipmentSplit)) << report.to_text();
}

TEST_F(ValidatorTest, ShipmentSplitAcrossRoutes) {
  auto p = variant([](ProblemSpec& s) { s.vehicles[1].time_window = TimeWindow{0, 1000}; });
  Step delivery = solution.routes[0].steps[6];
  solution.routes[0].steps.erase(solution.routes[0].steps.begin() + 6);
  solution.routes[1].steps.insert(solution.routes[1].steps.begin() + 1, delivery);
  const ValidationReport report = validate(*p, solution, figures_off());
  EXPECT_VIOLATION(report, ViolationKind::ShipmentSplit, "routes[0].steps[5]");
}

TEST_F(ValidatorTest, ShipmentOrder) {
  auto& steps = solution.routes[0].steps;
  std::swap(steps[5], steps[6]);
  const ValidationReport report = validate(*problem, solution, figures_off());
  EXPECT_VIOLATION(report, ViolationKind::ShipmentOrder, "routes[0].steps[5]");
  EXPECT_TRUE(only_kind(report, ViolationKind::ShipmentOrder)) << report.to_text();
}

TEST_F(ValidatorTest, MaxTasks) {
  auto p = variant([](ProblemSpec& s) { s.vehicles[0].max_tasks = 4; });
  const ValidationReport report = validate(*p, solution);
  EXPECT_VIOLATION(report, ViolationKind::MaxTasks, "routes[0]");
  EXPECT_TRUE(only_kind(report, ViolationKind::MaxTasks)) << report.to_text();
  auto q = variant([](ProblemSpec& s) { s.vehicles[0].max_tasks = 5; });
  EXPECT_TRUE(validate(*q, solution).ok());
}

TEST_F(ValidatorTest, MaxTravelTime) {
  auto p = variant([](ProblemSpec& s) { s.vehicles[0].max_travel_time = 79; });
  const ValidationReport report = validate(*p, solution);
  EXPECT_VIOLATION(report, ViolationKind::MaxTravelTime, "routes[0]");
  EXPECT_TRUE(only_kind(report, ViolationKind::MaxTravelTime)) << report.to_text();
  auto q = variant([](ProblemSpec& s) { s.vehicles[0].max_travel_time = 80; });
  EXPECT_TRUE(validate(*q, solution).ok());
}

TEST_F(ValidatorTest, MaxDistance) {
  auto p = variant([](ProblemSpec& s) { s.vehicles[0].max_distance = 799; });
  const ValidationReport report = validate(*p, solution);
  EXPECT_VIOLATION(report, ViolationKind::MaxDistance, "routes[0]");
  EXPECT_TRUE(only_kind(report, ViolationKind::MaxDistance)) << report.to_text();
  auto q = variant([](ProblemSpec& s) { s.vehicles[0].max_distance = 800; });
  EXPECT_TRUE(validate(*q, solution).ok());
}

TEST_F(ValidatorTest, Unreachable) {
  auto p = variant([](ProblemSpec& s) { s.matrices["car"].durations(3, 4) = kUnreachable; });
  const ValidationReport report = validate(*p, solution, figures_off());
  EXPECT_VIOLATION(report, ViolationKind::Unreachable, "routes[0].steps[6]");
  // Figures checked too: no overflow, no throw, the arc is still named.
  EXPECT_VIOLATION(validate(*p, solution), ViolationKind::Unreachable, "routes[0].steps[6]");
}

TEST_F(ValidatorTest, ArrivalMismatch) {
  solution.routes[0].steps[3].arrival = 31;  // later than the earliest 30; still serves at 40
  solution.routes[0].steps[3].waiting_time = 9;
  solution.routes[0].waiting_time -= 1;
  solution.summary.waiting_time -= 1;
  ValidationReport report = validate(*problem, solution);
  EXPECT_VIOLATION(report, ViolationKind::ArrivalMismatch, "routes[0].steps[3]");
  EXPECT_TRUE(only_kind(report, ViolationKind::ArrivalMismatch)) << report.to_text();
  // Feasible without figures.
  EXPECT_TRUE(validate(*problem, solution, figures_off()).ok());

  solution = fixture_solution(*problem);
  solution.routes[0].steps[5].arrival = 79;  // before break departure 70 + travel 10
  report = validate(*problem, solution);
  EXPECT_VIOLATION(report, ViolationKind::ArrivalMismatch, "routes[0].steps[5]");

  solution = fixture_solution(*problem);
  solution.routes[0].steps[7].arrival = 139;
  EXPECT_VIOLATION(validate(*problem, solution), ViolationKind::ArrivalMismatch,
                   "routes[0].steps[7]");
}

TEST_F(ValidatorTest, DurationMismatch) {
  solution.routes[0].steps[2].duration = 11;
  ValidationReport report = validate(*problem, solution);
  EXPECT_VIOLATION(report, ViolationKind::DurationMismatch, "routes[0].steps[2]");
  EXPECT_TRUE(only_kind(report, ViolationKind::DurationMismatch)) << report.to_text();

  solution = fixture_solution(*problem);
  solution.routes[0].steps[2].setup = 7;  // same location as 101: no setup
  EXPECT_VIOLATION(validate(*problem, solution), ViolationKind::DurationMismatch,
                   "routes[0].steps[2]");

  solution = fixture_solution(*problem);
  solution.routes[1].service = 3;
  solution.summary.service += 1;
  report = validate(*problem, solution);
  EXPECT_VIOLATION(report, ViolationKind::DurationMismatch, "routes[1]");
  EXPECT_TRUE(only_kind(report, ViolationKind::DurationMismatch)) << report.to_text();
}

TEST_F(ValidatorTest, DistanceMismatch) {
  solution.routes[0].steps[2].distance = 101;
  ValidationReport report = validate(*problem, solution);
  EXPECT_VIOLATION(report, ViolationKind::DistanceMismatch, "routes[0].steps[2]");
  EXPECT_TRUE(only_kind(report, ViolationKind::DistanceMismatch)) << report.to_text();
  solution = fixture_solution(*problem);
  solution.routes[1].distance = 201;
  solution.summary.distance = 1001;
  EXPECT_VIOLATION(validate(*problem, solution), ViolationKind::DistanceMismatch, "routes[1]");
}

TEST_F(ValidatorTest, LoadMismatch) {
  solution.routes[0].steps[2].load = Amount{1};
  ValidationReport report = validate(*problem, solution);
  EXPECT_VIOLATION(report, ViolationKind::LoadMismatch, "routes[0].steps[2]");
  EXPECT_TRUE(only_kind(report, ViolationKind::LoadMismatch)) << report.to_text();
  // An empty reported load is not checked.
  solution.routes[0].steps[2].load = Amount{};
  EXPECT_TRUE(validate(*problem, solution).ok());
}

TEST_F(ValidatorTest, CostMismatch) {
  solution.routes[0].cost += 1;
  solution.summary.cost += 1;
  const ValidationReport report = validate(*problem, solution);
  EXPECT_VIOLATION(report, ViolationKind::CostMismatch, "routes[0]");
  EXPECT_TRUE(only_kind(report, ViolationKind::CostMismatch)) << report.to_text();
}

TEST_F(ValidatorTest, SummaryMismatch) {
  for (auto change : std::vector<void (*)(Summary&)>{
           [](Summary& s) { s.routes = 3; }, [](Summary& s) { s.unassigned = 0; },
           [](Summary& s) { s.cost += 1; }, [](Summary& s) { s.duration += 1; },
           [](Summary& s) { s.distance += 1; }, [](Summary& s) { s.waiting_time += 1; },
           [](Summary& s) { s.setup += 1; }, [](Summary& s) { s.service += 1; },
           [](Summary& s) { s.delivery = Amount{9}; }, [](Summary& s) { s.priority = 1; }}) {
    Solution s = solution;
    change(s.summary);
    const ValidationReport report = validate(*problem, s);
    EXPECT_VIOLATION(report, ViolationKind::SummaryMismatch, "summary");
    EXPECT_TRUE(only_kind(report, ViolationKind::SummaryMismatch)) << report.to_text();
  }
}

TEST_F(ValidatorTest, WrongLocation) {
  solution.routes[0].steps[1].location = 2;
  ValidationReport report = validate(*problem, solution);
  EXPECT_VIOLATION(report, ViolationKind::WrongLocation, "routes[0].steps[1]");
  EXPECT_TRUE(only_kind(report, ViolationKind::WrongLocation)) << report.to_text();
  solution = fixture_solution(*problem);
  solution.routes[0].steps[7].location = 4;
  EXPECT_VIOLATION(validate(*problem, solution), ViolationKind::WrongLocation,
                   "routes[0].steps[7]");
}

}  // namespace
}  // namespace routesolve
