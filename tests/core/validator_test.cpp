// Tests of the independent validator: a hand-computed valid solution, one broken copy per
// violation kind, figure-free checking, robustness on garbage, and a randomized cross-check
// against schedule_route / make_solution (two independent implementations of the same rules).

#include "routesolve/validator.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"

namespace routesolve {
namespace {

// ---------------------------------------------------------------------------------------------
// Fixture: 5 locations on a line, duration(i, j) = 10 |i - j|, distance(i, j) = 100 |i - j|.
//
//  vehicle 1 (index 0): start 0, end 0, capacity 10, window [0, 500], break 9 in [60, 80] for 10
//                       with max_load 8
//  vehicle 2 (index 1): no start, end 0, capacity 5, skill 7
//  job 101 @1 setup 2 service 5 delivery 3        job 103 @1 setup 7 service 3 (same place as 101)
//  job 102 @2 service 5 pickup 2 window [40, 100] job 104 @2 setup 1 service 2 delivery 1 skill 7
//  job 105 @3 (left unassigned)                   shipment 201 @3 -> 202 @4, amount 4, service 4
//
// Route 0 (vehicle 1), computed by hand:
//   step 0 start    @0 arrival   0                                   load 3 (101's delivery)
//   step 1 job 101  @1 arrival  10 setup 2 service 5   -> leaves 17  load 0  dur 10 dist 100
//   step 2 job 103  @1 arrival  17 setup 0 service 3   -> leaves 20  load 0  dur 10 dist 100
//   step 3 job 102  @2 arrival  30 wait 10 service 5   -> leaves 45  load 2  dur 20 dist 200
//   step 4 break 9     arrival  45 wait 15 service 10  -> leaves 70  load 2  dur 20 dist 200
//   step 5 pickup   @3 arrival  80 service 4           -> leaves 84  load 6  dur 30 dist 300
//   step 6 delivery @4 arrival  94 service 4           -> leaves 98  load 2  dur 40 dist 400
//   step 7 end      @0 arrival 138                                   load 2  dur 80 dist 800
//   totals: duration 80, distance 800, setup 2, service 31 (break included), waiting 25,
//           delivery 3 + 4 = 7, pickup 2 + 4 = 6
// Route 1 (vehicle 2):
//   step 0 job 104  @2 arrival 0 setup 1 service 2 -> leaves 3       load 0  dur 0 dist 0
//   step 1 end      @0 arrival 23                                    load 0  dur 20 dist 200
//   totals: duration 20, distance 200, setup 1, service 2, delivery 1, pickup 0
// ---------------------------------------------------------------------------------------------

constexpr std::size_t kLocations = 5;

LocationSpec at(std::size_t i) {
  LocationSpec l;
  l.index = i;
  return l;
}

ProblemSpec fixture_spec() {
  ProblemSpec spec;
  ProfileMatrices m;
  m.durations = Matrix(kLocations);
  m.distances = Matrix(kLocations);
  for (std::size_t i = 0; i < kLocations; ++i)
    for (std::size_t j = 0; j < kLocations; ++j) {
      const auto d = static_cast<std::int64_t>(i > j ? i - j : j - i);
      m.durations(i, j) = 10 * d;
      m.distances(i, j) = 100 * d;
    }
  spec.matrices["car"] = m;

  auto job = [](Id id, std::size_t loc, Duration setup, Duration service) {
    JobSpec j;
    j.id = id;
    j.location = at(loc);
    j.setup = setup;
    j.service = service;
    return j;
  };
  JobSpec j101 = job(101, 1, 2, 5);
  j101.delivery = Amount{3};
  JobSpec j102 = job(102, 2, 0, 5);
  j102.pickup = Amount{2};
  j102.time_windows = {TimeWindow{40, 100}};
  JobSpec j103 = job(103, 1, 7, 3);
  JobSpec j104 = job(104, 2, 1, 2);
  j104.delivery = Amount{1};
  j104.skills = {7};
  JobSpec j105 = job(105, 3, 0, 1);
  spec.jobs = {j101, j102, j103, j104, j105};

  ShipmentSpec s;
  s.pickup.id = 201;
  s.pickup.location = at(3);
  s.pickup.service = 4;
  s.delivery.id = 202;
  s.delivery.location = at(4);
  s.delivery.service = 4;
  s.amount = Amount{4};
  spec.shipments = {s};

  VehicleSpec v1;
  v1.id = 1;
  v1.start = at(0);
  v1.end = at(0);
  v1.capacity = Amount{10};
  v1.time_window = TimeWindow{0, 500};
  BreakSpec b;
  b.id = 9;
  b.time_windows = {TimeWindow{60, 80}};
  b.service = 10;
  b.max_load = Amount{8};
  v1.breaks = {b};
  v1.costs.fixed = 100;

  VehicleSpec v2;
  v2.id = 2;
  v2.end = at(0);
  v2.capacity = Amount{5};
  v2.skills = {7};
  v2.time_window = TimeWindow{0, 1000};
  spec.vehicles = {v1, v2};
  return spec;
}

Step make_step(StepType type, Id id, std::size_t task, std::size_t location, Duration arrival,
               Duration setup, Duration service, Duration waiting, Duration duration,
               Distance distance, std::int64_t load) {
  Step s;
  s.type = type;
  s.id = id;
  s.task = task;
  s.location = location;
  s.arrival = arrival;
  s.setup = setup;
  s.service = service;
  s.waiting_time = waiting;
  s.duration = duration;
  s.distance = distance;
  s.load = Amount{load};
  return s;
}

std::size_t job(const Problem& p, Id id) { return p.find_task(TaskType::Job, id); }

/// The hand-computed solution described above.
Solution fixture_solution(const Problem& p) {
  const std::size_t pickup = p.find_task(TaskType::Pickup, 201);
  const std::size_t delivery = p.find_task(TaskType::Delivery, 202);
  const TravelView t0 = p.travel(0), t1 = p.travel(1);

  Route r0;
  r0.vehicle = 0;
  r0.vehicle_id = 1;
  r0.steps = {
      make_step(StepType::Start, 0, kNone, 0, 0, 0, 0, 0, 0, 0, 3),
      make_step(StepType::Job, 101, job(p, 101), 1, 10, 2, 5, 0, 10, 100, 0),
      make_step(StepType::Job, 103, job(p, 103), 1, 17, 0, 3, 0, 10, 100, 0),
      make_step(StepType::Job, 102, job(p, 102), 2, 30, 0, 5, 10, 20, 200, 2),
      make_step(StepType::Break, 9, kNone, kNone, 45, 0, 10, 15, 20, 200, 2),
      make_step(StepType::Pickup, 201, pickup, 3, 80, 0, 4, 0, 30, 300, 6),
      make_step(StepType::Delivery, 202, delivery, 4, 94, 0, 4, 0, 40, 400, 2),
      make_step(StepType::End, 0, kNone, 0, 138, 0, 0, 0, 80, 800, 2),
  };
  // Costs come from the problem's arc costs (their unit is the problem's business, not ours).
  r0.cost = p.fixed_cost(0) + t0.cost(0, 1) + t0.cost(1, 1) + t0.cost(1, 2) + t0.cost(2, 3) +
            t0.cost(3, 4) + t0.cost(4, 0);
  r0.duration = 80;
  r0.distance = 800;
  r0.setup = 2;
  r0.service = 31;
  r0.waiting_time = 25;
  r0.delivery = Amount{7};
  r0.pickup = Amount{6};

  Route r1;
  r1.vehicle = 1;
  r1.vehicle_id = 2;
  r1.steps = {
      make_step(StepType::Job, 104, job(p, 104), 2, 0, 1, 2, 0, 0, 0, 0),
      make_step(StepType::End, 0, kNone, 0, 23, 0, 0, 0, 20, 200, 0),
  };
  r1.cost = p.fixed_cost(1) + t1.cost(2, 0);
  r1.duration = 20;
  r1.distance = 200;
  r1.setup = 1;
  r1.service = 2;
  r1.delivery = Amount{1};
  r1.pickup = Amount{0};

  Solution s;
  s.routes = {r0, r1};
  s.unassigned = {Unassigned{job(p, 105), 105, TaskType::Job, UnassignedReason::NotRouted}};
  s.summary.cost = r0.cost + r1.cost;
  s.summary.routes = 2;
  s.summary.unassigned = 1;
  s.summary.duration = 100;
  s.summary.distance = 1000;
  s.summary.setup = 3;
  s.summary.service = 33;
  s.summary.waiting_time = 25;
  s.summary.delivery = Amount{8};
  s.summary.pickup = Amount{6};
  return s;
}

bool has(const ValidationReport& report, ViolationKind kind, const std::string& where) {
  return std::any_of(report.violations.begin(), report.violations.end(),
                     [&](const Violation& v) { return v.kind == kind && v.where == where; });
}

bool only_kind(const ValidationReport& report, ViolationKind kind) {
  return !report.violations.empty() &&
         std::all_of(report.violations.begin(), report.violations.end(),
                     [&](const Violation& v) { return v.kind == kind; });
}

ValidateOptions figures_off() {
  ValidateOptions o;
  o.check_figures = false;
  return o;
}

class ValidatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    problem = Problem::create(fixture_spec());
    solution = fixture_solution(*problem);
  }
  /// Rebuilds the problem from a modified spec; the solution stays the hand-computed one.
  template <typename F>
  ProblemPtr variant(F&& change) {
    ProblemSpec spec = fixture_spec();
    change(spec);
    return Problem::create(std::move(spec));
  }
  ProblemPtr problem;
  Solution solution;
};

#define EXPECT_VIOLATION(report, kind, where)                              \
  EXPECT_TRUE(has(report, kind, where))                                    \
      << "expected " << to_string(kind) << " at " << (where) << ", got:\n" \
      << (report).to_text()

// ---- valid solutions ---------------------------------------------------------------------------

TEST_F(ValidatorTest, HandComputedSolutionIsValid) {
  const ValidationReport report = validate(*problem, solution);
  EXPECT_TRUE(report.ok()) << report.to_text();
  EXPECT_TRUE(validate(*problem, solution, figures_off()).ok());
}

TEST_F(ValidatorTest, FiguresOffAcceptsFeasibleOrderWithZeroFigures) {
  for (Route& r : solution.routes) {
    for (Step& s : r.steps) {
      s.arrival = s.setup = s.service = s.waiting_time = s.duration = s.distance = 0;
      s.load = Amount{};
    }
    r.cost = r.setup = r.service = r.duration = r.waiting_time = r.distance = 0;
    r.delivery = r.pickup = Amount{};
  }
  solution.summary = Summary{};
  const ValidationReport report = validate(*problem, solution, figures_off());
  EXPECT_TRUE(report.ok()) << report.to_text();
  // With figures checked, the same solution is wrong in many places.
  EXPECT_FALSE(validate(*problem, solution).ok());
}

TEST_F(ValidatorTest, FiguresOffStillChecksFeasibility) {
  // 102's window closes at 20 but the earliest arrival there is 30.
  auto p = variant([](ProblemSpec& s) { s.jobs[1].time_windows = {TimeWindow{0, 20}}; });
  const ValidationReport report = validate(*p, solution, figures_off());
  EXPECT_VIOLATION(report, ViolationKind::TimeWindow, "routes[0].steps[3]");
}

TEST_F(ValidatorTest, UnassignedNotRequiredWhenOptionOff) {
  solution.unassigned.clear();
  solution.summary.unassigned = 0;
  ValidateOptions o;
  o.require_all_tasks_accounted = false;
  EXPECT_TRUE(validate(*problem, solution, o).ok());
}

TEST_F(ValidatorTest, ReportListsEveryViolationAsText) {
  solution.routes[0].steps[1].location = 3;   // wrong location
  solution.routes[0].steps[2].duration = 99;  // duration mismatch
  solution.summary.routes = 7;                // summary mismatch
  const ValidationReport report = validate(*problem, solution);
  EXPECT_GE(report.violations.size(), 3u);
  const std::string text = report.to_text();
  EXPECT_NE(text.find("routes[0].steps[1]: wrong location: "), std::string::npos) << text;
  EXPECT_NE(text.find("routes[0].steps[2]: duration mismatch: "), std::string::npos) << text;
  EXPECT_NE(text.find("summary: summary mismatch: routes: expected 2, found 7"), std::string::npos)
      << text;
  EXPECT_EQ(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')),
            report.violations.size());
}

TEST(ViolationKindTest, EveryKindHasADistinctName) {
  std::vector<std::string> names;
  for (int k = 0; k <= static_cast<int>(ViolationKind::WrongLocation); ++k)
    names.emplace_back(to_string(static_cast<ViolationKind>(k)));
  std::vector<std::string> sorted = names;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::unique(sorted.begin(), sorted.end()), sorted.end());
  for (const auto& n : names) EXPECT_FALSE(n.empty());
}

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
    Solution s = solution;  // vehicle 2 has no start
    s.routes[1].steps.insert(s.routes[1].steps.begin(), steps[0]);
    EXPECT_VIOLATION(validate(*problem, s, figures_off()), ViolationKind::BadStepOrder,
                     "routes[1].steps[0]");
  }
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

// ---- robustness --------------------------------------------------------------------------------

TEST_F(ValidatorTest, GarbageSolutionsAreReportedNeverThrown) {
  std::mt19937_64 rng(12345);
  auto pick = [&](std::uint64_t n) { return static_cast<std::size_t>(rng() % n); };
  const std::vector<std::size_t> indices = {0, 1, 2, 5, 6, 7, 100, kNone};
  const std::vector<std::int64_t> values = {0,
                                            1,
                                            -1,
                                            40,
                                            1000,
                                            kMaxTime,
                                            kUnreachable,
                                            std::numeric_limits<std::int64_t>::max(),
                                            std::numeric_limits<std::int64_t>::min()};
  for (int iter = 0; iter < 2000; ++iter) {
    Solution s = fixture_solution(*problem);
    const int changes = 1 + static_cast<int>(pick(4));
    for (int c = 0; c < changes; ++c) {
      Route& r = s.routes[pick(s.routes.size())];
      switch (pick(9)) {
        case 0:
          r.vehicle = indices[pick(indices.size())];
          break;
        case 1:
          if (!r.steps.empty())
            r.steps.erase(r.steps.begin() + static_cast<long>(pick(r.steps.size())));
          break;
        case 2:
          if (!r.steps.empty()) r.steps[pick(r.steps.size())].task = indices[pick(indices.size())];
          break;
        case 3:
          if (!r.steps.empty()) r.steps[pick(r.steps.size())].type = static_cast<StepType>(pick(6));
          break;
        case 4:
          if (!r.steps.empty())
            r.steps[pick(r.steps.size())].location = indices[pick(indices.size())];
          break;
        case 5:
          if (!r.steps.empty()) r.steps[pick(r.steps.size())].arrival = values[pick(values.size())];
          break;
        case 6:
          if (!r.steps.empty())
            r.steps[pick(r.steps.size())].waiting_time = values[pick(values.size())];
          break;
        case 7:
          if (!r.steps.empty()) r.steps[pick(r.steps.size())].load = Amount{1, 2, 3};
          break;
        case 8:
          s.unassigned.push_back(Unassigned{indices[pick(indices.size())], rng(), TaskType::Pickup,
                                            UnassignedReason::NotRouted});
          break;
      }
    }
    ValidationReport report;
    EXPECT_NO_THROW(report = validate(*problem, s));
    EXPECT_NO_THROW(report = validate(*problem, s, figures_off()));
  }
}

TEST_F(ValidatorTest, UnknownStepType) {
  solution.routes[0].steps[2].type = static_cast<StepType>(17);
  const ValidationReport report = validate(*problem, solution, figures_off());
  EXPECT_VIOLATION(report, ViolationKind::BadStepOrder, "routes[0].steps[2]");
}

TEST_F(ValidatorTest, EmptySolutionReportsEveryTaskMissing) {
  const ValidationReport report = validate(*problem, Solution{});
  EXPECT_EQ(report.violations.size(), problem->tasks().size());
  EXPECT_TRUE(only_kind(report, ViolationKind::MissingTask));
}

// ---- cross-check against schedule_route / make_solution
// -------------------------------------------

ProblemPtr random_problem(std::mt19937_64& rng) {
  auto uni = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  const auto n = static_cast<std::size_t>(uni(5, 9));
  const auto dims = static_cast<std::size_t>(uni(1, 2));
  ProblemSpec spec;
  ProfileMatrices m;
  m.durations = Matrix(n);
  m.distances = Matrix(n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      if (i != j) {
        m.durations(i, j) = uni(1, 40);
        m.distances(i, j) = uni(1, 400);
      }
  spec.matrices["car"] = m;
  auto amount = [&](std::int64_t hi) {
    std::vector<std::int64_t> a(dims);
    for (auto& x : a) x = uni(0, hi);
    return Amount(a);
  };
  auto windows = [&]() {
    std::vector<TimeWindow> w;
    if (uni(0, 2) == 0) return w;  // open
    const std::int64_t count = uni(1, 2);
    std::int64_t t = 0;
    for (std::int64_t k = 0; k < count; ++k) {
      const std::int64_t s = t + uni(0, 120);
      const std::int64_t e = s + uni(10, 150);
      w.push_back(TimeWindow{s, e});
      t = e + 1;
    }
    return w;
  };
  const std::int64_t jobs = uni(3, 7);
  for (std::int64_t k = 0; k < jobs; ++k) {
    JobSpec j;
    j.id = static_cast<Id>(1000 + k);
    j.location = at(static_cast<std::size_t>(uni(0, static_cast<std::int64_t>(n) - 1)));
    j.setup = uni(0, 5);
    j.service = uni(0, 10);
    j.delivery = amount(4);
    j.pickup = amount(4);
    j.priority = static_cast<int>(uni(0, 10));
    j.time_windows = windows();
    if (uni(0, 4) == 0) j.skills = {1};
    spec.jobs.push_back(j);
  }
  const std::int64_t shipments = uni(0, 2);
  for (std::int64_t k = 0; k < shipments; ++k) {
    ShipmentSpec s;
    s.pickup.id = static_cast<Id>(2000 + k);
    s.delivery.id = static_cast<Id>(3000 + k);
    s.pickup.location = at(static_cast<std::size_t>(uni(0, static_cast<std::int64_t>(n) - 1)));
    s.delivery.location = at(static_cast<std::size_t>(uni(0, static_cast<std::int64_t>(n) - 1)));
    s.pickup.setup = uni(0, 5);
    s.delivery.setup = uni(0, 5);
    s.pickup.service = uni(0, 10);
    s.delivery.service = uni(0, 10);
    s.pickup.time_windows = windows();
    s.delivery.time_windows = windows();
    s.amount = amount(5);
    s.priority = static_cast<int>(uni(0, 10));
    spec.shipments.push_back(s);
  }
  const std::int64_t vehicles = uni(1, 3);
  for (std::int64_t k = 0; k < vehicles; ++k) {
    VehicleSpec v;
    v.id = static_cast<Id>(k + 1);
    const std::int64_t shape =
        uni(0, 3);  // 0: both, 1: start only, 2: end only, 3: both, different places
    if (shape != 2)
      v.start = at(static_cast<std::size_t>(uni(0, static_cast<std::int64_t>(n) - 1)));
    if (shape != 1) v.end = at(static_cast<std::size_t>(uni(0, static_cast<std::int64_t>(n) - 1)));
    if (shape == 0) v.end = v.start;
    v.capacity = amount(15);
    if (uni(0, 1) == 0) v.skills = {1};
    v.time_window = TimeWindow{uni(0, 30), uni(300, 900)};
    const std::int64_t breaks = uni(0, 2);
    std::int64_t t = 0;
    for (std::int64_t b = 0; b < breaks; ++b) {
      BreakSpec br;
      br.id = static_cast<Id>(50 + b);
      const std::int64_t s = t + uni(0, 150);
      br.time_windows = {TimeWindow{s, s + uni(0, 120)}};
      br.service = uni(0, 15);
      if (uni(0, 2) == 0) br.max_load = amount(10);
      t = s + 100;
      v.breaks.push_back(br);
    }
    if (uni(0, 3) == 0) v.max_tasks = static_cast<std::size_t>(uni(1, 5));
    if (uni(0, 3) == 0) v.max_travel_time = uni(50, 200);
    if (uni(0, 3) == 0) v.max_distance = uni(500, 2000);
    v.costs.fixed = uni(0, 3);
    v.costs.per_hour = uni(1, 2) * 1800;
    v.costs.per_km = uni(0, 2);
    if (uni(0, 3) == 0) v.speed_factor = 2.0;
    spec.vehicles.push_back(v);
  }
  return Problem::create(std::move(spec));
}

/// A figure-free route visiting `tasks` in order (no breaks): what a .sol file would give.
Route bare_route(const Problem& p, std::size_t v, const std::vector<std::size_t>& tasks) {
  Route r;
  r.vehicle = v;
  r.vehicle_id = p.vehicle(v).id;
  const Vehicle& veh = p.vehicle(v);
  if (veh.start != kNone) {
    Step s;
    s.type = StepType::Start;
    s.location = veh.start;
    r.steps.push_back(s);
  }
  for (std::size_t t : tasks) {
    Step s;
    const Task& task = p.task(t);
    s.type = task.type == TaskType::Job      ? StepType::Job
             : task.type == TaskType::Pickup ? StepType::Pickup
                                             : StepType::Delivery;
    s.id = task.id;
    s.task = t;
    s.location = task.location;
    r.steps.push_back(s);
  }
  if (veh.end != kNone) {
    Step s;
    s.type = StepType::End;
    s.location = veh.end;
    r.steps.push_back(s);
  }
  return r;
}

TEST(ValidatorCrossCheck, ScheduledRoutesPassAndRejectionsAgree) {
  int feasible_routes = 0, infeasible_routes = 0, checked_rejections = 0, routes_with_breaks = 0;
  for (std::uint64_t seed = 1; seed <= 2000; ++seed) {
    std::mt19937_64 rng(seed);
    const ProblemPtr problem = random_problem(rng);
    const Problem& p = *problem;
    // Random disjoint task orders, one per vehicle; shipments kept whole most of the time.
    std::vector<std::size_t> order(p.tasks().size());
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<std::vector<std::size_t>> per_vehicle(p.vehicles().size());
    std::vector<char> placed(p.tasks().size(), 0);
    for (std::size_t t : order) {
      if (placed[t] || rng() % 5 == 0) continue;
      const std::size_t v = rng() % p.vehicles().size();
      per_vehicle[v].push_back(t);
      placed[t] = 1;
      const Task& task = p.task(t);
      if (task.sibling != kNone && rng() % 8 != 0 && !placed[task.sibling]) {
        // Put the sibling somewhere after (or, sometimes, before) within the same route.
        auto& seq = per_vehicle[v];
        const std::size_t pos = rng() % (seq.size() + 1);
        seq.insert(seq.begin() + static_cast<long>(pos), task.sibling);
        placed[task.sibling] = 1;
      }
    }

    std::vector<Route> routes;
    std::vector<char> routed(p.tasks().size(), 0);
    for (std::size_t v = 0; v < per_vehicle.size(); ++v) {
      const auto& seq = per_vehicle[v];
      if (seq.empty()) continue;
      const ScheduleResult res = schedule_route(p, v, seq);
      if (res.feasible) {
        ++feasible_routes;
        if (std::any_of(res.route.steps.begin(), res.route.steps.end(),
                        [](const Step& st) { return st.type == StepType::Break; }))
          ++routes_with_breaks;
        routes.push_back(res.route);
        for (std::size_t t : seq) routed[t] = 1;
      } else {
        ++infeasible_routes;
        // Without breaks the earliest schedule is unique: the validator must find a violation.
        if (p.vehicle(v).breaks.empty()) {
          Solution alone;
          alone.routes.push_back(bare_route(p, v, seq));
          ValidateOptions o;
          o.check_figures = false;
          o.require_all_tasks_accounted = false;
          const ValidationReport report = validate(p, alone, o);
          EXPECT_FALSE(report.ok())
              << "seed " << seed << " vehicle " << v
              << ": schedule_route rejects the order but the validator accepts it";
          ++checked_rejections;
        }
      }
    }
    std::vector<Unassigned> unassigned;
    for (std::size_t t = 0; t < p.tasks().size(); ++t)
      if (!routed[t])
        unassigned.push_back(
            Unassigned{t, p.task(t).id, p.task(t).type, UnassignedReason::NotRouted});

    const Solution solution = make_solution(p, routes, unassigned);
    const ValidationReport report = validate(p, solution);
    EXPECT_TRUE(report.ok()) << "seed " << seed << ":\n" << report.to_text();
    const ValidationReport bare = validate(p, solution, figures_off());
    EXPECT_TRUE(bare.ok()) << "seed " << seed << " (figures off):\n" << bare.to_text();
    // Any single wrong figure in a scheduled solution must be caught.
    if (!solution.routes.empty()) {
      const std::size_t r = rng() % solution.routes.size();
      const std::size_t st = rng() % solution.routes[r].steps.size();
      for (int what = 0; what < 6; ++what) {
        Solution broken = solution;
        Route& route = broken.routes[r];
        Step& step = route.steps[st];
        switch (what) {
          case 0:
            step.duration += 1;
            break;
          case 1:
            step.distance += 1;
            break;
          case 2:
            if (step.load.empty()) continue;
            step.load[0] += 1;
            break;
          case 3:
            route.cost += 1;
            break;
          case 4:
            if (route.steps.back().type != StepType::End) continue;
            route.steps.back().arrival += 1;
            break;
          case 5:
            broken.summary.cost -= 1;
            break;
        }
        EXPECT_FALSE(validate(p, broken).ok())
            << "seed " << seed << ": mutation " << what << " of routes[" << r << "].steps[" << st
            << "] went unnoticed";
      }
    }
    if (HasFailure()) break;  // one seed's details are enough to debug
  }
  // The generator must exercise both outcomes.
  EXPECT_GT(feasible_routes, 500);
  EXPECT_GT(infeasible_routes, 500);
  EXPECT_GT(checked_rejections, 200);
  EXPECT_GT(routes_with_breaks, 200);
  std::cout << "[ cross-check ] feasible routes " << feasible_routes << ", infeasible "
            << infeasible_routes << " (validator confirmed " << checked_rejections
            << "), with breaks " << routes_with_breaks << "\n";
}

}  // namespace
}  // namespace routesolve
