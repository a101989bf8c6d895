// Vehicle steps (VROOM `vehicles[].steps`): parsing, the checks of Problem::create, of the
// starting solution and of the split of fixed steps into the problem left to solve, each naming
// vehicles[i].steps[k] and the field; the split and the join of a solution of the rest.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "routesolve/error.hpp"
#include "routesolve/fixed_steps.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"
#include "routesolve/validator.hpp"

namespace routesolve::io {
namespace {

using ::testing::HasSubstr;

// Locations on a line, 10 s and 100 m per step. Jobs 1..3 at 1..3, shipment 7 from 1 to 3.
std::string problem_with(const std::string& steps, const std::string& capacity = "5") {
  return R"({"vehicles": [
    {"id": 1, "start_index": 0, "end_index": 0, "capacity": [)" +
         capacity + R"(], "time_window": [0, 1000],
     "breaks": [{"id": 8, "time_windows": [[0, 1000]], "service": 5}, {"id": 9, "service": 5}],
     "steps": )" +
         steps + R"(},
    {"id": 2, "start_index": 0, "capacity": [5], "skills": [4]}],
   "jobs": [
    {"id": 1, "location_index": 1, "delivery": [2]},
    {"id": 2, "location_index": 2, "pickup": [1], "time_windows": [[0, 100]]},
    {"id": 3, "location_index": 3, "skills": [4]}],
   "shipments": [{"amount": [2], "pickup": {"id": 7, "location_index": 1}, "delivery": {"id": 7, "location_index": 3}}],
   "matrices": {"car": {
     "durations": [[0, 10, 20, 30], [10, 0, 10, 20], [20, 10, 0, 10], [30, 20, 10, 0]],
     "distances": [[0, 100, 200, 300], [100, 0, 100, 200], [200, 100, 0, 100], [300, 200, 100, 0]]}}})";
}

std::string error_of(const std::string& json, bool split = false) {
  try {
    const ProblemPtr p = Problem::create(parse_vroom_problem(json, "fleet.json"));
    if (split) {  // what solve() checks: the starting solution, then the fixed prefix
      (void)starting_routes(*p);
      (void)split_steps(*p);
    }
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidInput) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "did not throw";
  return {};
}

TEST(VroomSteps, ParsesTypesIdsAndServiceBounds) {
  const ProblemSpec spec = parse_vroom_problem(
      problem_with(
          R"([{"type": "start"}, {"type": "job", "id": 2, "service_after": 15, "service_before": 90},
                       {"type": "break", "id": 8, "service_at": 40}, {"type": "end"}])"),
      "fleet.json");
  const auto& steps = spec.vehicles[0].steps;
  ASSERT_EQ(steps.size(), 4u);
  EXPECT_EQ(steps[0].type, VehicleStepType::Start);
  EXPECT_EQ(steps[1].type, VehicleStepType::Job);
  EXPECT_EQ(steps[1].id, 2u);
  EXPECT_EQ(steps[1].service_after, 15);
  EXPECT_EQ(steps[1].service_before, 90);
  EXPECT_EQ(steps[2].service_at, 40);
  const ProblemPtr p = Problem::create(spec);
  ASSERT_EQ(p->vehicle(0).steps.size(), 2u);
  // The bounds narrow the windows.
  EXPECT_EQ(p->task(p->find_task(TaskType::Job, 2)).time_windows,
            (std::vector<TimeWindow>{{15, 90}}));
  EXPECT_EQ(p->vehicle(0).breaks[0].time_windows, (std::vector<TimeWindow>{{40, 40}}));
}

TEST(VroomSteps, MalformedStepsNameThePathAndField) {
  auto parse_error = [](const std::string& json) {
    try {
      (void)parse_vroom_problem(json, "fleet.json");
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::InvalidInput);
      return std::string(e.what());
    }
    ADD_FAILURE() << "did not throw";
    return std::string();
  };
  EXPECT_THAT(parse_error(problem_with(R"({"type": "job"})")),
              HasSubstr("fleet.json: vehicles[0].steps: expected"));
  EXPECT_THAT(parse_error(problem_with(R"([{"id": 1}])")),
              HasSubstr("fleet.json: vehicles[0].steps[0].type: missing"));
  EXPECT_THAT(parse_error(problem_with(R"([{"type": "teleport", "id": 1}])")),
              HasSubstr("vehicles[0].steps[0].type: unknown step type \"teleport\""));
  EXPECT_THAT(parse_error(problem_with(R"([{"type": "job"}])")),
              HasSubstr("vehicles[0].steps[0]: missing required field 'id'"));
  EXPECT_THAT(parse_error(problem_with(R"([{"type": "job", "id": 1, "service_at": -3}])")),
              HasSubstr("vehicles[0].steps[0].service_at: expected a non-negative integer"));
  EXPECT_THAT(parse_error(problem_with(R"([{"type": "job", "id": 1, "service_after": "soon"}])")),
              HasSubstr("vehicles[0].steps[0].service_after"));
}

TEST(VroomSteps, InconsistentStepsNameTheStep) {
  EXPECT_THAT(error_of(problem_with(R"([{"type": "job", "id": 5}])")),
              HasSubstr("fleet.json: vehicles[0].steps[0].id: no job 5 in the problem"));
  EXPECT_THAT(error_of(problem_with(R"([{"type": "job", "id": 1}, {"type": "job", "id": 1}])")),
              HasSubstr("vehicles[0].steps[1].id: job 1 is already given as vehicles[0].steps[0]"));
  EXPECT_THAT(error_of(problem_with(R"([{"type": "job", "id": 1}, {"type": "start"}])")),
              HasSubstr("vehicles[0].steps[1].type: a start step must come first"));
  EXPECT_THAT(error_of(problem_with(R"([{"type": "end"}, {"type": "job", "id": 1}])")),
              HasSubstr("vehicles[0].steps[0].type: an end step must come last"));
  EXPECT_THAT(error_of(problem_with(R"([{"type": "break", "id": 3}])")),
              HasSubstr("vehicles[0].steps[0].id: vehicle 1 has no break 3"));
  EXPECT_THAT(error_of(problem_with(R"([{"type": "break", "id": 9}])")),
              HasSubstr("vehicles[0].steps[0].id: break 9 is given before break 8"));
  // What a plan may break (check mode reports it) is refused when solving.
  EXPECT_THAT(error_of(problem_with(R"([{"type": "job", "id": 3}])"), true),
              HasSubstr("vehicles[0].steps[0].id: vehicle 1 lacks the skills of job 3"));
  EXPECT_THAT(
      error_of(problem_with(R"([{"type": "delivery", "id": 7}])"), true),
      HasSubstr("vehicles[0].steps[0].id: delivery 7 is given without its pickup before it"));
  EXPECT_THAT(error_of(problem_with(R"([{"type": "job", "id": 2, "service_at": 150}])")),
              HasSubstr("vehicles[0].steps[0].service_at: service cannot begin in [150, 150] and "
                        "inside the windows [0, 100]"));
}

TEST(VroomSteps, InfeasibleStepsNameTheFirstStepThatFails) {
  // Job 2 must begin by 100: waiting for job 1 until 120 makes it late.
  EXPECT_THAT(
      error_of(problem_with(
                   R"([{"type": "job", "id": 1, "service_after": 120}, {"type": "job", "id": 2}])"),
               true),
      HasSubstr("vehicles[0].steps[1]: the vehicle's steps up to this one cannot be scheduled "
                "(time_window)"));
  // Capacity 2: job 1 empties the vehicle, the shipment's pickup fills it, job 2's pickup is one
  // too many; fixed steps, whose delivery of 7 is left to the rest of the route.
  EXPECT_THAT(
      error_of(
          problem_with(
              R"([{"type": "job", "id": 1}, {"type": "pickup", "id": 7}, {"type": "job", "id": 2, "fixed": true}])",
              "2"),
          true),
      HasSubstr("vehicles[0].steps[2]: the vehicle's steps up to this one cannot be scheduled "
                "(capacity)"));
  // The same as a starting solution, the delivery given after them: refused at the same step.
  EXPECT_THAT(
      error_of(
          problem_with(
              R"([{"type": "job", "id": 1}, {"type": "pickup", "id": 7}, {"type": "job", "id": 2},
                                        {"type": "delivery", "id": 7}])",
              "2"),
          true),
      HasSubstr("vehicles[0].steps[2]: the vehicle's steps up to this one cannot be scheduled "
                "(capacity)"));
  // A starting solution is a whole route: a pickup needs its delivery after it (VROOM's "Invalid
  // shipment in route"); fixed steps may leave it to the search.
  EXPECT_THAT(
      error_of(problem_with(R"([{"type": "job", "id": 1}, {"type": "pickup", "id": 7}])"), true),
      HasSubstr("vehicles[0].steps[1].id: pickup 7 is given without its delivery after it on this "
                "vehicle"));
  EXPECT_EQ(
      Problem::create(
          parse_vroom_problem(problem_with(R"([{"type": "pickup", "id": 7, "fixed": true}])"), "f"))
          ->vehicle(0)
          .fixed_steps,
      1u);
  // A malformed flag names its path.
  try {
    (void)parse_vroom_problem(problem_with(R"([{"type": "job", "id": 1, "fixed": "yes"}])"),
                              "fleet.json");
    ADD_FAILURE() << "did not throw";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("vehicles[0].steps[0].fixed: expected true or false"));
  }
}

TEST(VroomSteps, FixedMarksThePrefixUpToTheLastFixedStep) {
  const ProblemPtr p = Problem::create(parse_vroom_problem(
      problem_with(
          R"([{"type": "start"}, {"type": "job", "id": 1}, {"type": "break", "id": 8, "fixed": true},
                       {"type": "job", "id": 2}, {"type": "pickup", "id": 7}, {"type": "delivery", "id": 7}])"),
      "fleet.json"));
  const Vehicle& v = p->vehicle(0);
  ASSERT_EQ(v.steps.size(), 5u);
  EXPECT_EQ(v.fixed_steps, 2u);  // job 1 and break 8: job 1 comes before the fixed break
  EXPECT_TRUE(v.steps[0].fixed);
  EXPECT_FALSE(v.steps[2].fixed);
  // The starting solution: the tasks after the prefix, in order.
  const auto start = starting_routes(*p);
  ASSERT_EQ(start.size(), 2u);
  EXPECT_EQ(start[0], (std::vector<std::size_t>{p->find_task(TaskType::Job, 2),
                                                p->find_task(TaskType::Pickup, 7),
                                                p->find_task(TaskType::Delivery, 7)}));
  EXPECT_TRUE(start[1].empty());
  // In the rest's indices, the prefix's tasks gone.
  const StepSplit split = split_steps(*p);
  const ProblemPtr rest = Problem::create(split.rest);
  const auto in_rest = rest_routes(*p, split, *rest, start);
  EXPECT_EQ(in_rest[0], (std::vector<std::size_t>{rest->find_task(TaskType::Job, 2),
                                                  rest->find_task(TaskType::Pickup, 7),
                                                  rest->find_task(TaskType::Delivery, 7)}));
  EXPECT_EQ(rest->find_task(TaskType::Job, 1), kNone);
}

TEST(VroomSteps, SplitAndJoinKeepTheStepsInFront) {
  // Steps: job 1, break 8 at 20, pickup 7. The rest: job 2 and the delivery of 7 (vehicle 1
  // only), job 3 (vehicle 2's skills).
  const ProblemPtr p = Problem::create(parse_vroom_problem(
      problem_with(
          R"([{"type": "start"}, {"type": "job", "id": 1}, {"type": "break", "id": 8, "service_at": 20},
                       {"type": "pickup", "id": 7, "fixed": true}])"),
      "fleet.json"));
  const StepSplit split = split_steps(*p);
  const ProblemPtr rest = Problem::create(split.rest);
  ASSERT_EQ(split.rest.jobs.size(), 3u);  // jobs 2, 3 and the open delivery of 7
  EXPECT_TRUE(split.rest.shipments.empty());
  const VehicleSpec& v1 = split.rest.vehicles[0];
  EXPECT_EQ(v1.start->index, 1u);
  EXPECT_EQ(v1.time_window.start, 25);  // job 1 at 10, waits for the break at 20, break until 25
  EXPECT_EQ(v1.breaks.size(), 1u);      // break 9 is left to place
  EXPECT_EQ(v1.capacity[0], 3);         // the steps peak at 2 (job 1's delivery, then the pickup)
  EXPECT_EQ(v1.costs.fixed, 0);
  const std::size_t open = rest->find_task(TaskType::Job, 4);  // the open delivery's fresh id
  ASSERT_NE(open, kNone);
  EXPECT_TRUE(rest->compatible(0, open));
  EXPECT_FALSE(rest->compatible(1, open));

  // A solution of the rest: vehicle 1 delivers 7, vehicle 2 serves job 3, job 2 is left out.
  std::vector<Route> routes;
  routes.push_back(schedule_route(*rest, 0, {open}).route);
  routes.push_back(schedule_route(*rest, 1, {rest->find_task(TaskType::Job, 3)}).route);
  std::vector<Unassigned> unassigned{
      {rest->find_task(TaskType::Job, 2), 2, TaskType::Job, UnassignedReason::NotRouted}};
  const Solution joined = join_steps(*p, split, *rest, make_solution(*rest, routes, unassigned));
  const ValidationReport report = validate(*p, joined);
  EXPECT_TRUE(report.ok()) << report.to_text();
  ASSERT_EQ(joined.routes.size(), 2u);
  const Route& r = joined.routes[0];
  ASSERT_GE(r.steps.size(), 6u);
  EXPECT_EQ(r.steps[1].id, 1u);
  EXPECT_EQ(r.steps[2].type, StepType::Break);
  EXPECT_EQ(r.steps[2].arrival + r.steps[2].waiting_time, 20);
  EXPECT_EQ(r.steps[3].type, StepType::Pickup);
  EXPECT_EQ(r.steps[4].type, StepType::Delivery);
  EXPECT_EQ(r.steps[4].id, 7u);
  ASSERT_EQ(joined.unassigned.size(), 1u);
  EXPECT_EQ(joined.unassigned[0].id, 2u);
}

}  // namespace
}  // namespace routesolve::io
