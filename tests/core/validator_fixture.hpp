#pragma once
// The validator tests' fixture: a small problem whose valid solution is computed by hand, the
// helpers that look for a violation, and the ValidatorTest fixture class.

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
#include "routesolve/validator.hpp"

namespace routesolve::validator_fixture {

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

inline LocationSpec at(std::size_t i) {
  LocationSpec l;
  l.index = i;
  return l;
}

inline ProblemSpec fixture_spec() {
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

inline Step make_step(StepType type, Id id, std::size_t task, std::size_t location,
                      Duration arrival, Duration setup, Duration service, Duration waiting,
                      Duration duration, Distance distance, std::int64_t load) {
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

inline std::size_t job(const Problem& p, Id id) { return p.find_task(TaskType::Job, id); }

/// The hand-computed solution described above.
inline Solution fixture_solution(const Problem& p) {
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

inline bool has(const ValidationReport& report, ViolationKind kind, const std::string& where) {
  return std::any_of(report.violations.begin(), report.violations.end(),
                     [&](const Violation& v) { return v.kind == kind && v.where == where; });
}

inline bool only_kind(const ValidationReport& report, ViolationKind kind) {
  return !report.violations.empty() &&
         std::all_of(report.violations.begin(), report.violations.end(),
                     [&](const Violation& v) { return v.kind == kind; });
}

inline ValidateOptions figures_off() {
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

}  // namespace routesolve::validator_fixture
