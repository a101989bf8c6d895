// The migration-case pieces: the scenario generator and the synthetic city (library and
// `routesolve generate`), and the stage profile of `solve --profile-out`.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cli_runner.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/road_formats.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "routesolve/network/matrix_provider.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/scenario/scenario.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using namespace routesolve;
using nlohmann::json;

namespace {

using test::run_tool;
using test::ToolRun;

fs::path temp_dir(const std::string& name) { return test::temp_dir("migration", name); }

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Node positions at the generator's printed precision (1e-7 degrees).
std::set<std::pair<long long, long long>> node_positions(const RoadGraph& g) {
  std::set<std::pair<long long, long long>> s;
  for (const Coordinates& c : g.coords)
    s.emplace(std::llround(c.lon * 1e7), std::llround(c.lat * 1e7));
  return s;
}

void expect_valid_scenario(const std::string& text, const RoadGraph& graph,
                           const scenario::ScenarioOptions& o) {
  ProblemSpec spec = io::parse_vroom_problem(text, "generated.json");
  ASSERT_EQ(spec.jobs.size(), o.stops);
  ASSERT_EQ(spec.vehicles.size(), o.trucks);
  EXPECT_TRUE(spec.matrices.empty()) << "coordinates only: solve --network computes the matrices";
  const auto nodes = node_positions(graph);
  const auto on_network = [&](const LocationSpec& l) {
    return l.coords &&
           nodes.count({std::llround(l.coords->lon * 1e7), std::llround(l.coords->lat * 1e7)}) == 1;
  };
  std::set<std::pair<long long, long long>> depots;
  for (const VehicleSpec& v : spec.vehicles) {
    ASSERT_TRUE(v.start && v.end);
    EXPECT_TRUE(on_network(*v.start));
    EXPECT_EQ(v.start->coords, v.end->coords);
    depots.emplace(std::llround(v.start->coords->lon * 1e7),
                   std::llround(v.start->coords->lat * 1e7));
    EXPECT_EQ(v.capacity.size(), o.capacity_dims);
    ASSERT_EQ(v.breaks.size(), 1u);
    EXPECT_EQ(v.breaks[0].service, 1800);
    EXPECT_LT(v.time_window.start, v.time_window.end);
  }
  EXPECT_EQ(depots.size(), std::min(o.depots, o.trucks));
  for (const JobSpec& j : spec.jobs) {
    EXPECT_TRUE(on_network(j.location)) << "job " << j.id << " is not on a road node";
    ASSERT_EQ(j.time_windows.size(), 1u);
    EXPECT_GE(j.service, 120);
    EXPECT_LE(j.service, 600);
    EXPECT_EQ(j.delivery.size(), o.capacity_dims);
  }
  network::fill_matrices(spec, network::GreatCircleProvider{});
  EXPECT_NO_THROW((void)Problem::create(std::move(spec)));
}

}  // namespace

TEST(SyntheticCity, IsAStronglyConnectedGridWithOneWayStreets) {
  scenario::SyntheticCityOptions o;
  o.streets = 20;
  const RoadNetwork net = scenario::synthetic_city(o);
  EXPECT_EQ(net.source, "synthetic:city");
  EXPECT_EQ(net.graph.node_count(), 400u) << "the whole grid is one strongly connected component";
  EXPECT_EQ(net.report.components, 1u);
  EXPECT_TRUE(net.graph.has_coordinates());
  const std::size_t two_way_arcs = 2 * 2 * 20 * 19;
  EXPECT_LT(net.graph.arc_count(), two_way_arcs) << "some streets are one-way";
  EXPECT_GT(net.graph.arc_count(), two_way_arcs * 3 / 4);
  // Arterials are faster: the smallest deciseconds per metre is 50 km/h (0.72), the largest 30
  // (1.2).
  double fastest = 1e9, slowest = 0;
  for (std::size_t a = 0; a < net.graph.arc_count(); ++a) {
    const double pace = static_cast<double>(net.graph.duration[a]) / net.graph.length[a];
    fastest = std::min(fastest, pace), slowest = std::max(slowest, pace);
  }
  EXPECT_NEAR(fastest, 0.72, 0.02);
  EXPECT_NEAR(slowest, 1.2, 0.02);
}

TEST(Scenario, SameSeedSameBytesOtherSeedOtherScenario) {
  const RoadNetwork city = scenario::synthetic_city();
  scenario::ScenarioOptions o;
  o.trucks = 7;
  o.stops = 60;
  o.seed = 42;
  const std::string a = scenario::generate_scenario(city.graph, o);
  EXPECT_EQ(a, scenario::generate_scenario(city.graph, o));
  o.seed = 43;
  EXPECT_NE(a, scenario::generate_scenario(city.graph, o));
}

TEST(Scenario, GeneratedFileParsesAndLiesOnTheSyntheticCity) {
  const RoadNetwork city = scenario::synthetic_city();
  scenario::ScenarioOptions o;
  o.trucks = 12;
  o.stops = 150;
  o.depots = 3;
  o.capacity_dims = 2;
  o.seed = 5;
  expect_valid_scenario(scenario::generate_scenario(city.graph, o), city.graph, o);
}

TEST(Scenario, MoreStopsThanNodesAndBadArguments) {
  scenario::SyntheticCityOptions small;
  small.streets = 4;
  const RoadNetwork city = scenario::synthetic_city(small);
  scenario::ScenarioOptions o;
  o.trucks = 2;
  o.stops = 40;  // 16 nodes: drawn with replacement
  expect_valid_scenario(scenario::generate_scenario(city.graph, o), city.graph, o);
  o.depots = 17;
  EXPECT_THROW((void)scenario::generate_scenario(city.graph, o), Error);
  o.depots = 1;
  o.trucks = 0;
  EXPECT_THROW((void)scenario::generate_scenario(city.graph, o), Error);
}

TEST(Scenario, StopsLieOnLiechtenstein) {
  const fs::path pbf = test::datasets_dir() / "roads/osm/liechtenstein-latest.osm.pbf";
  if (!fs::exists(pbf)) GTEST_SKIP() << "dataset missing: " << pbf;
  const RoadNetwork net = io::read_network(pbf);
  scenario::ScenarioOptions o;
  o.trucks = 10;
  o.stops = 300;
  o.depots = 2;
  expect_valid_scenario(scenario::generate_scenario(net.graph, o), net.graph, o);
}

TEST(GenerateCommand, ByteIdenticalFilesAndTheNetworkCache) {
  const fs::path dir = temp_dir("generate");
  const std::string common = "generate --trucks 4 --stops 40 --seed 9 --city-streets 16 -q";
  ASSERT_EQ(run_tool(common + " -o " + (dir / "a.json").string() + " --write-network " +
                     (dir / "city.rsnet").string())
                .exit_code,
            0);
  ASSERT_EQ(run_tool(common + " -o " + (dir / "b.json").string()).exit_code, 0);
  EXPECT_EQ(read_file(dir / "a.json"), read_file(dir / "b.json"));
  const RoadNetwork net = io::read_network(dir / "city.rsnet");
  EXPECT_EQ(net.graph.node_count(), 256u);
  scenario::ScenarioOptions o;
  o.trucks = 4;
  o.stops = 40;
  expect_valid_scenario(read_file(dir / "a.json"), net.graph, o);
  EXPECT_EQ(run_tool("generate --trucks 0 -o " + (dir / "c.json").string()).exit_code, 2);
  fs::remove_all(dir);
}

TEST(SolveProfileOut, JsonHasEveryPipelineStageWithSharesSummingToOne) {
  const fs::path dir = temp_dir("profile");
  ASSERT_EQ(
      run_tool("generate --trucks 3 --stops 30 --seed 3 --city-streets 12 -q -o " +
               (dir / "fleet.json").string() + " --write-network " + (dir / "city.rsnet").string())
          .exit_code,
      0);
  for (const std::string backend : {"cpu", "cuda-host"}) {
    SCOPED_TRACE(backend);
    const fs::path prof = dir / (backend + ".profile.json");
    const ToolRun r = run_tool("solve " + (dir / "fleet.json").string() + " --network " +
                               (dir / "city.rsnet").string() + " --backend " + backend +
                               " --time-limit 0.2 -q --profile -o " + (dir / "sol.json").string() +
                               " --profile-out " + prof.string());
    ASSERT_EQ(r.exit_code, 0) << r.out;
    EXPECT_NE(r.out.find("stage profile"), std::string::npos) << r.out;
    const json j = json::parse(read_file(prof));
    EXPECT_EQ(j.at("backend"), backend);
    EXPECT_EQ(j.at("mismatches"), 0);  // any device result that does not check out fails
    EXPECT_EQ(j.at("input"), (dir / "fleet.json").string());
    const double total = j.at("total").get<double>();
    EXPECT_GT(total, 0.0);
    std::vector<std::string> names;
    double shares = 0.0, seconds = 0.0;
    for (const json& st : j.at("stages")) {
      names.push_back(st.at("stage").get<std::string>());
      EXPECT_GE(st.at("seconds").get<double>(), 0.0);
      shares += st.at("share").get<double>();
      seconds += st.at("seconds").get<double>();
      ASSERT_TRUE(st.at("parts").is_array());
      for (const json& p : st.at("parts")) {
        EXPECT_TRUE(p.contains("stage") && p.contains("seconds") && p.contains("share"));
      }
      if (st.at("stage") == "matrix") {
        EXPECT_GT(st.at("seconds").get<double>(), 0.0);
        if (backend == "cuda-host") {
          bool sweeps = false;
          for (const json& p : st.at("parts")) sweeps = sweeps || p.at("stage") == "sweeps";
          EXPECT_TRUE(sweeps) << st.dump();
        }
      }
    }
    const std::vector<std::string> expected{"parse",    "network_load", "snap", "matrix",
                                            "h2d",      "kernels",      "d2h",  "search",
                                            "validate", "output",       "other"};
    EXPECT_EQ(names, expected);
    EXPECT_NEAR(shares, 1.0, 1e-9);
    EXPECT_NEAR(seconds, total, 1e-9);
  }
  fs::remove_all(dir);
}
