// VROOM problem JSON: every field of the API, legacy forms, large and float-written integers,
// the UTF-8 byte order mark. Solutions and file handling: vroom_solution_test.cpp.

#include "routesolve/io/vroom_json.hpp"

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
#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"
#include "routesolve/validator.hpp"
#include "test_support.hpp"

namespace routesolve::io {
namespace {

using ::testing::HasSubstr;

// Every field of VROOM's problem API at least once.
constexpr const char* kRichProblem = R"({
  "jobs": [
    {"id": 1, "location": [2.35, 48.85], "location_index": 1, "setup": 5, "service": 300,
     "delivery": [2, 1], "pickup": [0, 3], "skills": [1, 7], "priority": 10,
     "time_windows": [[0, 1000], [2000, 3000]], "description": "first"},
    {"id": 2, "location_index": 2, "amount": [4, 0]},
    {"id": 3, "location": [2.40, 48.80]}
  ],
  "shipments": [
    {"pickup": {"id": 10, "location_index": 3, "setup": 1, "service": 20,
                "time_windows": [[0, 500]], "description": "p10"},
     "delivery": {"id": 11, "location": [2.5, 48.9], "location_index": 4, "setup": 2, "service": 30,
                  "time_windows": [[100, 900]], "description": "d11"},
     "amount": [1, 1], "skills": [7], "priority": 100}
  ],
  "vehicles": [
    {"id": 7, "profile": "truck", "start": [2.3, 48.8], "start_index": 0, "end_index": 0,
     "capacity": [10, 20], "skills": [1, 7, 9], "time_window": [0, 36000],
     "breaks": [{"id": 70, "time_windows": [[100, 200], [300, 400]], "service": 60,
                 "description": "lunch", "max_load": [5, 5]}],
     "description": "big one", "costs": {"fixed": 1000, "per_hour": 7200, "per_km": 3},
     "speed_factor": 1.5, "max_tasks": 12, "max_travel_time": 20000, "max_distance": 90000},
    {"id": 8, "start_index": 1}
  ],
  "matrices": {
    "truck": {
      "durations": [[0,1,2,3,4],[1,0,1,2,3],[2,1,0,1,2],[3,2,1,0,1],[4,3,2,1,0]],
      "distances": [[0,10,20,30,40],[10,0,10,20,30],[20,10,0,10,20],[30,20,10,0,10],[40,30,20,10,0]],
      "costs": [[0,5,5,5,5],[5,0,5,5,5],[5,5,0,5,5],[5,5,5,0,5],[5,5,5,5,0]]
    },
    "car": {"durations": [[0,1,2,3,4],[1,0,1,2,3],[2,1,0,1,2],[3,2,1,0,1],[4,3,2,1,0]]}
  },
  "options": {"g": true},
  "some_future_key": [1, 2, 3]
})";

TEST(VroomProblem, ParsesEveryField) {
  const ProblemSpec spec = parse_vroom_problem(kRichProblem, "dir/rich.json");
  EXPECT_EQ(spec.source, "dir/rich.json");
  EXPECT_EQ(spec.name, "rich");

  ASSERT_EQ(spec.jobs.size(), 3u);
  const JobSpec& j = spec.jobs[0];
  EXPECT_EQ(j.id, 1u);
  ASSERT_TRUE(j.location.coords.has_value());
  EXPECT_DOUBLE_EQ(j.location.coords->lon, 2.35);
  EXPECT_DOUBLE_EQ(j.location.coords->lat, 48.85);
  EXPECT_EQ(j.location.index, std::optional<std::size_t>(1));
  EXPECT_EQ(j.setup, 5);
  EXPECT_EQ(j.service, 300);
  EXPECT_EQ(j.delivery, (Amount{2, 1}));
  EXPECT_EQ(j.pickup, (Amount{0, 3}));
  EXPECT_EQ(j.skills, (std::vector<std::uint32_t>{1, 7}));
  EXPECT_EQ(j.priority, 10);
  EXPECT_EQ(j.time_windows, (std::vector<TimeWindow>{{0, 1000}, {2000, 3000}}));
  EXPECT_EQ(j.description, "first");
  // Legacy "amount" is the delivery; defaults elsewhere.
  EXPECT_EQ(spec.jobs[1].delivery, (Amount{4, 0}));
  EXPECT_TRUE(spec.jobs[1].pickup.empty());
  EXPECT_FALSE(spec.jobs[1].location.coords.has_value());
  EXPECT_EQ(spec.jobs[1].setup, 0);
  EXPECT_EQ(spec.jobs[1].priority, 0);
  EXPECT_TRUE(spec.jobs[1].time_windows.empty());
  EXPECT_FALSE(spec.jobs[2].location.index.has_value());
  EXPECT_TRUE(spec.jobs[2].location.coords.has_value());

  ASSERT_EQ(spec.shipments.size(), 1u);
  const ShipmentSpec& s = spec.shipments[0];
  EXPECT_EQ(s.pickup.id, 10u);
  EXPECT_EQ(s.pickup.location.index, std::optional<std::size_t>(3));
  EXPECT_EQ(s.pickup.setup, 1);
  EXPECT_EQ(s.pickup.service, 20);
  EXPECT_EQ(s.pickup.time_windows, (std::vector<TimeWindow>{{0, 500}}));
  EXPECT_EQ(s.pickup.description, "p10");
  EXPECT_EQ(s.delivery.id, 11u);
  EXPECT_EQ(s.delivery.location.index, std::optional<std::size_t>(4));
  ASSERT_TRUE(s.delivery.location.coords.has_value());
  EXPECT_DOUBLE_EQ(s.delivery.location.coords->lat, 48.9);
  EXPECT_EQ(s.delivery.setup, 2);
  EXPECT_EQ(s.delivery.service, 30);
  EXPECT_EQ(s.delivery.time_windows, (std::vector<TimeWindow>{{100, 900}}));
  EXPECT_EQ(s.delivery.description, "d11");
  EXPECT_EQ(s.amount, (Amount{1, 1}));
  EXPECT_EQ(s.skills, (std::vector<std::uint32_t>{7}));
  EXPECT_EQ(s.priority, 100);

  ASSERT_EQ(spec.vehicles.size(), 2u);
  const VehicleSpec& v = spec.vehicles[0];
  EXPECT_EQ(v.id, 7u);
  EXPECT_EQ(v.profile, "truck");
  ASSERT_TRUE(v.start.has_value());
  EXPECT_EQ(v.start->index, std::optional<std::size_t>(0));
  ASSERT_TRUE(v.start->coords.has_value());
  EXPECT_DOUBLE_EQ(v.start->coords->lon, 2.3);
  ASSERT_TRUE(v.end.has_value());
  EXPECT_EQ(v.end->index, std::optional<std::size_t>(0));
  EXPECT_FALSE(v.end->coords.has_value());
  EXPECT_EQ(v.capacity, (Amount{10, 20}));
  EXPECT_EQ(v.skills, (std::vector<std::uint32_t>{1, 7, 9}));
  EXPECT_EQ(v.time_window, (TimeWindow{0, 36000}));
  ASSERT_EQ(v.breaks.size(), 1u);
  EXPECT_EQ(v.breaks[0].id, 70u);
  EXPECT_EQ(v.breaks[0].time_windows, (std::vector<TimeWindow>{{100, 200}, {300, 400}}));
  EXPECT_EQ(v.breaks[0].service, 60);
  EXPECT_EQ(v.breaks[0].description, "lunch");
  EXPECT_EQ(v.breaks[0].max_load, std::optional<Amount>(Amount{5, 5}));
  EXPECT_EQ(v.description, "big one");
  EXPECT_EQ(v.costs.fixed, 1000);
  EXPECT_EQ(v.costs.per_hour, 7200);
  EXPECT_EQ(v.costs.per_km, 3);
  EXPECT_DOUBLE_EQ(v.speed_factor, 1.5);
  EXPECT_EQ(v.max_tasks, std::optional<std::size_t>(12));
  EXPECT_EQ(v.max_travel_time, std::optional<Duration>(20000));
  EXPECT_EQ(v.max_distance, std::optional<Distance>(90000));

  const VehicleSpec& d = spec.vehicles[1];  // VROOM defaults
  EXPECT_EQ(d.profile, "car");
  EXPECT_FALSE(d.end.has_value());
  EXPECT_TRUE(d.capacity.empty());
  EXPECT_EQ(d.time_window, TimeWindow{});
  EXPECT_EQ(d.costs.fixed, 0);
  EXPECT_EQ(d.costs.per_hour, 3600);
  EXPECT_EQ(d.costs.per_km, 0);
  EXPECT_DOUBLE_EQ(d.speed_factor, 1.0);
  EXPECT_FALSE(d.max_tasks.has_value());
  EXPECT_FALSE(d.max_travel_time.has_value());
  EXPECT_FALSE(d.max_distance.has_value());

  ASSERT_EQ(spec.matrices.size(), 2u);
  const ProfileMatrices& truck = spec.matrices.at("truck");
  ASSERT_EQ(truck.durations.size(), 5u);
  EXPECT_EQ(truck.durations(0, 4), 4);
  EXPECT_EQ(truck.distances(3, 1), 20);
  ASSERT_TRUE(truck.costs.has_value());
  EXPECT_EQ((*truck.costs)(1, 2), 5);
  EXPECT_EQ((*truck.costs)(2, 2), 0);
  EXPECT_TRUE(spec.matrices.at("car").distances.empty());
  EXPECT_FALSE(spec.matrices.at("car").costs.has_value());
}

TEST(VroomProblem, LegacyMatrixIsCarDurations) {
  const ProblemSpec spec = parse_vroom_problem(
      R"({"vehicles":[{"id":1,"start_index":0}],"jobs":[{"id":1,"location_index":1}],"matrix":[[0,7],[8,0]]})",
      "m.json");
  ASSERT_EQ(spec.matrices.count("car"), 1u);
  EXPECT_EQ(spec.matrices.at("car").durations, Matrix(2, {0, 7, 8, 0}));
}

TEST(VroomProblem, LargeMatrixEntriesMeanUnreachable) {
  const ProblemSpec spec = parse_vroom_problem(
      R"({"vehicles":[{"id":1,"start_index":0}],"jobs":[{"id":1,"location_index":1}],
          "matrix":[[0,18446744073709551615],[8,0]]})",
      "m.json");
  EXPECT_EQ(spec.matrices.at("car").durations(0, 1), kUnreachable);
}

TEST(VroomProblem, IntegralFloatsAreIntegers) {
  const ProblemSpec spec = parse_vroom_problem(
      R"({"vehicles":[{"id":1.0,"start":[1,2]}],"jobs":[{"id":2,"location":[1,3],"service":30.0}]})",
      "f.json");
  EXPECT_EQ(spec.vehicles[0].id, 1u);
  EXPECT_EQ(spec.jobs[0].service, 30);
  EXPECT_TRUE(spec.matrices.empty());
}

TEST(VroomProblem, Utf8ByteOrderMarkIsSkipped) {
  const ProblemSpec spec =
      parse_vroom_problem("\xEF\xBB\xBF{\"vehicles\":[{\"id\":3,\"start\":[1,2]}]}", "bom.json");
  ASSERT_EQ(spec.vehicles.size(), 1u);
  EXPECT_EQ(spec.vehicles[0].id, 3u);
}

}  // namespace
}  // namespace routesolve::io
