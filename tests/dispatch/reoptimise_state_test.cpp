// The state of a day under way given in the problem: `done` (tasks served, frozen with the steps
// before them), vehicles' current_location / current_load (the route goes on from there, the
// tasks done leave the problem), and bad input naming the JSON path and field.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "grid_instance.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/reoptimise.hpp"
#include "routesolve/solution.hpp"
#include "routesolve/solve.hpp"
#include "routesolve/validator.hpp"

namespace routesolve {
namespace {

/// A depot (location 0), 10 jobs on a grid delivering 1 each, two vehicles of capacity 8.
ProblemSpec day() {
  std::mt19937_64 rng(7);
  ProblemSpec spec;
  spec.matrices["car"].durations = test::manhattan_grid(rng, 10);
  for (std::size_t i = 1; i <= 10; ++i) {
    JobSpec j;
    j.id = i;
    j.location.index = i;
    j.service = 10;
    j.delivery = Amount{1};
    spec.jobs.push_back(j);
  }
  for (Id k = 1; k <= 2; ++k) {
    VehicleSpec v;
    v.id = k;
    v.start = LocationSpec{0, std::nullopt};
    v.end = LocationSpec{0, std::nullopt};
    v.capacity = Amount{8};
    spec.vehicles.push_back(v);
  }
  return spec;
}

SolveOptions fixed_work() {
  SolveOptions o;
  o.backend = BackendKind::Cpu;
  o.seed = 1;
  o.iterations = 300;
  return o;
}

/// Job ids of a route's job steps, in order.
std::vector<Id> jobs_of(const Route& r) {
  std::vector<Id> out;
  for (const Step& s : r.steps)
    if (s.type == StepType::Job) out.push_back(s.id);
  return out;
}

const Route* route_of(const Solution& s, Id vehicle) {
  for (const Route& r : s.routes)
    if (r.vehicle_id == vehicle) return &r;
  return nullptr;
}

struct Planned {
  ProblemPtr problem;
  Solution plan;
  Id vehicle = 0;         ///< the vehicle with the longer route
  std::vector<Id> order;  ///< its jobs in plan order
};

Planned planned() {
  Planned p;
  p.problem = Problem::create(day());
  p.plan = solve(*p.problem, fixed_work());
  const Route* longest = &p.plan.routes.front();
  for (const Route& r : p.plan.routes)
    if (jobs_of(r).size() > jobs_of(*longest).size()) longest = &r;
  p.vehicle = longest->vehicle_id;
  p.order = jobs_of(*longest);
  return p;
}

TEST(ReoptimiseState, DoneTasksAndTheStepsBeforeThemStayFrozen) {
  const Planned p = planned();
  ASSERT_GE(p.order.size(), 3u);
  ProblemSpec spec = day();
  spec.done = {TaskRef{TaskType::Job, p.order[1]}};  // the second: the first is done too
  const ProblemPtr now = Problem::create(std::move(spec));
  ReoptimiseOptions ro;
  ro.now = 0;  // by the plan's times nothing has begun: only `done` freezes
  const Reoptimised r = reoptimise(*now, p.plan, ro, fixed_work());
  EXPECT_EQ(r.problem, nullptr);
  EXPECT_EQ(r.done, 0u);
  EXPECT_EQ(r.frozen_steps, 2u);
  const Route* route = route_of(r.solution, p.vehicle);
  ASSERT_NE(route, nullptr);
  const std::vector<Id> after = jobs_of(*route);
  ASSERT_GE(after.size(), 2u);
  EXPECT_EQ(after[0], p.order[0]);
  EXPECT_EQ(after[1], p.order[1]);
  EXPECT_TRUE(validate(*now, r.solution).ok());
}

TEST(ReoptimiseState, APositionedVehicleGoesOnFromWhereItIsWithoutItsDoneTasks) {
  const Planned p = planned();
  ASSERT_GE(p.order.size(), 3u);
  const std::size_t v = p.problem->find_vehicle(p.vehicle);
  ProblemSpec spec = day();
  spec.done = {TaskRef{TaskType::Job, p.order[0]}, TaskRef{TaskType::Job, p.order[1]}};
  const std::size_t here =
      p.problem->task(p.problem->find_task(TaskType::Job, p.order[2])).location;
  spec.vehicles[v].current_location =
      LocationSpec{here, std::nullopt};  // at its third stop's place
  spec.vehicles[v].current_load = Amount{3};
  const ProblemPtr now = Problem::create(std::move(spec));
  ReoptimiseOptions ro;
  ro.now = 500;
  const Reoptimised r = reoptimise(*now, p.plan, ro, fixed_work());
  ASSERT_NE(r.problem, nullptr);
  EXPECT_EQ(r.done, 2u);
  EXPECT_EQ(r.problem->tasks().size(), p.problem->tasks().size() - 2);
  EXPECT_EQ(r.problem->find_task(TaskType::Job, p.order[0]), kNone);
  EXPECT_TRUE(validate(*r.problem, r.solution).ok());
  EXPECT_TRUE(r.solution.unassigned.empty());
  const Route* route = route_of(r.solution, p.vehicle);
  ASSERT_NE(route, nullptr);
  ASSERT_EQ(route->steps.front().type, StepType::Start);
  EXPECT_EQ(route->steps.front().location, here);
  EXPECT_GE(route->steps.front().arrival, 500);
  // current_load takes room for the whole route: at most 8 - 3 deliveries on board.
  for (const Step& s : route->steps) EXPECT_LE(s.load[0], 5);
  for (const Route& other : r.solution.routes)
    for (Id id : jobs_of(other)) EXPECT_TRUE(id != p.order[0] && id != p.order[1]);
}

TEST(ReoptimiseState, WithoutADoneListThePlanTimesSayWhatAPositionedVehicleDid) {
  const Planned p = planned();
  const std::size_t v = p.problem->find_vehicle(p.vehicle);
  const Route* planned_route = route_of(p.plan, p.vehicle);
  // Now: just after the plan reached its second job.
  Duration now = 0;
  std::size_t jobs = 0;
  for (const Step& s : planned_route->steps)
    if (s.type == StepType::Job && ++jobs == 2) now = s.arrival + 1;
  ProblemSpec spec = day();
  spec.vehicles[v].current_location = LocationSpec{0, std::nullopt};  // back at the depot, say
  const ProblemPtr state = Problem::create(std::move(spec));
  ReoptimiseOptions ro;
  ro.now = now;
  const Reoptimised r = reoptimise(*state, p.plan, ro, fixed_work());
  EXPECT_EQ(r.done, 2u);
  ASSERT_NE(r.problem, nullptr);
  EXPECT_TRUE(validate(*r.problem, r.solution).ok());
}

std::string problem_error(const std::string& extra_top, const std::string& vehicle_extra) {
  const std::string json =
      R"({"jobs":[{"id":1,"location_index":1,"delivery":[1]},{"id":2,"location_index":1,"delivery":[1]}],)"
      R"("vehicles":[{"id":1,"start_index":0,"capacity":[2])" +
      vehicle_extra + R"(}],"matrices":{"car":{"durations":[[0,1],[1,0]]}})" + extra_top + "}";
  try {
    (void)Problem::create(io::parse_vroom_problem(json, "day.json"));
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidInput) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "accepted " << extra_top << vehicle_extra;
  return {};
}

TEST(ReoptimiseStateBadInput, EachFieldNamesItsPath) {
  auto names = [](const std::string& message, const std::string& path) {
    EXPECT_NE(message.find(path), std::string::npos) << message;
  };
  names(problem_error(R"(,"done":[7])", ""), "done[0]");
  names(problem_error(R"(,"done":[1,1])", ""), "done[1]");
  names(problem_error(R"(,"done":"1")", ""), "done");
  names(problem_error(R"(,"done":[{"type":"break","id":1}])", ""), "done[0].type");
  names(problem_error(R"(,"done":[{"type":"pickup","id":1}])", ""), "done[0]");
  names(problem_error(R"(,"done":[{"type":"job"}])", ""), "done[0]");
  names(problem_error(R"(,"done":[true])", ""), "done[0]");
  names(problem_error("", R"(,"current_location_index":5)"), "vehicles[0].current_location");
  names(problem_error("", R"(,"current_location":[1])"), "vehicles[0].current_location");
  names(problem_error("", R"(,"current_load":[3])"), "vehicles[0].current_load[0]");
  names(problem_error("", R"(,"current_load":[-1])"), "vehicles[0].current_load");
  names(problem_error("", R"(,"current_load":[1,1])"), "vehicles[0].current_load");
}

TEST(ReoptimiseStateBadInput, SolveRefusesTheStateOfADayAndReoptimiseNamesADoneTaskOffThePlan) {
  ProblemSpec spec = day();
  spec.done = {TaskRef{TaskType::Job, 3}};
  const ProblemPtr with_done = Problem::create(spec);
  try {
    (void)solve(*with_done, fixed_work());
    ADD_FAILURE() << "solve took a done list";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidInput);
    EXPECT_NE(std::string(e.what()).find("done"), std::string::npos) << e.what();
  }
  ProblemSpec positioned = day();
  positioned.vehicles[1].current_load = Amount{1};
  try {
    (void)solve(*Problem::create(positioned), fixed_work());
    ADD_FAILURE() << "solve took a current_load";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("vehicles[1].current_load"), std::string::npos)
        << e.what();
  }
  // A plan that does not route job 3: done[0] names it.
  const Planned p = planned();
  Solution partial = p.plan;
  for (Route& r : partial.routes)
    std::erase_if(r.steps, [](const Step& s) { return s.type == StepType::Job && s.id == 3; });
  try {
    (void)reoptimise(*with_done, partial, ReoptimiseOptions{}, fixed_work());
    ADD_FAILURE() << "a done task off the plan was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidInput);
    EXPECT_NE(std::string(e.what()).find("done[0]"), std::string::npos) << e.what();
  }
  // A shift over before now.
  ProblemSpec late = day();
  late.vehicles[0].time_window = {0, 100};
  late.vehicles[0].current_location = LocationSpec{0, std::nullopt};
  ReoptimiseOptions ro;
  ro.now = 200;
  try {
    (void)reoptimise(*Problem::create(late), p.plan, ro, fixed_work());
    ADD_FAILURE() << "a shift over before now was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("vehicles[0].current_location"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace routesolve
