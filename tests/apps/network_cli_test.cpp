// End-to-end tests of the road-network side of the routesolve tool: network build / info,
// matrix (CSV and JSON points, binary output, unreachable pairs), solve --network with JSON and
// GeoJSON output. Solutions are read back and validated on the same road matrices.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "routesolve/io/formats.hpp"
#include "routesolve/io/road_formats.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "routesolve/network/road_router.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/validator.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using namespace routesolve;
using nlohmann::json;

namespace {

using test::run_tool;
using test::ToolRun;

fs::path temp_dir(const std::string& name) { return test::temp_dir("netcli", name); }

void write_file(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

fs::path monaco() { return test::datasets_dir() / "roads/osm/monaco.osm.pbf"; }

/// Builds the Monaco cache once per test binary run.
fs::path monaco_cache() {
  static const fs::path cache = [] {
    const fs::path dir = temp_dir("cache");
    const fs::path file = dir / "monaco.rsnet";
    const ToolRun r = run_tool("network build " + monaco().string() + " -o " + file.string());
    EXPECT_EQ(r.exit_code, 0) << r.out;
    return file;
  }();
  return cache;
}

// Points inside Monaco (each within a few metres of a road) and one in Paris.
const char* kPointsCsv =
    "id,lon,lat\ncasino,7.4246,43.7384\nport,7.4190,43.7311\nlarvotto,7.4300,43.7450\n";
const char* kPointsJson = "[[7.4246, 43.7384], [7.4190, 43.7311], [7.4300, 43.7450]]";

const char* kFleet = R"({
  "vehicles": [{"id": 1, "start": [7.4246, 43.7384], "end": [7.4246, 43.7384], "capacity": [4]},
               {"id": 2, "start": [7.4246, 43.7384], "end": [7.4246, 43.7384], "capacity": [4]}],
  "jobs": [{"id": 1, "location": [7.4190, 43.7311], "delivery": [1], "service": 120},
           {"id": 2, "location": [7.4300, 43.7450], "delivery": [1], "service": 120},
           {"id": 3, "location": [7.4155, 43.7285], "delivery": [1], "service": 120},
           {"id": 4, "location": [7.4210, 43.7370], "delivery": [1], "service": 120},
           {"id": 5, "location": [7.4270, 43.7420], "delivery": [1], "service": 120},
           {"id": 6, "location": [7.4120, 43.7340], "delivery": [1], "service": 120},
           {"id": 7, "location": [2.3500, 48.8500], "delivery": [1], "service": 120}]
})";

std::vector<std::vector<std::int64_t>> as_matrix(const json& j) {
  return j.get<std::vector<std::vector<std::int64_t>>>();
}

}  // namespace

TEST(NetworkCli, HelpListsTheNewCommands) {
  for (const char* sub : {"network build", "network info", "matrix"}) {
    const ToolRun r = run_tool(std::string(sub) + " --help");
    EXPECT_EQ(r.exit_code, 0) << sub;
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << r.out;
  }
  EXPECT_NE(run_tool("solve --help").out.find("--network"), std::string::npos);
  EXPECT_EQ(run_tool("network").exit_code, 2);
}

TEST(NetworkCli, BuildAndInfo) {
  ROUTESOLVE_REQUIRE_DATASET("roads/osm/monaco.osm.pbf");
  const fs::path dir = temp_dir("build");
  const fs::path cache = dir / "monaco.rsnet";
  const ToolRun build = run_tool("network build " + monaco().string() + " -o " + cache.string());
  ASSERT_EQ(build.exit_code, 0) << build.out;
  for (const char* word : {"read:", "kept:", "dropped:", "components", "import:", "cache:"})
    EXPECT_NE(build.out.find(word), std::string::npos) << word << "\n" << build.out;
  ASSERT_TRUE(fs::exists(cache));
  const RoadNetwork net = io::read_network_cache(cache);
  const ToolRun info = run_tool("network info " + cache.string());
  ASSERT_EQ(info.exit_code, 0) << info.out;
  EXPECT_NE(info.out.find(std::to_string(net.graph.node_count()) + " nodes"), std::string::npos)
      << info.out;
  EXPECT_NE(info.out.find("(cache)"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("bbox:"), std::string::npos) << info.out;

  EXPECT_EQ(run_tool("network info " + (dir / "missing.rsnet").string()).exit_code, 2);
}

TEST(NetworkCli, MatrixFromCsvAndJsonPointsAgree) {
  ROUTESOLVE_REQUIRE_DATASET("roads/osm/monaco.osm.pbf");
  const fs::path dir = temp_dir("matrix");
  write_file(dir / "points.csv", kPointsCsv);
  write_file(dir / "points.json", kPointsJson);
  const ToolRun csv =
      run_tool("matrix --network " + monaco_cache().string() + " --points " +
               (dir / "points.csv").string() + " -o " + (dir / "csv.json").string());
  ASSERT_EQ(csv.exit_code, 0) << csv.out;
  const ToolRun js = run_tool("matrix --network " + monaco_cache().string() + " --points " +
                              (dir / "points.json").string() + " -o " +
                              (dir / "json.json").string() + " --threads 2");
  ASSERT_EQ(js.exit_code, 0) << js.out;

  const json a = json::parse(read_file(dir / "csv.json"));
  const json b = json::parse(read_file(dir / "json.json"));
  EXPECT_EQ(a, b);
  const auto dur = as_matrix(a["matrices"]["car"]["durations"]);
  const auto dist = as_matrix(a["matrices"]["car"]["distances"]);
  ASSERT_EQ(dur.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    ASSERT_EQ(dur[i].size(), 3u);
    for (std::size_t j = 0; j < 3; ++j) {
      if (i == j) {
        EXPECT_EQ(dur[i][j], 0);
        EXPECT_EQ(dist[i][j], 0);
      } else {
        EXPECT_GT(dur[i][j], 10) << i << "," << j;      // seconds
        EXPECT_GT(dist[i][j], 300) << i << "," << j;    // metres
        EXPECT_LT(dist[i][j], 20000) << i << "," << j;  // Monaco is small
      }
    }
  }

  // The same matrices through the library.
  const network::RoadRouter router(io::read_network_cache(monaco_cache()));
  const std::vector<Coordinates> pts = {{7.4246, 43.7384}, {7.4190, 43.7311}, {7.4300, 43.7450}};
  const network::PointMatrices pm = network::point_matrices(router, pts, 1000.0);
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j) {
      EXPECT_EQ(dur[i][j], (pm.matrices.durations[i * 3 + j] + 5) / 10);
      EXPECT_EQ(dist[i][j], pm.matrices.distances[i * 3 + j]);
    }

  // Binary: header, then durations and distances as int64.
  const ToolRun bin =
      run_tool("matrix --network " + monaco_cache().string() + " --points " +
               (dir / "points.csv").string() + " --binary -o " + (dir / "m.bin").string());
  ASSERT_EQ(bin.exit_code, 0) << bin.out;
  const std::string raw = read_file(dir / "m.bin");
  ASSERT_EQ(raw.size(), 24u + 2 * 9 * 8);
  EXPECT_EQ(raw.substr(0, 8), "RSMATRIX");
  std::uint32_t version = 0;
  std::uint64_t n = 0;
  std::memcpy(&version, raw.data() + 8, 4);
  std::memcpy(&n, raw.data() + 16, 8);
  EXPECT_EQ(version, 1u);
  EXPECT_EQ(n, 3u);
  for (std::size_t k = 0; k < 9; ++k) {
    std::int64_t d = 0, m = 0;
    std::memcpy(&d, raw.data() + 24 + 8 * k, 8);
    std::memcpy(&m, raw.data() + 24 + 72 + 8 * k, 8);
    EXPECT_EQ(d, dur[k / 3][k % 3]);
    EXPECT_EQ(m, dist[k / 3][k % 3]);
  }
}

TEST(NetworkCli, UnreachablePointsAreNamedAndFailUnlessAllowed) {
  ROUTESOLVE_REQUIRE_DATASET("roads/osm/monaco.osm.pbf");
  const fs::path dir = temp_dir("unreachable");
  write_file(dir / "points.csv", std::string(kPointsCsv) + "paris,2.35,48.85\n");
  const std::string base =
      "matrix --network " + monaco_cache().string() + " --points " + (dir / "points.csv").string();
  const ToolRun fail = run_tool(base + " -o " + (dir / "m.json").string());
  EXPECT_EQ(fail.exit_code, 1) << fail.out;
  EXPECT_NE(fail.out.find("'paris'"), std::string::npos) << fail.out;
  EXPECT_NE(fail.out.find("--allow-unreachable"), std::string::npos) << fail.out;
  EXPECT_FALSE(fs::exists(dir / "m.json"));

  const ToolRun ok = run_tool(base + " --allow-unreachable -o " + (dir / "m.json").string());
  ASSERT_EQ(ok.exit_code, 0) << ok.out;
  const auto dur =
      as_matrix(json::parse(read_file(dir / "m.json"))["matrices"]["car"]["durations"]);
  ASSERT_EQ(dur.size(), 4u);
  EXPECT_EQ(dur[3][3], 0);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(dur[i][3], 2147483647);
    EXPECT_EQ(dur[3][i], 2147483647);
  }

  const ToolRun far = run_tool(base + " --max-snap 0.001 -o " + (dir / "m2.json").string());
  EXPECT_EQ(far.exit_code, 1) << far.out;  // nothing lies within a millimetre
}

TEST(NetworkCli, NodePointsOnANetworkWithoutCoordinates) {
  ROUTESOLVE_REQUIRE_DATASET("roads/dimacs/rome99.gr");
  const fs::path dir = temp_dir("nodes");
  const fs::path cache = dir / "rome99.rsnet";
  const ToolRun build =
      run_tool("network build " + (test::datasets_dir() / "roads/dimacs/rome99.gr").string() +
               " -o " + cache.string());
  ASSERT_EQ(build.exit_code, 0) << build.out;
  write_file(dir / "nodes.csv", "id,node\na,0\nb,17\nc,3000\n");
  const ToolRun r = run_tool("matrix --network " + cache.string() + " --points " +
                             (dir / "nodes.csv").string() + " -o " + (dir / "m.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto dist =
      as_matrix(json::parse(read_file(dir / "m.json"))["matrices"]["car"]["distances"]);
  const RoadNetwork net = io::read_network_cache(cache);
  const network::DijkstraMatrixEngine engine(net.graph);
  EXPECT_EQ(dist[1][2], key_length(engine.shortest_key(17, 3000)));

  write_file(dir / "bad.csv", "id,node\na,0\nb,999999\n");
  const ToolRun bad =
      run_tool("matrix --network " + cache.string() + " --points " + (dir / "bad.csv").string());
  EXPECT_EQ(bad.exit_code, 2) << bad.out;
  EXPECT_NE(bad.out.find("points[1]"), std::string::npos) << bad.out;
  write_file(dir / "lonlat.csv", kPointsCsv);
  const ToolRun no_coords =
      run_tool("matrix --network " + cache.string() + " --points " + (dir / "lonlat.csv").string());
  EXPECT_EQ(no_coords.exit_code, 2) << no_coords.out;
  EXPECT_NE(no_coords.out.find("no coordinates"), std::string::npos) << no_coords.out;
}

TEST(NetworkCli, BadPointsFilesAreNamed) {
  ROUTESOLVE_REQUIRE_DATASET("roads/osm/monaco.osm.pbf");
  const fs::path dir = temp_dir("badpoints");
  write_file(dir / "header.csv", "name,x,y\na,1,2\n");
  write_file(dir / "field.csv", "id,lon,lat\na,7.42,43.73\nb,seven,43.73\n");
  write_file(dir / "bad.json", "[[7.42, 43.73], [7.42]]");
  const std::string base = "matrix --network " + monaco_cache().string() + " --points ";
  const ToolRun h = run_tool(base + (dir / "header.csv").string());
  EXPECT_EQ(h.exit_code, 2);
  EXPECT_NE(h.out.find("header.csv:1"), std::string::npos) << h.out;
  const ToolRun f = run_tool(base + (dir / "field.csv").string());
  EXPECT_EQ(f.exit_code, 2);
  EXPECT_NE(f.out.find("field.csv:3"), std::string::npos) << f.out;
  EXPECT_NE(f.out.find("lon"), std::string::npos) << f.out;
  const ToolRun j = run_tool(base + (dir / "bad.json").string());
  EXPECT_EQ(j.exit_code, 2);
  EXPECT_NE(j.out.find("[1]"), std::string::npos) << j.out;
}

TEST(NetworkCli, SolveOnRoadTravelTimesAndTheSolutionValidates) {
  ROUTESOLVE_REQUIRE_DATASET("roads/osm/monaco.osm.pbf");
  const fs::path dir = temp_dir("solve");
  write_file(dir / "fleet.json", kFleet);
  const fs::path out = dir / "solution.json";
  const ToolRun r = run_tool("solve " + (dir / "fleet.json").string() + " --network " +
                             monaco_cache().string() + " --profile -o " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("jobs[6].location"), std::string::npos) << r.out;  // the Paris job is named
  for (const char* stage : {"snap", "matrix"})
    EXPECT_NE(r.out.find(stage), std::string::npos) << r.out;

  // Validate on the same road matrices.
  ProblemSpec spec = io::read_problem(dir / "fleet.json");
  const auto router =
      std::make_shared<const network::RoadRouter>(io::read_network_cache(monaco_cache()));
  ASSERT_TRUE(network::fill_matrices(spec, network::RoadProvider(router)));
  const auto problem = Problem::create(std::move(spec));
  const Solution s = io::read_vroom_solution(out, *problem);
  const ValidationReport report = validate(*problem, s);
  EXPECT_TRUE(report.ok()) << report.to_text();
  ASSERT_EQ(s.unassigned.size(), 1u);
  EXPECT_EQ(s.unassigned[0].id, 7u);
  EXPECT_EQ(s.unassigned[0].reason, UnassignedReason::Unreachable);
  const json doc = json::parse(read_file(out));
  EXPECT_EQ(doc["unassigned"][0]["reason"], "unreachable");

  // The tool's own validator, on the same network.
  const ToolRun check = run_tool("validate " + (dir / "fleet.json").string() + " " + out.string() +
                                 " --network " + monaco_cache().string());
  EXPECT_EQ(check.exit_code, 0) << check.out;
  EXPECT_NE(check.out.find("valid"), std::string::npos) << check.out;

  // A depot too far from the roads is an input error naming it.
  json fleet = json::parse(kFleet);
  fleet["vehicles"][1]["start"] = {2.35, 48.85};
  write_file(dir / "far_depot.json", fleet.dump());
  const ToolRun bad = run_tool("solve " + (dir / "far_depot.json").string() + " --network " +
                               monaco_cache().string());
  EXPECT_EQ(bad.exit_code, 2) << bad.out;
  EXPECT_NE(bad.out.find("vehicles[1].start"), std::string::npos) << bad.out;
}

TEST(NetworkCli, GeoJsonRoutesFollowTheRoads) {
  ROUTESOLVE_REQUIRE_DATASET("roads/osm/monaco.osm.pbf");
  const fs::path dir = temp_dir("geojson");
  write_file(dir / "fleet.json", kFleet);
  const fs::path out = dir / "routes.geojson";
  const ToolRun r =
      run_tool("solve " + (dir / "fleet.json").string() + " --network " + monaco_cache().string() +
               " --output-format geojson -q -o " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json doc = json::parse(read_file(out));
  EXPECT_EQ(doc["type"], "FeatureCollection");
  std::size_t lines = 0, stops = 0, unassigned = 0;
  std::map<std::int64_t, std::size_t> stops_per_vehicle, points_per_vehicle;
  for (const json& f : doc["features"]) {
    const std::string kind = f["properties"]["kind"];
    if (kind == "route") {
      ++lines;
      EXPECT_EQ(f["geometry"]["type"], "LineString");
      points_per_vehicle[f["properties"]["vehicle"]] = f["geometry"]["coordinates"].size();
      for (const json& c : f["geometry"]["coordinates"]) {
        EXPECT_GT(c[0].get<double>(), 7.38);  // every drawn point is in Monaco
        EXPECT_LT(c[0].get<double>(), 7.46);
      }
    } else if (kind == "stop") {
      ++stops;
      ++stops_per_vehicle[f["properties"]["vehicle"]];
    } else if (kind == "unassigned") {
      ++unassigned;
    }
  }
  EXPECT_GE(lines, 1u);
  EXPECT_EQ(unassigned, 1u);
  for (const auto& [vehicle, points] : points_per_vehicle)
    EXPECT_GT(points, 2 * stops_per_vehicle[vehicle])
        << "vehicle " << vehicle << ": the line should follow the roads";
  EXPECT_GT(stops, 0u);
}
