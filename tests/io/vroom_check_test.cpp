// Plan mode (check_plan, `routesolve solve --check`): the given steps as whole routes with VROOM's
// violations per step and route, and the independent validator reporting the same constraints at
// the same places.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>

#include "routesolve/error.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "routesolve/plan_check.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/validator.hpp"
#include "test_support.hpp"

namespace routesolve::io {
namespace {

// Locations on a line, 10 s and 100 m per step. Jobs 1..3 at 1..3 (job 3 needs skill 4),
// shipment 7 from 1 to 3, vehicle 1 with two breaks.
std::string plan(const std::string& steps, const std::string& capacity = "5") {
  return R"({"vehicles": [
    {"id": 1, "start_index": 0, "end_index": 0, "capacity": [)" +
         capacity + R"(], "time_window": [0, 1000],
     "breaks": [{"id": 8, "time_windows": [[30, 1000]], "service": 5, "max_load": [0]}, {"id": 9, "service": 5}],
     "steps": )" +
         steps + R"(},
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
      case ViolationKind::BreakTimeWindow:
        cause = "delay";
        break;
      case ViolationKind::Capacity:
        cause = "load";
        break;
      case ViolationKind::BreakMaxLoad:
        cause = "max_load";
        break;
      case ViolationKind::Skills:
        cause = "skills";
        break;
      case ViolationKind::ShipmentOrder:
      case ViolationKind::ShipmentSplit:
        cause = "precedence";
        break;
      case ViolationKind::BreakMissing:
        cause = "missing_break";
        break;
      case ViolationKind::MaxTasks:
        cause = "max_tasks";
        break;
      case ViolationKind::MaxTravelTime:
        cause = "max_travel_time";
        break;
      case ViolationKind::MaxDistance:
        cause = "max_distance";
        break;
      default:
        cause = "mismatch: " + v.message;
    }
    out.insert({v.where, cause});
  }
  return out;
}

TEST(CheckMode, AFeasiblePlanHasNoViolations) {
  const ProblemPtr p = Problem::create(parse_vroom_problem(
      plan(
          R"([{"type": "start"}, {"type": "pickup", "id": 7}, {"type": "job", "id": 1}, {"type": "delivery", "id": 7},
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
      plan(
          R"([{"type": "start"}, {"type": "job", "id": 1, "service_after": 200}, {"type": "job", "id": 2},
               {"type": "break", "id": 8}, {"type": "delivery", "id": 7}, {"type": "pickup", "id": 7}])",
          "1"),
      "plan.json"));
  const Solution s = check_plan(*p);
  const Found mine = check_mode(s);
  const Found expected{{"routes[0].steps[0]", "load"},       {"routes[0].steps[2]", "delay"},
                       {"routes[0].steps[3]", "max_load"},   {"routes[0].steps[4]", "precedence"},
                       {"routes[0].steps[5]", "precedence"}, {"routes[0]", "missing_break"}};
  for (const auto& e : expected) EXPECT_TRUE(mine.count(e)) << e.first << " " << e.second;
  for (const auto& m : mine)
    EXPECT_TRUE(expected.count(m)) << "unexpected " << m.first << " " << m.second;
  // Job 2 arrives at 210: 110 after its window.
  ASSERT_EQ(s.routes[0].steps[2].violations.front().cause, "delay");
  EXPECT_EQ(s.routes[0].steps[2].violations.front().duration, 110);

  // The validator finds the same constraints (figures all agree).
  Found theirs = validator_mode(*p, s);
  for (const auto& t : theirs)
    EXPECT_EQ(t.second.rfind("mismatch", 0), std::string::npos) << t.first << ": " << t.second;
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
  text.replace(
      text.find(R"("time_window": [0, 1000],)"), 25,
      R"("time_window": [0, 1000], "max_tasks": 1, "max_travel_time": 20, "max_distance": 50,)");
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

// VROOM's docs/example_3.json with a great-circle matrix written in
// (tests/data/vroom_example_3.json): every figure below is what `vroom -c` (VROOM 1.15,
// pyvroom 1.15.2) writes for that file. Vehicle 2 starts at its start step's service_after, 800 s
// before its window (lead_time), and is late at job 3 and at its end; vehicle 1 carries 7 for a
// capacity of 4.
TEST(CheckMode, VroomExample3AsVroomChecksIt) {
  ProblemSpec spec =
      read_vroom_problem((test::source_dir() / "tests/data/vroom_example_3.json").string());
  spec.plan = true;
  const Solution s = check_plan(*Problem::create(std::move(spec)));
  struct Expected {
    Duration arrival, waiting, duration;
    Distance distance;
    std::vector<PlanViolation> violations;
  };
  const std::vector<std::vector<Expected>> expected{
      {{1600416000, 0, 0, 0, {{"load", 0}}},
       {1600417912, 0, 1912, 26560, {{"load", 0}}},
       {1600418972, 0, 2672, 37122, {}},
       {1600420584, 0, 3984, 55343, {}},
       {1600421922, 0, 5022, 69762, {}}},
      {{1600415200, 0, 0, 0, {{"lead_time", 800}}},
       {1600418441, 0, 3241, 45019, {}},
       {1600422310, 0, 6810, 94585, {}},
       {1600423817, 0, 8017, 111342, {{"delay", 617}}},
       {1600426997, 0, 10897, 151348, {{"delay", 197}}}}};
  ASSERT_EQ(s.routes.size(), 2u);
  for (std::size_t r = 0; r < 2; ++r) {
    ASSERT_EQ(s.routes[r].steps.size(), expected[r].size());
    for (std::size_t k = 0; k < expected[r].size(); ++k) {
      const Step& st = s.routes[r].steps[k];
      const Expected& e = expected[r][k];
      EXPECT_EQ(st.arrival, e.arrival) << r << " " << k;
      EXPECT_EQ(st.waiting_time, e.waiting) << r << " " << k;
      EXPECT_EQ(st.duration, e.duration) << r << " " << k;
      EXPECT_EQ(st.distance, e.distance) << r << " " << k;
      EXPECT_EQ(st.violations, e.violations) << r << " " << k;
    }
  }
  EXPECT_EQ(s.routes[0].cost, 5022);
  EXPECT_EQ(s.routes[1].cost, 10897);
  const std::vector<PlanViolation> route2{{"lead_time", 800}, {"delay", 814}};
  EXPECT_EQ(s.routes[1].violations, route2);
  const std::vector<PlanViolation> summary{{"load", 0}, {"lead_time", 800}, {"delay", 814}};
  EXPECT_EQ(s.summary.violations, summary);
}

// Windows are soft: a job served before its window reports lead_time (service_at is hard); the
// start leaves as late as it may. Every figure is `vroom -c`'s on the same file.
TEST(CheckMode, LeadTimeAndTheNearerWindow) {
  ProblemSpec spec = parse_vroom_problem(R"({"vehicles": [
    {"id": 1, "start_index": 0, "end_index": 0, "time_window": [0, 10000],
     "steps": [{"type": "job", "id": 1, "service_at": 400}, {"type": "job", "id": 2}]}],
   "jobs": [{"id": 1, "location_index": 1, "time_windows": [[500, 600]]},
            {"id": 2, "location_index": 2, "time_windows": [[100, 200], [1000, 1100]]}],
   "matrices": {"car": {"durations": [[0, 100, 200], [100, 0, 100], [200, 100, 0]]}}})",
                                         "lead.json");
  spec.plan = true;  // for solving, service_at 400 outside the window [500, 600] is refused
  const Solution s = check_plan(*Problem::create(std::move(spec)));
  ASSERT_EQ(s.routes.size(), 1u);
  const Route& r = s.routes[0];
  EXPECT_EQ(r.steps[0].arrival, 300);  // leaves as late as service_at 400 allows
  EXPECT_EQ(r.steps[1].arrival, 400);
  EXPECT_EQ(r.steps[1].violations, (std::vector<PlanViolation>{{"lead_time", 100}}));
  // Job 2 reached at 500, between [100, 200] and [1000, 1100]: waiting for the second window
  // costs makespan only, which comes after violations (`vroom -c` gives the same).
  EXPECT_EQ(r.steps[2].arrival, 500);
  EXPECT_EQ(r.steps[2].waiting_time, 500);
  EXPECT_TRUE(r.steps[2].violations.empty());
  EXPECT_EQ(r.steps[3].arrival, 1200);
}

// Bounds that cannot all hold are an input error naming the step, as VROOM's "Infeasible route".
TEST(CheckMode, ImpossibleServiceBoundsNameTheStep) {
  const ProblemPtr p = Problem::create(parse_vroom_problem(R"({"vehicles": [
    {"id": 1, "start_index": 0,
     "steps": [{"type": "job", "id": 1, "service_after": 500}, {"type": "job", "id": 2, "service_before": 550}]}],
   "jobs": [{"id": 1, "location_index": 1}, {"id": 2, "location_index": 2}],
   "matrices": {"car": {"durations": [[0, 100, 200], [100, 0, 100], [200, 100, 0]]}}})",
                                                           "bounds.json"));
  try {
    (void)check_plan(*p);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidInput);
    EXPECT_NE(std::string(e.what()).find("vehicles[0].steps[1]"), std::string::npos) << e.what();
  }
}

// VROOM bounds every start by its planning horizon (the windows of the vehicle and the steps,
// widened by the lead and delay it allows): a service_after past it or a service_before before it
// is an infeasible route there, and is refused here the same way (`vroom -c` refuses these three
// and accepts the other two).
TEST(CheckMode, ServiceBoundsOutsideTheHorizonAreRefusedAsVroomDoes) {
  auto check = [](const std::string& bound) {
    ProblemSpec spec =
        parse_vroom_problem(R"({"vehicles": [{"id": 1, "start_index": 0, "end_index": 0,
       "steps": [{"type": "job", "id": 1, )" +
                                bound + R"(}, {"type": "job", "id": 2}]}],
     "jobs": [{"id": 1, "location_index": 1, "time_windows": [[100, 200]]},
              {"id": 2, "location_index": 2, "time_windows": [[300, 400]]}],
     "matrices": {"car": {"durations": [[0, 10, 20], [10, 0, 10], [20, 10, 0]]}}})",
                            "horizon.json");
    spec.plan = true;  // in solving mode a bound outside the task's windows is refused anyway
    return Problem::create(std::move(spec));
  };
  for (const char* bound :
       {R"("service_after": 5000)", R"("service_after": 415)", R"("service_before": 60)"}) {
    const ProblemPtr p = check(bound);
    try {
      (void)check_plan(*p);
      ADD_FAILURE() << bound << ": expected an error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::InvalidInput);
      EXPECT_NE(std::string(e.what()).find("vehicles[0].steps[0]"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("planning horizon"), std::string::npos) << e.what();
    }
  }
  const Solution late = check_plan(*check(R"("service_after": 150)"));
  ASSERT_EQ(late.routes.size(), 1u);
  EXPECT_EQ(late.routes[0].steps[1].arrival, 200);  // as vroom -c
  const Solution early = check_plan(*check(R"("service_before": 90)"));
  ASSERT_EQ(early.routes.size(), 1u);
  EXPECT_EQ(early.routes[0].steps[1].arrival, 90);  // as vroom -c
}

// VROOM bounds the start by the next step's bound less the whole first leg, even when that step is
// a break taken before the leg is driven: with the break before 400 and a 50 s leg, `vroom -c`
// leaves at 350, not 400, and so does plan mode.
TEST(CheckMode, StartBeforeABreakIsBoundedByTheWholeFirstLeg) {
  ProblemSpec spec =
      parse_vroom_problem(R"({"vehicles": [{"id": 1, "start_index": 0, "end_index": 0,
     "time_window": [0, 10000], "breaks": [{"id": 10, "service": 100, "time_windows": [[0, 500]]}],
     "steps": [{"type": "break", "id": 10, "service_before": 400}, {"type": "job", "id": 1}]}],
   "jobs": [{"id": 1, "location_index": 1, "time_windows": [[1000, 1100]]}],
   "matrices": {"car": {"durations": [[0, 50], [50, 0]]}}})",
                          "break-first.json");
  spec.plan = true;
  const Solution s = check_plan(*Problem::create(std::move(spec)));
  ASSERT_EQ(s.routes.size(), 1u);
  const Route& r = s.routes[0];
  ASSERT_EQ(r.steps.size(), 4u);
  EXPECT_EQ(r.steps[0].arrival, 350);
  EXPECT_EQ(r.steps[1].arrival, 350);
  EXPECT_EQ(r.steps[2].arrival, 500);
  EXPECT_EQ(r.steps[2].waiting_time, 500);
  EXPECT_EQ(r.steps[3].arrival, 1050);
  EXPECT_TRUE(r.violations.empty());
}

// An unknown field of a step is refused with its path (a misspelt bound would be lost).
TEST(CheckMode, UnknownStepFieldIsRefused) {
  try {
    (void)parse_vroom_problem(R"({"vehicles": [{"id": 1, "start_index": 0,
      "steps": [{"type": "job", "id": 1, "service_aftr": 5}]}], "jobs": [{"id": 1, "location_index": 0}],
      "matrices": {"car": {"durations": [[0]]}}})",
                              "field.json");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidInput);
    EXPECT_NE(std::string(e.what()).find("vehicles[0].steps[0].service_aftr"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace routesolve::io
