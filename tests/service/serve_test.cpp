// The service's answers: VROOM files and shared instances solved over HTTP and checked by the
// validator; /table and /matrix equal to `routesolve matrix` for the same points; health and
// metrics.

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "serve_fixture.hpp"

namespace routesolve::test {
namespace {

using nlohmann::json;

/// Writes the answer next to the problem and checks it with `routesolve validate`.
void expect_valid(const std::string& problem_json, const std::string& answer,
                  const std::string& name, const std::string& extra = "") {
  const auto problem = ServeTest::dir() / (name + ".json");
  const auto solution = ServeTest::dir() / (name + "_solution.json");
  std::ofstream(problem) << problem_json;
  std::ofstream(solution) << answer;
  const ToolRun v =
      run_tool("validate " + problem.string() + " " + solution.string() + " " + extra);
  EXPECT_EQ(v.exit_code, 0) << name << ": " << v.out;
}

/// A Solomon file as VROOM JSON (Euclidean x10 rounded as durations and distances).
std::string solomon_as_vroom(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::vector<double>> rows;
  std::string line;
  int vehicles = 0, capacity = 0;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string first;
    if (!(s >> first)) continue;
    if (first == "NUMBER") {
      std::getline(in, line);
      std::istringstream(line) >> vehicles >> capacity;
    } else if (std::isdigit(static_cast<unsigned char>(first[0])) && vehicles > 0) {
      std::vector<double> r{std::stod(first)};
      double v = 0;
      while (s >> v) r.push_back(v);
      rows.push_back(r);
    }
  }
  json m = json::array();
  for (const auto& a : rows) {
    json row = json::array();
    for (const auto& b : rows)
      row.push_back(std::llround(10 * std::hypot(a[1] - b[1], a[2] - b[2])));
    m.push_back(row);
  }
  json doc;
  for (int v = 0; v < vehicles; ++v)
    doc["vehicles"].push_back(
        {{"id", v + 1},
         {"start_index", 0},
         {"end_index", 0},
         {"capacity", {capacity}},
         {"time_window", {std::lround(rows[0][4] * 10), std::lround(rows[0][5] * 10)}}});
  for (std::size_t i = 1; i < rows.size(); ++i)
    doc["jobs"].push_back(
        {{"id", std::lround(rows[i][0])},
         {"location_index", i},
         {"delivery", {std::lround(rows[i][3])}},
         {"service", std::lround(rows[i][6] * 10)},
         {"time_windows", {{std::lround(rows[i][4] * 10), std::lround(rows[i][5] * 10)}}}});
  doc["matrices"]["car"] = {{"durations", m}, {"distances", m}};
  return doc.dump();
}

/// Points of the example fleet on Liechtenstein's roads: its jobs' and vehicles' coordinates.
std::vector<std::pair<double, double>> example_points() {
  const json doc = json::parse(read_file(source_dir() / "examples/fleet_coordinates.json"));
  std::vector<std::pair<double, double>> points;
  for (const auto& v : doc["vehicles"])
    points.emplace_back(v["start"][0].get<double>(), v["start"][1].get<double>());
  for (const auto& j : doc["jobs"])
    points.emplace_back(j["location"][0].get<double>(), j["location"][1].get<double>());
  return points;
}

std::string table_target(const std::vector<std::pair<double, double>>& points,
                         const std::string& query) {
  std::string t = "/table/v1/driving/";
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (i > 0) t += ';';
    t += json(points[i].first).dump();
    t += ',';
    t += json(points[i].second).dump();
  }
  return t + query;
}

TEST_F(ServeTest, HealthAndMetricsAnswer) {
  const HttpReply health = http(port(), "GET", "/health");
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(json::parse(health.body)["status"], "ok");
  ASSERT_EQ(http(port(), "POST", "/", read_file(source_dir() / "examples/fleet.json")).status, 200);
  const HttpReply metrics = http(port(), "GET", "/metrics");
  ASSERT_EQ(metrics.status, 200);
  EXPECT_NE(metrics.headers.at("content-type").find("text/plain"), std::string::npos);
  for (const char* name :
       {"routesolve_requests_total{endpoint=\"solve\",status=\"200\"} ", "routesolve_queue_length ",
        "routesolve_solve_seconds_bucket{le=\"+Inf\"} ", "routesolve_matrix_seconds_count",
        "routesolve_solves_total{backend=", "routesolve_device_fallbacks_total 0",
        "routesolve_backend_info{backend=\"auto\"} 1", "routesolve_ready 1"})
    EXPECT_NE(metrics.body.find(name), std::string::npos) << name << "\n" << metrics.body;
  // The access log: one JSON line per request.
  const std::string log = server().log();
  EXPECT_NE(log.find("\"endpoint\":\"solve\",\"status\":200"), std::string::npos) << log;
}

TEST_F(ServeTest, ExampleFleetsAreSolvedLikeTheTool) {
  const std::string fleet = read_file(source_dir() / "examples/fleet.json");
  const HttpReply r = http(port(), "POST", "/", fleet);
  ASSERT_EQ(r.status, 200) << r.body;
  const json answer = json::parse(r.body);
  EXPECT_EQ(answer["code"], 0);
  expect_valid(fleet, r.body, "fleet");
  // The same fixed amount of work as `routesolve solve` (seed 1): the same solution.
  const auto cli_out = dir() / "fleet_cli.json";
  ASSERT_EQ(run_tool("solve " + (source_dir() / "examples/fleet.json").string() + " -q -o " +
                     cli_out.string())
                .exit_code,
            0);
  const json cli = json::parse(read_file(cli_out));
  EXPECT_EQ(answer["summary"]["cost"], cli["summary"]["cost"]);
  EXPECT_EQ(answer["routes"], cli["routes"]);

  // Coordinates: matrices from the network the service holds (named or the default).
  const std::string coords = read_file(source_dir() / "examples/fleet_coordinates.json");
  for (const char* target : {"/", "/?network=li"}) {
    const HttpReply c = http(port(), "POST", target, coords);
    ASSERT_EQ(c.status, 200) << c.body;
    expect_valid(coords, c.body, "fleet_coordinates", "--network " + network());
  }
}

TEST_F(ServeTest, GeometryOptionAddsEncodedRoadLines) {
  json doc = json::parse(read_file(source_dir() / "examples/fleet_coordinates.json"));
  doc["options"] = {{"g", true}};
  const HttpReply r = http(port(), "POST", "/", doc.dump());
  ASSERT_EQ(r.status, 200) << r.body;
  const json answer = json::parse(r.body);
  ASSERT_FALSE(answer["routes"].empty());
  for (const auto& route : answer["routes"]) {
    ASSERT_TRUE(route.contains("geometry"));
    // Road lines have more points than stops: a polyline of ~2 characters per coordinate at least.
    EXPECT_GT(route["geometry"].get<std::string>().size(), 4 * route["steps"].size());
  }
}

// The timeline is VROOM's unless the request's options ask for the earliest one: same routes and
// cost, the vehicle leaving later and waiting less; both pass the validator.
TEST_F(ServeTest, TimelineOptionChoosesTheReportedTimes) {
  json doc = json::parse(read_file(source_dir() / "examples/fleet.json"));
  const HttpReply vroom = http(port(), "POST", "/", doc.dump());
  doc["options"] = {{"timeline", "earliest"}};
  const HttpReply earliest = http(port(), "POST", "/", doc.dump());
  ASSERT_EQ(vroom.status, 200) << vroom.body;
  ASSERT_EQ(earliest.status, 200) << earliest.body;
  const json v = json::parse(vroom.body), e = json::parse(earliest.body);
  EXPECT_EQ(v["summary"]["cost"], e["summary"]["cost"]);
  EXPECT_EQ(v["summary"]["duration"], e["summary"]["duration"]);
  EXPECT_LT(v["summary"]["waiting_time"].get<long long>(),
            e["summary"]["waiting_time"].get<long long>());
  ASSERT_EQ(v["routes"].size(), e["routes"].size());
  for (std::size_t r = 0; r < v["routes"].size(); ++r) {
    const auto &vs = v["routes"][r]["steps"], &es = e["routes"][r]["steps"];
    ASSERT_EQ(vs.size(), es.size());
    for (std::size_t k = 0; k < vs.size(); ++k)
      EXPECT_EQ(vs[k].value("id", -1), es[k].value("id", -1));
    EXPECT_GE(vs[0]["arrival"].get<long long>(), es[0]["arrival"].get<long long>());
  }
  expect_valid(doc.dump(), vroom.body, "timeline_vroom");
  expect_valid(doc.dump(), earliest.body, "timeline_earliest");
  doc["options"] = {{"timeline", "soon"}};
  const HttpReply bad = http(port(), "POST", "/", doc.dump());
  EXPECT_EQ(bad.status, 400) << bad.body;
  EXPECT_NE(bad.body.find("options.timeline"), std::string::npos) << bad.body;
}

TEST_F(ServeTest, SharedInstancesAreSolvedAndValid) {
  for (const char* rel : {"vrptw/solomon/C101.txt", "vrptw/solomon/R101.txt"}) {
    const auto file = datasets_dir() / rel;
    if (!std::filesystem::exists(file)) continue;
    const std::string problem = solomon_as_vroom(file);
    const HttpReply r = http(port(), "POST", "/", problem);
    ASSERT_EQ(r.status, 200) << rel << ": " << r.body;
    EXPECT_EQ(json::parse(r.body)["summary"]["unassigned"], 0) << rel;
    expect_valid(problem, r.body, file.stem().string());
  }
}

TEST_F(ServeTest, TableAndMatrixEqualTheMatrixCommand) {
  // The example's points that lie on the roads (one of its jobs is off every road on purpose).
  std::vector<std::pair<double, double>> points;
  const auto cli_json = dir() / "m.json", cli_bin = dir() / "m.bin",
             points_file = dir() / "points.json";
  auto write_points = [&](const std::vector<std::pair<double, double>>& p) {
    json pts = json::array();
    for (const auto& [lon, lat] : p) pts.push_back({lon, lat});
    std::ofstream(points_file) << pts.dump();
    return pts;
  };
  const std::string common = "matrix --network " + network() + " --points " + points_file.string() +
                             " --backend cuda-host --allow-unreachable -q -o ";
  {
    const auto all = example_points();
    write_points(all);
    ASSERT_EQ(run_tool(common + cli_json.string()).exit_code, 0);
    const json d = json::parse(read_file(cli_json))["matrices"]["car"]["durations"];
    for (std::size_t i = 0; i < all.size(); ++i)
      if (d[i][(i + 1) % all.size()] != 2147483647) points.push_back(all[i]);
    ASSERT_GE(points.size(), 5u);
  }
  const json pts = write_points(points);
  ASSERT_EQ(run_tool(common + cli_json.string()).exit_code, 0);
  ASSERT_EQ(run_tool(common + cli_bin.string() + " --binary").exit_code, 0);
  const json cli = json::parse(read_file(cli_json))["matrices"]["car"];

  const HttpReply t = http(port(), "GET", table_target(points, "?annotations=duration,distance"));
  ASSERT_EQ(t.status, 200) << t.body;
  const json table = json::parse(t.body);
  EXPECT_EQ(table["code"], "Ok");
  EXPECT_EQ(table["durations"], cli["durations"]);
  EXPECT_EQ(table["distances"], cli["distances"]);
  ASSERT_EQ(table["sources"].size(), points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    const json& w = table["sources"][i];
    EXPECT_LT(std::abs(w["location"][0].get<double>() - points[i].first), 0.02);
    EXPECT_LT(std::abs(w["location"][1].get<double>() - points[i].second), 0.02);
    EXPECT_GE(w["distance"].get<double>(), 0.0);
  }
  // sources / destinations: a slice of the same matrix; annotations default to durations only.
  const HttpReply s = http(port(), "GET", table_target(points, "?sources=2;0&destinations=1"));
  ASSERT_EQ(s.status, 200) << s.body;
  const json slice = json::parse(s.body);
  EXPECT_FALSE(slice.contains("distances"));
  EXPECT_EQ(slice["durations"], json::parse("[[" + cli["durations"][2][1].dump() + "],[" +
                                            cli["durations"][0][1].dump() + "]]"));
  EXPECT_EQ(slice["destinations"].size(), 1u);

  // POST /matrix: byte for byte the matrix command's output, JSON or binary.
  const std::string body = json{{"locations", pts}}.dump();
  const HttpReply mj = http(port(), "POST", "/matrix", body);
  ASSERT_EQ(mj.status, 200) << mj.body;
  EXPECT_EQ(mj.body, read_file(cli_json));
  const HttpReply mb =
      http(port(), "POST", "/matrix", body, "Accept: application/octet-stream\r\n");
  ASSERT_EQ(mb.status, 200);
  EXPECT_EQ(mb.headers.at("content-type"), "application/octet-stream");
  EXPECT_EQ(mb.body, read_file(cli_bin));
}

TEST_F(ServeTest, MemoryStaysFlatOverManyRequests) {
  auto points = example_points();
  points.resize(4);  // vehicles' starts and the first job: on the roads
  const std::string target = table_target(points, "?annotations=duration,distance");
  const std::string fleet = read_file(source_dir() / "examples/fleet.json");
  auto round = [&](int n) {
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(http(port(), "GET", target).status, 200);
      ASSERT_EQ(http(port(), "POST", "/", fleet).status, 200);
      ASSERT_EQ(http(port(), "POST", "/", "{\"jobs\": [").status, 400);
    }
  };
  round(40);  // warm: allocator arenas of both workers, network engines
  const long before = server().rss_kb();
  round(150);
  const long after = server().rss_kb();
  ASSERT_GT(before, 0);
  // 450 requests: a leak of 10 KiB per request (4.5 MiB) would show; allocator noise stays below.
  EXPECT_LT(after - before, 4096) << "RSS " << before << " kB -> " << after << " kB";
}

}  // namespace
}  // namespace routesolve::test
