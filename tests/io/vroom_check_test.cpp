// Plan mode (check_plan, `routesolve solve --check`): the given steps as whole routes with VROOM's
// violations per step and route, and the independent validator reporting the same constraints at
// the same places.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>

#include "routesolve/io/vroom_json.hpp"
#include "routesolve/plan_check.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/validator.hpp"

namespace routesolve::io {
namespace {

// Locations on a line, 10 s and 100 m per step. Jobs 1..3 at 1..3 (job 3 needs skill 4),
// shipment 7 from 1 to 3, vehicle 1 with two breaks.
std::string plan(const std::string& steps, const std::string& capacity = "5") {
  return R"({"vehicles": [
    {"id": 1, "start_index": 0, "end_index": 0, "capacity": [)" + capacity + R"(], "time_window": [0, 1000],
     "breaks": [{"id": 8, "time_windows": [[30, 1000]], "service": 5, "max_load": [0]}, {"id": 9, "service": 5}],
     "steps": )" + steps + R"(},
    {"id": 2, "start_index": 0, "capacity": [5], "skills": [4], "steps": [{"type": "job", "id": 3}]}],
   "jobs": [
    {"id": 1, "location_index": 1, "delivery": [2]},
    {"id": 2, "location_index": 2, "pickup": [1], "time_windows": [[0, 100]]},
    {"id": 3, "location_index": 3, "skills": [4]}],
   "shipments": [{"amount": [2], "pickup": {"id": 7, "location_index": 1}, "delivery": {"id": 7, "location_index": 3}}],
   "matrices": {"car": {
     "durations": [[0, 10, 20, 30], [10, 0, 10, 20], [20, 10, 0, 10], [30, 20, 10, 0]],
     "distances": [[0, 100, 200, 300], [100, 0, 100, 200], [200, 100, 0, 100], [300, 200, 100, 0]]}}})";
}

using Found = std::set<std::pair<std::string, std::string>>;  // (where, cause)

Found check_mode(const Solution& s) {
  Found out;
  for (std::size_t r = 0; r < s.routes.size(); ++r) {
    const std::string rw = "routes[" + std::to_string(r) + "]";
    for (std::size_t k = 0; k < s.routes[r].steps.size(); ++k)
      for (const PlanViolation& v : s.routes[r].steps[k].violations)
        out.insert({rw + ".steps[" + std::to_string(k) + "]", v.cause});
    for (const PlanViolation& v : s.routes[r].violations)
      if (v.cause == "missing_break" || v.cause == "max_tasks" || v.cause == "max_travel_time" ||
          v.cause == "max_distance")
        out.insert({rw, v.cause});
  }
  return out;
}

/// The validator's findings under VROOM's names; a figure mismatch is a disagreement.
Found validator_mode(const Problem& p, const Solution& s) {
  Found out;
  for (const Violation& v : validate(p, s).violations) {
    std::string cause;
    switch (v.kind) {
      case ViolationKind::TimeWindow:
      case ViolationKind::VehicleTimeWindow:
      case ViolationKind::BreakTimeWindow: cause = "delay"; break;
      case ViolationKind::Capacity: cause = "load"; break;
      case ViolationKind::BreakMaxLoad: cause = "max_load"; break;
      case ViolationKind::Skills: cause = "skills"; break;
      case ViolationKind::ShipmentOrder:
      case ViolationKind::ShipmentSplit: cause = "precedence"; break;
      case ViolationKind::BreakMissing: cause = "missing_break"; break;
      case ViolationKind::MaxTasks: cause = "max_tasks"; break;
      case ViolationKind::MaxTravelTime: cause = "max_travel_time"; break;
      case ViolationKind::MaxDistance: cause = "max_distance"; break;
      default: cause = "mismatch: " + v.message;
    }
    out.insert({v.where, cause});
  }
  return out;
}

TEST(CheckMode, AFeasiblePlanHasNoViolations) {
  const ProblemPtr p = Problem::create(parse_vroom_problem(
      plan(R"([{"type": "start"}, {"type": "pickup", "id": 7}, {"type": "job", "id": 1}, {"type": "delivery", "id": 7},
               {"type": "break", "id": 8}, {"type": "job", "id": 2}, {"type": "break", "id": 9}, {"type": "end"}])"),
      "plan.json"));
  const Solution s = check_plan(*p);
  EXPECT_TRUE(s.checked);
  ASSERT_EQ(s.routes.size(), 2u);
  EXPECT_TRUE(s.summary.violations.empty());
  EXPECT_TRUE(s.unassigned.empty());
  // Break 8 (max_load 0) right after the delivery at 30, when the vehicle is empty.
  EXPECT_EQ(s.routes[0].steps[4].arrival, 30);
  EXPECT_EQ(s.routes[0].steps[5].arrival, 45);
  const ValidationReport report = validate(*p, s);
  EXPECT_TRUE(report.ok()) << report.to_text();
}

TEST(CheckMode, ViolationsPerStepAndRouteAgreeWithTheValidator) {
  // Start load 2 (job 1's delivery) over capacity 1; job 1 begins at 200, so job 2 (window
  // [0, 100]) is 110 late; break 8 is taken with job 2's pickup on board; the delivery of 7 comes
  // before its pickup; break 9 is missing.
  const ProblemPtr p = Problem::create(parse_vroom_problem(
      plan(R"([{"type": "start"}, {"type": "job", "id": 1, "service_after": 200}, {"type": "job", "id": 2},
               {"type": "break", "id": 8}, {"type": "delivery", "id": 7}, {"type": "pickup", "id": 7}])", "1"),
      "plan.json"));
  const Solution s = check_plan(*p);
  const Found mine = check_mode(s);
  const Found expected{{"routes[0].steps[0]", "load"},       {"routes[0].steps[2]", "delay"},
                       {"routes[0].steps[3]", "max_load"},   {"routes[0].steps[4]", "precedence"},
                       {"routes[0].steps[5]", "precedence"}, {"routes[0]", "missing_break"}};
  for (const auto& e : expected) EXPECT_TRUE(mine.count(e)) << e.first << " " << e.second;
  for (const auto& m : mine) EXPECT_TRUE(expected.count(m)) << "unexpected " << m.first << " " << m.second;
  // Job 2 arrives at 210: 110 after its window.
  ASSERT_EQ(s.routes[0].steps[2].violations.front().cause, "delay");
  EXPECT_EQ(s.routes[0].steps[2].violations.front().duration, 110);

  // The validator finds the same constraints (figures all agree).
  Found theirs = validator_mode(*p, s);
  for (const auto& t : theirs) EXPECT_EQ(t.second.rfind("mismatch", 0), std::string::npos) << t.first << ": " << t.second;
  std::set<std::string> mine_causes, their_causes;
  for (const auto& m : mine) mine_causes.insert(m.second);
  for (const auto& t : theirs) their_causes.insert(t.second);
  EXPECT_EQ(mine_causes, their_causes);
  for (const auto& m : mine)
    if (m.second != "precedence" && m.second != "missing_break") {
      EXPECT_TRUE(theirs.count(m)) << m.first << " " << m.second;
    }

  // Written as VROOM writes violations.
  const auto json = nlohmann::json::parse(vroom_solution_to_string(*p, s));
  EXPECT_EQ(json["routes"][0]["steps"][2]["violations"][0]["cause"], "delay");
  EXPECT_EQ(json["routes"][0]["steps"][2]["violations"][0]["duration"], 110);
  EXPECT_FALSE(json["summary"]["violations"].empty());
}

TEST(CheckMode, SkillsAndRouteLimits) {
  std::string text = plan(R"([{"type": "job", "id": 3}, {"type": "job", "id": 1}])");
  text.replace(text.find(R"("steps": [{"type": "job", "id": 3}])"), 35, R"("steps": [])");
  text.replace(text.find(R"("time_window": [0, 1000],)"), 25, R"("time_window": [0, 1000], "max_tasks": 1, "max_travel_time": 20, "max_distance": 50,)");
  const ProblemPtr p = Problem::create(parse_vroom_problem(text, "plan.json"));
  const Solution s = check_plan(*p);
  const Found mine = check_mode(s);
  for (const char* cause : {"max_tasks", "max_travel_time", "max_distance", "missing_break"})
    EXPECT_TRUE(mine.count({"routes[0]", cause})) << cause;
  EXPECT_TRUE(mine.count({"routes[0].steps[1]", "skills"}));
  std::set<std::string> mine_causes, their_causes;
  for (const auto& m : mine) mine_causes.insert(m.second);
  for (const auto& t : validator_mode(*p, s)) their_causes.insert(t.second);
  EXPECT_EQ(mine_causes, their_causes);
}

}  // namespace
}  // namespace routesolve::io
