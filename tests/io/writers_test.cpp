// Solution writers: CSV of stops, GeoJSON, SVG, CVRPLIB .sol, and the format dispatcher.

#include "routesolve/io/writers.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "routesolve/error.hpp"
#include "routesolve/io/benchmark_formats.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"

using namespace routesolve;

namespace {

// Depot at (0,0); jobs 1..4 at the corners of a square and its centre; two-dimensional loads.
ProblemPtr make_problem(bool with_coords, double scale = 1.0) {
  const Coordinates xy[] = {{0, 0}, {10, 0}, {10, 10}, {0, 10}, {5, 5}};
  ProblemSpec spec;
  spec.name = "square & centre";
  for (std::size_t i = 1; i <= 4; ++i) {
    JobSpec job;
    job.id = i;
    job.location.index = i;
    if (with_coords) job.location.coords = xy[i];
    job.service = 5;
    job.delivery = Amount{static_cast<std::int64_t>(i), 2 * static_cast<std::int64_t>(i)};
    spec.jobs.push_back(job);
  }
  for (Id v = 1; v <= 2; ++v) {
    VehicleSpec vehicle;
    vehicle.id = v;
    LocationSpec depot;
    depot.index = 0;
    if (with_coords) depot.coords = xy[0];
    vehicle.start = depot;
    vehicle.end = depot;
    vehicle.capacity = Amount{10, 20};
    spec.vehicles.push_back(vehicle);
  }
  Matrix m(5, 0);
  for (std::size_t i = 0; i < 5; ++i)
    for (std::size_t j = 0; j < 5; ++j)
      m(i, j) = i == j ? 0 : static_cast<std::int64_t>(10 * (i + j));
  ProfileMatrices pm;
  pm.durations = m;
  pm.distances = m;
  pm.costs = m;
  spec.matrices["car"] = pm;
  spec.scale = UnitScale{scale, scale, scale};
  return Problem::create(spec);
}

Step task_step(const Problem& p, Id id, Duration arrival, Amount load) {
  Step s;
  s.type = StepType::Job;
  s.id = id;
  s.task = p.find_task(TaskType::Job, id);
  s.location = p.task(s.task).location;
  s.arrival = arrival;
  s.service = 5;
  s.duration = arrival;
  s.distance = arrival;
  s.load = std::move(load);
  return s;
}

Step depot_step(StepType type, Duration arrival, Amount load) {
  Step s;
  s.type = type;
  s.location = 0;
  s.arrival = arrival;
  s.duration = arrival;
  s.distance = arrival;
  s.load = std::move(load);
  return s;
}

// Route 1: jobs 1, 2; route 2: job 3; job 4 unassigned. Figures are plausible, not checked.
Solution make_solution(const Problem& p) {
  Solution sol;
  Route r1;
  r1.vehicle = 0;
  r1.vehicle_id = 1;
  r1.steps = {depot_step(StepType::Start, 0, Amount{3, 6}), task_step(p, 1, 1500, Amount{2, 4}),
              task_step(p, 2, 3000, Amount{0, 0}), depot_step(StepType::End, 4500, Amount{0, 0})};
  r1.cost = r1.duration = r1.distance = 4500;
  Route r2;
  r2.vehicle = 1;
  r2.vehicle_id = 2;
  r2.steps = {depot_step(StepType::Start, 0, Amount{3, 6}), task_step(p, 3, 30, Amount{0, 0}),
              depot_step(StepType::End, 60, Amount{0, 0})};
  r2.cost = r2.duration = r2.distance = 60;
  sol.routes = {r1, r2};
  sol.unassigned.push_back(
      Unassigned{p.find_task(TaskType::Job, 4), 4, TaskType::Job, UnassignedReason::Capacity});
  sol.summary.cost = 4560;
  sol.summary.routes = 2;
  sol.summary.unassigned = 1;
  return sol;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto pos = text.find(needle); pos != std::string::npos; pos = text.find(needle, pos + 1))
    ++n;
  return n;
}

template <typename F>
void expect_invalid(F&& f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one mentioning '" << needle << "'";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidInput);
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

}  // namespace

TEST(Writers, OutputFormatNames) {
  for (auto f : {io::OutputFormat::Json, io::OutputFormat::Csv, io::OutputFormat::GeoJson,
                 io::OutputFormat::Svg, io::OutputFormat::Sol}) {
    EXPECT_EQ(io::parse_output_format(io::to_string(f)), f);
    std::string ext(".");
    ext.append(io::to_string(f));  // (not "." + ...: GCC 12 -Wrestrict false positive at -O3)
    EXPECT_EQ(io::extension(f), ext);
  }
  EXPECT_EQ(io::parse_output_format("GeoJSON"), io::OutputFormat::GeoJson);
  expect_invalid([] { io::parse_output_format("xml"); }, "'xml'");
}

TEST(Writers, CsvHasHeaderAndOneRowPerStep) {
  const ProblemPtr p = make_problem(true);
  std::ostringstream out;
  io::write_csv(out, *p, make_solution(*p));
  const auto rows = lines_of(out.str());
  ASSERT_EQ(rows.size(), 1u + 4u + 3u);
  EXPECT_EQ(rows[0],
            "vehicle,step,type,id,location_index,lon,lat,arrival,waiting_time,service,duration,"
            "distance,load");
  EXPECT_EQ(rows[1], "1,0,start,,0,0,0,0,0,0,0,0,3;6");
  EXPECT_EQ(rows[2], "1,1,job,1,1,10,0,1500,0,5,1500,1500,2;4");
  EXPECT_EQ(rows[7], "2,2,end,,0,0,0,60,0,0,60,60,0;0");
}

TEST(Writers, CsvConvertsScaledUnits) {
  const ProblemPtr p = make_problem(false, 1000.0);
  std::ostringstream out;
  io::write_csv(out, *p, make_solution(*p));
  const auto rows = lines_of(out.str());
  ASSERT_EQ(rows.size(), 8u);
  // No coordinates: empty lon/lat; times and distances in output units with 3 decimals.
  EXPECT_EQ(rows[2], "1,1,job,1,1,,,1.500,0.000,0.005,1.500,1.500,2;4");
}

TEST(Writers, GeoJsonFeatures) {
  const ProblemPtr p = make_problem(true);
  std::ostringstream out;
  io::write_geojson(out, *p, make_solution(*p));
  const auto doc = nlohmann::json::parse(out.str());
  EXPECT_EQ(doc["type"], "FeatureCollection");
  const auto& features = doc["features"];
  // 2 route lines, 7 stops, 1 unassigned job.
  ASSERT_EQ(features.size(), 10u);
  std::size_t lines = 0, points = 0;
  for (const auto& f : features) {
    EXPECT_EQ(f["type"], "Feature");
    if (f["geometry"]["type"] == "LineString") ++lines;
    if (f["geometry"]["type"] == "Point") ++points;
  }
  EXPECT_EQ(lines, 2u);
  EXPECT_EQ(points, 8u);
  const auto& first = features[0];
  EXPECT_EQ(first["geometry"]["coordinates"].size(), 4u);
  EXPECT_EQ(first["geometry"]["coordinates"][1], nlohmann::json::array({10.0, 0.0}));
  EXPECT_EQ(first["properties"]["vehicle"], 1);
  EXPECT_EQ(first["properties"]["cost"], 4500);
  EXPECT_EQ(first["properties"]["distance"], 4500);
  EXPECT_EQ(first["properties"]["duration"], 4500);
  EXPECT_EQ(features[9]["properties"]["kind"], "unassigned");
  EXPECT_EQ(features[9]["properties"]["id"], 4);
}

TEST(Writers, SvgDrawsEveryRoute) {
  const ProblemPtr p = make_problem(true);
  std::ostringstream out;
  io::write_svg(out, *p, make_solution(*p));
  const std::string svg = out.str();
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  EXPECT_EQ(count(svg, "<polyline"), 2u);
  EXPECT_EQ(count(svg, "class=\"depot\""), 1u);  // both vehicles share it
  EXPECT_EQ(count(svg, "class=\"unassigned\""), 1u);
  EXPECT_EQ(count(svg, "<circle"), 3u);
  EXPECT_NE(svg.find("square &amp; centre: cost 4560, 2 routes, 1 unassigned"), std::string::npos);
  // Two palette colours.
  EXPECT_NE(svg.find("#1f77b4"), std::string::npos);
  EXPECT_NE(svg.find("#ff7f0e"), std::string::npos);
}

TEST(Writers, MapsNeedCoordinates) {
  const ProblemPtr p = make_problem(false);
  const Solution s = make_solution(*p);
  std::ostringstream out;
  expect_invalid([&] { io::write_geojson(out, *p, s); }, "no coordinates");
  expect_invalid([&] { io::write_svg(out, *p, s); }, "no coordinates");
}

TEST(Writers, SolThroughDispatcher) {
  const ProblemPtr p = make_problem(true);
  const Solution s = make_solution(*p);
  std::ostringstream out;
  io::write_solution(out, *p, s, io::OutputFormat::Sol);
  // .sol numbers are job id - 1 (CVRPLIB's 0-based node indices).
  EXPECT_EQ(out.str(), "Route #1: 0 1\nRoute #2: 2\nCost 4560\n");
  EXPECT_EQ(out.str(), io::cvrplib_solution_to_string(*p, s));

  const ProblemPtr scaled = make_problem(true, 1000.0);
  const std::string text = io::cvrplib_solution_to_string(*scaled, make_solution(*scaled));
  char expected[64];
  std::snprintf(expected, sizeof expected, "Cost %.3f\n", 4560.0 / scaled->cost_scale());
  EXPECT_NE(text.find(expected), std::string::npos) << text;

  std::ostringstream csv;
  io::write_solution(csv, *p, s, io::OutputFormat::Csv);
  EXPECT_EQ(lines_of(csv.str()).size(), 8u);
}

TEST(Writers, JsonThroughDispatcher) {
  const ProblemPtr p = make_problem(true);
  std::ostringstream out;
  io::write_solution(out, *p, make_solution(*p), io::OutputFormat::Json);
  const auto doc = nlohmann::json::parse(out.str());
  EXPECT_TRUE(doc.is_object());
  EXPECT_TRUE(doc.contains("routes"));
}
