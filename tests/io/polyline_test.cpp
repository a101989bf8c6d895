// Encoded polylines (Google's format, precision 5) and the routes' `geometry` in VROOM JSON
// output; `"options": {"g": ...}` in problems.

#include "routesolve/io/polyline.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "routesolve/error.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"

namespace routesolve::io {
namespace {

using ::testing::HasSubstr;

TEST(Polyline, EncodesTheFormatsWorkedExample) {
  // The example of the format's description: (38.5, -120.2), (40.7, -120.95), (43.252, -126.453).
  const std::vector<Coordinates> points{{-120.2, 38.5}, {-120.95, 40.7}, {-126.453, 43.252}};
  EXPECT_EQ(encode_polyline(points), "_p~iF~ps|U_ulLnnqC_mqNvxq`@");
  const auto back = decode_polyline("_p~iF~ps|U_ulLnnqC_mqNvxq`@");
  ASSERT_EQ(back.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_NEAR(back[i].lat, points[i].lat, 1e-9);
    EXPECT_NEAR(back[i].lon, points[i].lon, 1e-9);
  }
  EXPECT_EQ(encode_polyline({}), "");
  EXPECT_THROW((void)decode_polyline("_p~iF~ps|U_"), Error);
}

TEST(Polyline, RoundsToFiveDecimalsAndRoundTrips) {
  const std::vector<Coordinates> points{
      {9.520912, 47.141049}, {9.506001, 47.230004}, {9.506001, 47.230004}, {-0.000004, 0.000006}};
  const auto back = decode_polyline(encode_polyline(points));
  ASSERT_EQ(back.size(), points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    EXPECT_NEAR(back[i].lat, points[i].lat, 0.5e-5);
    EXPECT_NEAR(back[i].lon, points[i].lon, 0.5e-5);
  }
}

constexpr const char* kProblem = R"({"options": {"g": true},
  "vehicles": [{"id": 1, "start": [9.0, 47.0], "start_index": 0, "end": [9.0, 47.0], "end_index": 0}],
  "jobs": [{"id": 1, "location": [9.1, 47.0], "location_index": 1}, {"id": 2, "location": [9.1, 47.1], "location_index": 2}],
  "matrices": {"car": {"durations": [[0, 10, 20], [10, 0, 10], [20, 10, 0]],
                       "distances": [[0, 100, 200], [100, 0, 100], [200, 100, 0]]}}})";

TEST(Polyline, RouteGeometryFollowsTheLegsGiven) {
  const ProblemSpec spec = parse_vroom_problem(kProblem, "g.json");
  EXPECT_TRUE(spec.geometry);
  const ProblemPtr p = Problem::create(spec);
  const ScheduleResult r = schedule_route(*p, 0, {0, 1});
  const Solution s = make_solution(*p, {r.route}, {});
  // The road from the depot to job 1 bends through (9.05, 46.95); the other legs are straight.
  LegLines legs;
  legs[{0, 1}] = {{9.0, 47.0}, {9.05, 46.95}, {9.1, 47.0}};
  std::ostringstream out;
  write_vroom_solution(out, *p, s, &legs);
  const auto json = nlohmann::json::parse(out.str());
  const auto path = decode_polyline(json["routes"][0]["geometry"].get<std::string>());
  const std::vector<Coordinates> expected{
      {9.0, 47.0}, {9.05, 46.95}, {9.1, 47.0}, {9.1, 47.1}, {9.0, 47.0}};
  ASSERT_EQ(path.size(), expected.size());
  for (std::size_t i = 0; i < path.size(); ++i) {
    EXPECT_NEAR(path[i].lon, expected[i].lon, 1e-9) << i;
    EXPECT_NEAR(path[i].lat, expected[i].lat, 1e-9) << i;
  }
  EXPECT_EQ(json["routes"][0]["steps"][2]["distance"], 200);  // per-step cumulative distance
  // Without geometry asked for, no field.
  EXPECT_FALSE(
      nlohmann::json::parse(vroom_solution_to_string(*p, s))["routes"][0].contains("geometry"));
}

TEST(Polyline, BadOptionsNameTheField) {
  auto error = [](const std::string& options) {
    try {
      (void)parse_vroom_problem(
          R"({"vehicles": [{"id": 1, "start_index": 0}], "matrix": [[0]], "options": )" + options +
              "}",
          "fleet.json");
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::InvalidInput);
      return std::string(e.what());
    }
    ADD_FAILURE() << "did not throw";
    return std::string();
  };
  EXPECT_THAT(error("[1]"), HasSubstr("fleet.json: options: expected"));
  EXPECT_THAT(error(R"({"g": 1})"),
              HasSubstr("fleet.json: options.g: expected true or false, got"));
  EXPECT_THAT(error(R"({"g": "yes"})"), HasSubstr("options.g"));
  EXPECT_THAT(error(R"({"l": -1})"),
              HasSubstr("fleet.json: options.l: expected a non-negative number"));
  EXPECT_THAT(error(R"({"time_limit": "soon"})"), HasSubstr("fleet.json: options.time_limit:"));
}

TEST(Polyline, TheRequestsOptionsAreReadWithTheProblem) {
  const std::string base = R"({"vehicles": [{"id": 1, "start_index": 0}], "matrix": [[0]])";
  EXPECT_FALSE(parse_vroom_problem(base + "}", "fleet.json").geometry);
  EXPECT_EQ(parse_vroom_problem(base + "}", "fleet.json").time_limit_s, 0.0);
  const ProblemSpec spec =
      parse_vroom_problem(base + R"(, "options": {"g": true, "l": 2.5}})", "fleet.json");
  EXPECT_TRUE(spec.geometry);
  EXPECT_EQ(spec.time_limit_s, 2.5);
  EXPECT_EQ(
      parse_vroom_problem(base + R"(, "options": {"time_limit": 4}})", "fleet.json").time_limit_s,
      4.0);
}

}  // namespace
}  // namespace routesolve::io
