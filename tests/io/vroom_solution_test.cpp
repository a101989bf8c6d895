// VROOM solution JSON: writer and parser round trips, scaled units, unknown ids kept for the
// validator, plain VROOM output; reading files and detecting formats.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "routesolve/error.hpp"
#include "routesolve/io/formats.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "routesolve/plan_check.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"
#include "routesolve/validator.hpp"
#include "test_support.hpp"

namespace routesolve::io {
namespace {

using ::testing::HasSubstr;

// ---- solutions -------------------------------------------------------------------------------

constexpr const char* kRouteProblem = R"({
  "vehicles": [
    {"id": 4, "start": [0.0, 0.0], "start_index": 0, "end_index": 0, "capacity": [10],
     "time_window": [0, 10000], "description": "van",
     "breaks": [{"id": 40, "time_windows": [[0, 10000]], "service": 15, "description": "coffee"}]},
    {"id": 5, "start_index": 0, "capacity": [10]}
  ],
  "jobs": [
    {"id": 1, "location": [0.0, 1.0], "location_index": 1, "service": 10, "delivery": [3], "description": "j1"},
    {"id": 2, "location_index": 2, "service": 20, "setup": 5, "pickup": [2], "time_windows": [[100, 400]]},
    {"id": 3, "location_index": 3, "skills": [99], "delivery": [1]}
  ],
  "shipments": [
    {"pickup": {"id": 6, "location_index": 3, "service": 5}, "delivery": {"id": 6, "location_index": 1, "service": 5},
     "amount": [4]}
  ],
  "matrices": {"car": {
    "durations": [[0,30,40,50],[30,0,20,30],[40,20,0,10],[50,30,10,0]],
    "distances": [[0,300,400,500],[300,0,200,300],[400,200,0,100],[500,300,100,0]]}}
})";

// Problem + solution: vehicle 4 serves job 1, the shipment and job 2; job 3 has no compatible
// vehicle.
struct Fixture {
  ProblemPtr problem;
  Solution solution;
};

Fixture route_fixture(const ProblemSpec& spec) {
  Fixture f;
  f.problem = Problem::create(spec);
  const Problem& p = *f.problem;
  const std::vector<std::size_t> order{
      p.find_task(TaskType::Job, 1), p.find_task(TaskType::Pickup, 6),
      p.find_task(TaskType::Delivery, 6), p.find_task(TaskType::Job, 2)};
  const ScheduleResult r = schedule_route(p, p.find_vehicle(4), order);
  EXPECT_TRUE(r.feasible);
  Unassigned u;
  u.task = p.find_task(TaskType::Job, 3);
  u.id = 3;
  u.type = TaskType::Job;
  u.reason = UnassignedReason::NoCompatibleVehicle;
  f.solution = make_solution(p, {r.route}, {u});
  f.solution.backend = "cpu";
  f.solution.profile = {{"loading", 0.002}, {"solving", 0.125}};
  return f;
}

void expect_same_solution(const Solution& a, const Solution& b) {
  ASSERT_EQ(a.routes.size(), b.routes.size());
  for (std::size_t i = 0; i < a.routes.size(); ++i) {
    const Route& x = a.routes[i];
    const Route& y = b.routes[i];
    SCOPED_TRACE("route " + std::to_string(i));
    EXPECT_EQ(x.vehicle, y.vehicle);
    EXPECT_EQ(x.vehicle_id, y.vehicle_id);
    EXPECT_EQ(x.cost, y.cost);
    EXPECT_EQ(x.setup, y.setup);
    EXPECT_EQ(x.service, y.service);
    EXPECT_EQ(x.duration, y.duration);
    EXPECT_EQ(x.waiting_time, y.waiting_time);
    EXPECT_EQ(x.distance, y.distance);
    EXPECT_EQ(x.delivery, y.delivery);
    EXPECT_EQ(x.pickup, y.pickup);
    EXPECT_EQ(x.priority, y.priority);
    ASSERT_EQ(x.steps.size(), y.steps.size());
    for (std::size_t k = 0; k < x.steps.size(); ++k) {
      SCOPED_TRACE("step " + std::to_string(k));
      const Step& s = x.steps[k];
      const Step& t = y.steps[k];
      EXPECT_EQ(s.type, t.type);
      if (s.type != StepType::Start && s.type != StepType::End) {
        EXPECT_EQ(s.id, t.id);
      }
      EXPECT_EQ(s.task, t.task);
      EXPECT_EQ(s.location, t.location);
      EXPECT_EQ(s.arrival, t.arrival);
      EXPECT_EQ(s.setup, t.setup);
      EXPECT_EQ(s.service, t.service);
      EXPECT_EQ(s.waiting_time, t.waiting_time);
      EXPECT_EQ(s.duration, t.duration);
      EXPECT_EQ(s.distance, t.distance);
      EXPECT_EQ(s.load, t.load);
    }
  }
  ASSERT_EQ(a.unassigned.size(), b.unassigned.size());
  for (std::size_t i = 0; i < a.unassigned.size(); ++i) {
    EXPECT_EQ(a.unassigned[i].task, b.unassigned[i].task);
    EXPECT_EQ(a.unassigned[i].id, b.unassigned[i].id);
    EXPECT_EQ(a.unassigned[i].type, b.unassigned[i].type);
    EXPECT_EQ(a.unassigned[i].reason, b.unassigned[i].reason);
  }
  EXPECT_EQ(a.summary.cost, b.summary.cost);
  EXPECT_EQ(a.summary.routes, b.summary.routes);
  EXPECT_EQ(a.summary.unassigned, b.summary.unassigned);
  EXPECT_EQ(a.summary.setup, b.summary.setup);
  EXPECT_EQ(a.summary.service, b.summary.service);
  EXPECT_EQ(a.summary.duration, b.summary.duration);
  EXPECT_EQ(a.summary.waiting_time, b.summary.waiting_time);
  EXPECT_EQ(a.summary.distance, b.summary.distance);
  EXPECT_EQ(a.summary.delivery, b.summary.delivery);
  EXPECT_EQ(a.summary.pickup, b.summary.pickup);
  EXPECT_EQ(a.summary.priority, b.summary.priority);
  EXPECT_EQ(a.backend, b.backend);
}

TEST(VroomSolution, WriterThenParserRoundTrip) {
  const Fixture f = route_fixture(parse_vroom_problem(kRouteProblem, "rt.json"));
  const Problem& p = *f.problem;
  ASSERT_EQ(f.solution.routes.size(), 1u);

  const std::string text = vroom_solution_to_string(p, f.solution);
  const auto json = nlohmann::json::parse(text);
  EXPECT_EQ(json["code"], 0);
  EXPECT_EQ(json["backend"], "cpu");
  EXPECT_TRUE(json["summary"]["cost"].is_number_integer());
  EXPECT_EQ(json["summary"]["computing_times"]["solving"], 125);
  EXPECT_EQ(json["summary"]["unassigned"], 1);
  EXPECT_EQ(json["unassigned"][0]["id"], 3);
  EXPECT_EQ(json["unassigned"][0]["type"], "job");
  EXPECT_EQ(json["unassigned"][0]["location_index"], 3);
  EXPECT_EQ(json["unassigned"][0]["reason"],
            std::string(to_string(UnassignedReason::NoCompatibleVehicle)));
  const auto& route = json["routes"][0];
  EXPECT_EQ(route["vehicle"], 4);
  EXPECT_EQ(route["description"], "van");
  EXPECT_TRUE(route.contains("distance"));
  const auto& steps = route["steps"];
  EXPECT_EQ(steps.front()["type"], "start");
  EXPECT_EQ(steps.front()["location"], nlohmann::json::array({0.0, 0.0}));
  EXPECT_EQ(steps.back()["type"], "end");
  bool saw_break = false, saw_job1 = false;
  for (const auto& s : steps) {
    EXPECT_TRUE(s.contains("arrival") && s.contains("duration") && s.contains("load") &&
                s.contains("distance"));
    if (s["type"] == "break") {
      saw_break = true;
      EXPECT_EQ(s["id"], 40);
      EXPECT_EQ(s["description"], "coffee");
    }
    if (s["type"] == "job" && s["id"] == 1) {
      saw_job1 = true;
      EXPECT_EQ(s["location"], nlohmann::json::array({0.0, 1.0}));
      EXPECT_EQ(s["location_index"], 1);
      EXPECT_EQ(s["description"], "j1");
    }
  }
  EXPECT_TRUE(saw_break);
  EXPECT_TRUE(saw_job1);

  const Solution back = parse_vroom_solution(text, "out.json", p);
  expect_same_solution(f.solution, back);
  ASSERT_EQ(back.profile.size(), 2u);
  EXPECT_EQ(back.profile[1].stage, "solving");
  EXPECT_DOUBLE_EQ(back.profile[1].seconds, 0.125);
  const ValidationReport report = validate(p, back);
  EXPECT_TRUE(report.ok()) << report.to_text();
}

// A route without a start (end) location gets a start (end) step at its first (last) task, as
// VROOM writes it: the start when the route begins with the load it leaves with, the end when the
// last step is done. The figures are `vroom -c`'s on the same file.
TEST(VroomSolution, OpenRoutesGetStartAndEndStepsAtTheirTasks) {
  // The break first, then the pickup first: the start's load is the load before either.
  for (const char* steps :
       {R"([{"type": "break", "id": 5}, {"type": "job", "id": 2}, {"type": "job", "id": 1}])",
        R"([{"type": "job", "id": 2}, {"type": "break", "id": 5}, {"type": "job", "id": 1}])"}) {
    ProblemSpec spec = parse_vroom_problem(std::string(R"({"vehicles": [
    {"id": 1, "end_index": 0, "capacity": [10], "time_window": [0, 10000],
     "breaks": [{"id": 5, "service": 30, "time_windows": [[0, 20]]}],
     "steps": )") + steps + R"(},
    {"id": 2, "start_index": 0, "capacity": [10], "steps": [{"type": "job", "id": 3}]}],
   "jobs": [{"id": 1, "location_index": 1, "service": 40, "delivery": [3], "time_windows": [[100, 200]]},
            {"id": 2, "location_index": 2, "service": 15, "pickup": [2], "setup": 5},
            {"id": 3, "location_index": 1, "service": 25, "delivery": [4]}],
   "matrices": {"car": {"durations": [[0, 50, 60], [50, 0, 70], [60, 70, 0]],
                        "distances": [[0, 500, 600], [500, 0, 700], [600, 700, 0]]}}})",
                                           "open.json");
    SCOPED_TRACE(steps);
    spec.plan = true;
    const ProblemPtr p = Problem::create(std::move(spec));
    const nlohmann::json out = nlohmann::json::parse(vroom_solution_to_string(*p, check_plan(*p)));
    ASSERT_EQ(out["routes"].size(), 2u);
    auto figures = [](const nlohmann::json& step) {
      return std::vector<long>{step["location_index"].get<long>(), step["arrival"].get<long>(),
                               step["duration"].get<long>(), step["distance"].get<long>(),
                               step["load"][0].get<long>()};
    };
    const nlohmann::json& no_start = out["routes"][0]["steps"];
    ASSERT_EQ(no_start.size(), 5u);
    EXPECT_EQ(no_start.front()["type"], "start");
    EXPECT_EQ(figures(no_start.front()), (std::vector<long>{2, 0, 0, 0, 3}));
    EXPECT_EQ(figures(no_start.back()), (std::vector<long>{0, 210, 120, 1200, 2}));
    const nlohmann::json& no_end = out["routes"][1]["steps"];
    ASSERT_EQ(no_end.size(), 3u);
    EXPECT_EQ(no_end.back()["type"], "end");
    EXPECT_EQ(figures(no_end.back()), (std::vector<long>{1, 75, 50, 500, 0}));
    // The file reads back and validates with those steps.
    const Solution back = parse_vroom_solution(out.dump(), "open.sol.json", *p);
    EXPECT_TRUE(validate(*p, back).ok()) << validate(*p, back).violations.front().message;
  }
}

TEST(VroomSolution, NoDistancesWhenUnknown) {
  auto spec = parse_vroom_problem(kRouteProblem, "rt.json");
  spec.matrices.at("car").distances = Matrix();
  const Fixture f = route_fixture(spec);
  ASSERT_FALSE(f.problem->has_distances());
  const auto json = nlohmann::json::parse(vroom_solution_to_string(*f.problem, f.solution));
  EXPECT_FALSE(json["summary"].contains("distance"));
  EXPECT_FALSE(json["routes"][0].contains("distance"));
  EXPECT_FALSE(json["routes"][0]["steps"][1].contains("distance"));
}

TEST(VroomSolution, ScaledUnitsAreConvertedBothWays) {
  auto spec = parse_vroom_problem(kRouteProblem, "rt.json");
  spec.scale = UnitScale{1000.0, 100.0, 1000.0};
  const Fixture f = route_fixture(spec);
  const Problem& p = *f.problem;
  const std::string text = vroom_solution_to_string(p, f.solution);
  const auto json = nlohmann::json::parse(text);
  const Route& route = f.solution.routes[0];
  const auto& out = json["routes"][0];
  EXPECT_TRUE(out["duration"].is_number_float());
  EXPECT_DOUBLE_EQ(out["duration"].get<double>(),
                   std::round(route.duration / 1000.0 * 1000.0) / 1000.0);
  EXPECT_DOUBLE_EQ(out["distance"].get<double>(), route.distance / 100.0);
  EXPECT_NEAR(out["cost"].get<double>(), static_cast<double>(route.cost) / p.cost_scale(), 0.0005);
  for (std::size_t k = 0; k < route.steps.size(); ++k)
    EXPECT_DOUBLE_EQ(out["steps"][k]["arrival"].get<double>(), route.steps[k].arrival / 1000.0);

  // Internal integers come back exactly (their scaled values need at most 3 decimals here).
  const Solution back = parse_vroom_solution(text, "out.json", p);
  ASSERT_EQ(back.routes.size(), 1u);
  for (std::size_t k = 0; k < route.steps.size(); ++k) {
    EXPECT_EQ(back.routes[0].steps[k].arrival, route.steps[k].arrival);
    EXPECT_EQ(back.routes[0].steps[k].distance, route.steps[k].distance);
  }
  EXPECT_EQ(back.routes[0].duration, route.duration);
  EXPECT_NEAR(static_cast<double>(back.routes[0].cost), static_cast<double>(route.cost),
              p.cost_scale() / 1000.0);
}

TEST(VroomSolution, ScaleOfOneWritesIntegers) {
  const Fixture f = route_fixture(parse_vroom_problem(kRouteProblem, "rt.json"));
  const auto json = nlohmann::json::parse(vroom_solution_to_string(*f.problem, f.solution));
  for (const auto& s : json["routes"][0]["steps"]) {
    EXPECT_TRUE(s["arrival"].is_number_integer());
    EXPECT_TRUE(s["distance"].is_number_integer());
  }
  EXPECT_TRUE(json["routes"][0]["cost"].is_number_integer());
}

// A route priced per hour / per km costs, in VROOM, its whole travel priced once and rounded:
// 3 s at 1000 per hour (0.833) is what `vroom` (pyvroom 1.15.2) writes for these two files, 1
// with a time window (VROOM's VRPTW rounds half up) and 0 without (its CVRP truncates). The
// writer writes that integer and the validator recomputes it.
TEST(VroomSolution, PerHourRouteCostIsVroomsRoundedFigure) {
  for (const auto& [window, expected] : {std::pair{true, 1}, std::pair{false, 0}}) {
    const std::string text =
        std::string(R"({"vehicles": [{"id": 1, "start_index": 0, "end_index": 0,
        "costs": {"per_hour": 1000}}],
      "jobs": [{"id": 1, "location_index": 1)") +
        (window ? R"(, "time_windows": [[0, 100000]])" : "") +
        R"(}, {"id": 2, "location_index": 2}],
      "matrices": {"car": {"durations": [[0, 1, 1], [1, 0, 1], [1, 1, 0]],
                           "distances": [[0, 1, 1], [1, 0, 1], [1, 1, 0]]}}})";
    const ProblemPtr p = Problem::create(parse_vroom_problem(text, "per_hour.json"));
    const ScheduleResult r = schedule_route(*p, 0, {0, 1});
    ASSERT_TRUE(r.feasible);
    const Solution s = make_solution(*p, {r.route}, {});
    auto json = nlohmann::json::parse(vroom_solution_to_string(*p, s));
    ASSERT_TRUE(json["routes"][0]["cost"].is_number_integer()) << json["routes"][0]["cost"];
    EXPECT_EQ(json["routes"][0]["cost"].get<int>(), expected);
    EXPECT_EQ(json["summary"]["cost"].get<int>(), expected);
    EXPECT_TRUE(validate(*p, parse_vroom_solution(json.dump(), "out.json", *p)).ok());
    // The exact sum of the arcs (3 s at 1000 per hour) is not VROOM's figure.
    json["routes"][0]["cost"] = json["summary"]["cost"] = 3 * 1000 / 3600.0;
    EXPECT_FALSE(validate(*p, parse_vroom_solution(json.dump(), "out.json", *p)).ok());
  }
}

TEST(VroomSolution, UnknownIdsAreKeptForTheValidator) {
  const ProblemPtr p = Problem::create(parse_vroom_problem(kRouteProblem, "rt.json"));
  const Solution s = parse_vroom_solution(
      R"({"routes":[{"vehicle":99,"steps":[{"type":"job","id":1234},{"type":"pickup","id":1}]}],
          "unassigned":[{"id":77,"type":"delivery"}]})",
      "bad.json", *p);
  ASSERT_EQ(s.routes.size(), 1u);
  EXPECT_EQ(s.routes[0].vehicle, kNone);
  EXPECT_EQ(s.routes[0].vehicle_id, 99u);
  EXPECT_EQ(s.routes[0].steps[0].task, kNone);
  EXPECT_EQ(s.routes[0].steps[0].id, 1234u);
  EXPECT_EQ(s.routes[0].steps[1].task, kNone);  // job 1 exists, pickup 1 does not
  EXPECT_EQ(s.unassigned[0].task, kNone);
  EXPECT_EQ(s.unassigned[0].type, TaskType::Delivery);
  EXPECT_TRUE(s.routes[0].steps[0].load.empty());  // missing figures: 0 / empty
  EXPECT_EQ(s.routes[0].steps[0].arrival, 0);
}

TEST(VroomSolution, VroomOutputWithoutRoutesolveFields) {
  // Output as VROOM itself writes it: no reason, no backend, integer figures.
  const ProblemPtr p = Problem::create(parse_vroom_problem(kRouteProblem, "rt.json"));
  const Solution s = parse_vroom_solution(
      R"({"code":0,"summary":{"cost":10,"routes":1,"unassigned":0,"computing_times":{"loading":1}},
          "unassigned":[{"id":3,"type":"job","location":[0,0]}],
          "routes":[{"vehicle":5,"cost":10,"steps":[{"type":"start","location":[0,0],"arrival":0},
                    {"type":"job","id":2,"arrival":40,"load":[0]}],"geometry":"abc"}]})",
      "vroom.json", *p);
  ASSERT_EQ(s.routes.size(), 1u);
  EXPECT_EQ(s.routes[0].vehicle, p->find_vehicle(5));
  EXPECT_EQ(s.routes[0].steps[0].location, 0u);  // from the vehicle
  EXPECT_EQ(s.routes[0].steps[1].task, p->find_task(TaskType::Job, 2));
  EXPECT_EQ(s.routes[0].steps[1].location, 2u);  // from the task
  EXPECT_EQ(s.routes[0].steps[1].arrival, 40);
  EXPECT_EQ(s.unassigned[0].reason, UnassignedReason::NotRouted);
  EXPECT_EQ(s.summary.cost, 10);
  EXPECT_DOUBLE_EQ(s.profile.at(0).seconds, 0.001);
}

// ---- files and formats -----------------------------------------------------------------------

using TempDir = test::ScratchDirTest;

using VroomFiles = TempDir;

TEST_F(VroomFiles, ReadProblemDetectsAndParsesVroom) {
  const auto file = write("fleet.json", std::string("\n  ") + kRouteProblem);
  EXPECT_EQ(detect_format(file), "vroom");
  const ProblemSpec spec = read_problem(file);
  EXPECT_EQ(spec.source, file.string());
  EXPECT_EQ(spec.vehicles.size(), 2u);
  const ProblemSpec direct = read_vroom_problem(file);
  EXPECT_EQ(direct.jobs.size(), 3u);
  ReadOptions options;
  options.format = "vroom";
  EXPECT_EQ(read_problem(file, options).shipments.size(), 1u);
}

TEST_F(VroomFiles, ReadSolutionFile) {
  const Fixture f = route_fixture(parse_vroom_problem(kRouteProblem, "rt.json"));
  const auto file = write("sol.json", vroom_solution_to_string(*f.problem, f.solution));
  expect_same_solution(f.solution, read_vroom_solution(file, *f.problem));
}

TEST_F(VroomFiles, DetectsTextFormatsByContent) {
  EXPECT_EQ(detect_format(write("a.vrp", "NAME : A-n32-k5\r\nTYPE : CVRP\r\nDIMENSION : 32\r\n")),
            "cvrplib");
  EXPECT_EQ(detect_format(
                write("c.txt", "C101\n\nVEHICLE\nNUMBER     CAPACITY\n  25  200\n\nCUSTOMER\n")),
            "solomon");
  EXPECT_EQ(detect_format(write("l.txt",
                                "25\t200\t1\n0\t40\t50\t0\t0\t1236\t0\t0\t0\n"
                                "1\t45\t68\t-10\t912\t967\t90\t11\t0\n")),
            "lilim");
}

TEST(Formats, DetectsDatasetFiles) {
  ROUTESOLVE_REQUIRE_DATASET("vrptw/solomon/C101.txt");
  ROUTESOLVE_REQUIRE_DATASET("cvrp/x/X-n101-k25.vrp");
  ROUTESOLVE_REQUIRE_DATASET("pdptw/li_lim/lc101.txt");
  const auto d = test::datasets_dir();
  EXPECT_EQ(detect_format(d / "vrptw/solomon/C101.txt"), "solomon");
  EXPECT_EQ(detect_format(d / "cvrp/x/X-n101-k25.vrp"), "cvrplib");
  EXPECT_EQ(detect_format(d / "pdptw/li_lim/lc101.txt"), "lilim");
}

TEST(Formats, NamesRoundTrip) {
  const std::vector<std::string> expected{"auto", "vroom", "solomon", "cvrplib", "lilim"};
  EXPECT_EQ(input_format_names(), expected);
  for (const auto& name : input_format_names()) EXPECT_EQ(parse_input_format(name), name);
  EXPECT_THROW((void)parse_input_format("Vroom"), Error);
}

}  // namespace
}  // namespace routesolve::io
