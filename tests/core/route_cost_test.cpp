// A route's reported cost under both rules (ProblemSpec::route_costs): the exact sum of its arcs,
// or VROOM's figure (the whole route's travel and distance priced once, rounded to the unit: half
// up where VROOM schedules in time, down otherwise). schedule_route writes the rule's figure and
// the validator recomputes the same one, so a route carrying the other rule's figure fails.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"
#include "routesolve/validator.hpp"
#include "spec_builders.hpp"

namespace routesolve {
namespace {

using namespace test;

// 0 -> 1 -> 2 -> 0 on the line: 40 s and 400 m. At 1500 per hour and 150 per km that is
// 16.667 + 60 = 76.667 cost units of travel, plus 100 fixed.
ProblemSpec priced_spec(RouteCostRule rule, bool windowed) {
  ProblemSpec spec = line_spec(3);
  spec.route_costs = rule;
  spec.jobs = {job(1, 1), job(2, 2)};
  if (windowed) spec.jobs[0].time_windows = {TimeWindow{0, 1000}};
  VehicleSpec v = vehicle(7, 0, 0);
  v.costs = VehicleCosts{100, 1500, 150};
  spec.vehicles = {v};
  return spec;
}

Solution solved(const Problem& p) {
  const ScheduleResult r = schedule_route(p, 0, {0, 1});
  EXPECT_TRUE(r.feasible);
  return make_solution(p, {r.route}, {});
}

bool has_cost_mismatch(const ValidationReport& report) {
  for (const Violation& v : report.violations)
    if (v.kind == ViolationKind::CostMismatch) return true;
  return false;
}

double user_cost(const Problem& p, Cost internal) {
  return static_cast<double>(internal) / p.cost_scale();
}

TEST(RouteCost, ArcSumIsTheExactSumOfTheArcs) {
  const auto p = Problem::create(priced_spec(RouteCostRule::ArcSum, true));
  Solution s = solved(*p);
  EXPECT_NEAR(user_cost(*p, s.routes[0].cost), 100 + 40 * 1500 / 3600.0 + 60, 1e-9);
  EXPECT_FALSE(p->rounds_route_costs());
  EXPECT_TRUE(validate(*p, s).ok()) << validate(*p, s).to_text();
  // VROOM's figure (177) is not this rule's.
  s.routes[0].cost = s.summary.cost = 177 * static_cast<Cost>(p->cost_scale());
  EXPECT_TRUE(has_cost_mismatch(validate(*p, s)));
}

TEST(RouteCost, VroomRoundsHalfUpWhereItSchedulesInTime) {
  const auto p = Problem::create(priced_spec(RouteCostRule::Vroom, true));
  Solution s = solved(*p);
  EXPECT_EQ(user_cost(*p, s.routes[0].cost), 177.0);  // 100 + round(76.667)
  EXPECT_EQ(s.summary.cost, s.routes[0].cost);
  EXPECT_TRUE(validate(*p, s).ok()) << validate(*p, s).to_text();
  // The exact arc sum (176.667), which VROOM never reports, fails.
  const auto exact = Problem::create(priced_spec(RouteCostRule::ArcSum, true));
  s.routes[0].cost = s.summary.cost = solved(*exact).routes[0].cost;
  const ValidationReport report = validate(*p, s);
  EXPECT_TRUE(has_cost_mismatch(report));
  EXPECT_NE(report.to_text().find("rounded as VROOM"), std::string::npos) << report.to_text();
}

TEST(RouteCost, VroomTruncatesWithoutWindowsOrBreaks) {
  // VROOM's CVRP (no window, no break anywhere) truncates the exact sum: 100 + 76.
  const auto p = Problem::create(priced_spec(RouteCostRule::Vroom, false));
  Solution s = solved(*p);
  EXPECT_EQ(user_cost(*p, s.routes[0].cost), 176.0);
  EXPECT_TRUE(validate(*p, s).ok()) << validate(*p, s).to_text();
  s.routes[0].cost = s.summary.cost = 177 * static_cast<Cost>(p->cost_scale());
  EXPECT_TRUE(has_cost_mismatch(validate(*p, s)));
}

TEST(RouteCost, VroomRoundsHalfUpWithABreakOrAVehicleWindow) {
  ProblemSpec with_break = priced_spec(RouteCostRule::Vroom, false);
  with_break.vehicles[0].breaks = {break_spec(1, 5)};
  ProblemSpec with_shift = priced_spec(RouteCostRule::Vroom, false);
  with_shift.vehicles[0].time_window = TimeWindow{0, 5000};
  for (ProblemSpec spec : {with_break, with_shift}) {
    const auto p = Problem::create(std::move(spec));
    const Solution s = solved(*p);
    EXPECT_EQ(user_cost(*p, s.routes[0].cost), 177.0);
    EXPECT_TRUE(validate(*p, s).ok()) << validate(*p, s).to_text();
  }
}

TEST(RouteCost, CostsMatrixIsTheArcSumUnderEitherRule) {
  for (RouteCostRule rule : {RouteCostRule::ArcSum, RouteCostRule::Vroom}) {
    ProblemSpec spec = priced_spec(rule, true);
    spec.vehicles[0].costs = VehicleCosts{100, 3600, 0};
    Matrix costs(3);
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t j = 0; j < 3; ++j)
        costs(i, j) = static_cast<std::int64_t>(3 * (i + j) + (i != j));
    spec.matrices["car"].costs = costs;
    const auto p = Problem::create(std::move(spec));
    const Solution s = solved(*p);
    EXPECT_EQ(user_cost(*p, s.routes[0].cost), 100.0 + (3 * 1 + 1) + (3 * 3 + 1) + (3 * 2 + 1));
    EXPECT_TRUE(validate(*p, s).ok()) << validate(*p, s).to_text();
  }
}

}  // namespace
}  // namespace routesolve
