// OSM importer: the car profile on hand-made .osm files (oneway, roundabouts, motorways, access,
// maxspeed, largest component), the shared OSM extracts with a cache round trip, and the PBF
// reader's file descriptors on corrupt input.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "road_support.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/road_formats.hpp"
#include "routesolve/road_graph.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using namespace routesolve;
using routesolve::io::CacheSection;
using namespace road_support;

namespace {

// ---- OSM car profile on hand-made files -----------------------------------------------------

// A chord way from OSM node a to OSM node b with the given tags ("k=v" pairs).
std::string chord(int id, int a, int b,
                  const std::vector<std::pair<std::string, std::string>>& tags) {
  std::ostringstream s;
  s << "  <way id='" << id << "' version='1'><nd ref='" << a << "'/><nd ref='" << b << "'/>";
  for (const auto& [k, v] : tags) s << "<tag k='" << k << "' v='" << v << "'/>";
  s << "</way>\n";
  return s.str();
}

std::uint32_t expected_ds(std::uint32_t length, double kmh) {
  return static_cast<std::uint32_t>(std::max(1.0, std::round(36.0 * length / kmh)));
}

class OsmProfileTest : public RoadFilesTest {
 protected:
  RoadNetwork import(const std::string& ways, const io::OsmProfile& profile = {}) {
    const RoadNetwork net = io::read_osm_pbf(write("t.osm", ring_osm(ways)), profile);
    EXPECT_EQ(net.graph.node_count(), 8u);
    return net;
  }
  // Checks arc u->v is present with the duration of `kmh` (0: absent).
  static void expect_arc(const RoadGraph& g, NodeId u, NodeId v, double kmh) {
    const auto a = find_arc(g, u, v);
    if (kmh == 0) {
      EXPECT_FALSE(a.has_value()) << "arc " << u << "->" << v << " should be absent";
      return;
    }
    ASSERT_TRUE(a.has_value()) << "arc " << u << "->" << v << " missing";
    EXPECT_EQ(g.duration[*a], expected_ds(g.length[*a], kmh))
        << "arc " << u << "->" << v << " at " << kmh;
  }
};

TEST_F(OsmProfileTest, RingAloneIsTwoWayResidential) {
  const RoadNetwork net = import("");
  expect_well_formed(net.graph);
  EXPECT_EQ(net.graph.arc_count(), 16u);
  for (NodeId i = 0; i < 8; ++i) {
    expect_arc(net.graph, i, (i + 1) % 8, 30);
    expect_arc(net.graph, (i + 1) % 8, i, 30);
  }
  // Lengths are haversine metres: the ring's chord of 45 degrees on a ~0.004 deg ellipse.
  const auto a = find_arc(net.graph, 0, 1);
  ASSERT_TRUE(a);
  EXPECT_GT(net.graph.length[*a], 250u);
  EXPECT_LT(net.graph.length[*a], 500u);
  EXPECT_EQ(net.graph.coords[0], (Coordinates{9.506, 47.1}));
  EXPECT_EQ(net.report.components, 1u);
  EXPECT_EQ(net.report.nodes_dropped, 0u);
}

TEST_F(OsmProfileTest, Oneway) {
  const RoadNetwork net =
      import(chord(1, 1, 5, {{"highway", "residential"}, {"oneway", "yes"}}) +
             chord(2, 2, 6, {{"highway", "residential"}, {"oneway", "-1"}}) +
             chord(3, 3, 7, {{"highway", "residential"}, {"oneway", "true"}}) +
             chord(4, 4, 8, {{"highway", "residential"}, {"oneway", "no"}}) +
             chord(5, 1, 3, {{"highway", "residential"}, {"oneway", "reversible"}}));
  expect_arc(net.graph, 0, 4, 30);
  expect_arc(net.graph, 4, 0, 0);
  expect_arc(net.graph, 1, 5, 0);
  expect_arc(net.graph, 5, 1, 30);
  expect_arc(net.graph, 2, 6, 30);
  expect_arc(net.graph, 6, 2, 0);
  expect_arc(net.graph, 3, 7, 30);
  expect_arc(net.graph, 7, 3, 30);
  expect_arc(net.graph, 0, 2, 0);  // reversible: skipped
  expect_arc(net.graph, 2, 0, 0);
}

TEST_F(OsmProfileTest, ImpliedOnewayRoundaboutAndMotorway) {
  const RoadNetwork net = import(
      chord(1, 1, 5, {{"highway", "tertiary"}, {"junction", "roundabout"}}) +
      chord(2, 2, 6, {{"highway", "motorway"}}) +
      chord(3, 3, 7, {{"highway", "motorway"}, {"oneway", "no"}}) +
      chord(4, 4, 8, {{"highway", "primary"}, {"junction", "circular"}}) +
      chord(5, 1, 3, {{"highway", "motorway_link"}}) +
      chord(6, 2, 4, {{"highway", "primary"}, {"junction", "roundabout"}, {"oneway", "-1"}}));
  expect_arc(net.graph, 0, 4, 50);
  expect_arc(net.graph, 4, 0, 0);
  expect_arc(net.graph, 1, 5, 110);
  expect_arc(net.graph, 5, 1, 0);
  expect_arc(net.graph, 2, 6, 110);  // explicit oneway=no wins over the implied oneway
  expect_arc(net.graph, 6, 2, 110);
  expect_arc(net.graph, 3, 7, 70);
  expect_arc(net.graph, 7, 3, 0);
  expect_arc(net.graph, 0, 2, 60);
  expect_arc(net.graph, 2, 0, 0);
  expect_arc(net.graph, 1, 3, 0);  // explicit -1 on a roundabout
  expect_arc(net.graph, 3, 1, 70);
}

TEST_F(OsmProfileTest, AccessTags) {
  const RoadNetwork net = import(
      chord(1, 1, 5, {{"highway", "residential"}, {"access", "no"}}) +
      chord(2, 2, 6, {{"highway", "residential"}, {"access", "private"}}) +
      chord(3, 3, 7, {{"highway", "residential"}, {"access", "no"}, {"motorcar", "yes"}}) +
      chord(4, 4, 8, {{"highway", "residential"}, {"motor_vehicle", "no"}}) +
      chord(5, 1, 3, {{"highway", "residential"}, {"vehicle", "no"}}) +
      chord(6, 2, 4, {{"highway", "residential"}, {"motorcar", "no"}}) +
      chord(7, 3, 5,
            {{"highway", "residential"}, {"access", "private"}, {"motor_vehicle", "destination"}}) +
      chord(8, 4, 6, {{"highway", "residential"}, {"vehicle", "no"}, {"motor_vehicle", "yes"}}));
  for (auto [u, v] : {std::pair<NodeId, NodeId>{0, 4}, {1, 5}, {3, 7}, {0, 2}, {1, 3}}) {
    expect_arc(net.graph, u, v, 0);
    expect_arc(net.graph, v, u, 0);
  }
  for (auto [u, v] : {std::pair<NodeId, NodeId>{2, 6}, {2, 4}, {3, 5}}) {
    expect_arc(net.graph, u, v, 30);
    expect_arc(net.graph, v, u, 30);
  }
}

TEST_F(OsmProfileTest, NonDrivableWaysExcluded) {
  const RoadNetwork net = import(
      chord(1, 1, 5, {{"highway", "footway"}}) + chord(2, 2, 6, {{"highway", "cycleway"}}) +
      chord(3, 3, 7, {{"highway", "residential"}, {"area", "yes"}}) +
      chord(4, 4, 8, {{"highway", "service"}, {"service", "parking_aisle"}}) +
      chord(5, 1, 3, {{"highway", "service"}, {"service", "driveway"}}) +
      chord(6, 2, 4, {{"highway", "service"}}) + chord(7, 3, 5, {{"railway", "rail"}}) +
      chord(8, 4, 6, {{"highway", "proposed"}}) + chord(9, 5, 7, {{"highway", "living_street"}}));
  for (auto [u, v] :
       {std::pair<NodeId, NodeId>{0, 4}, {1, 5}, {2, 6}, {3, 7}, {0, 2}, {2, 4}, {3, 5}}) {
    expect_arc(net.graph, u, v, 0);
    expect_arc(net.graph, v, u, 0);
  }
  expect_arc(net.graph, 1, 3, 20);  // plain service road
  expect_arc(net.graph, 4, 6, 10);  // living street

  io::OsmProfile lenient;
  lenient.parking_aisles = lenient.driveways = true;
  const RoadNetwork all =
      import(chord(4, 4, 8, {{"highway", "service"}, {"service", "parking_aisle"}}) +
                 chord(5, 1, 3, {{"highway", "service"}, {"service", "driveway"}}),
             lenient);
  expect_arc(all.graph, 3, 7, 20);
  expect_arc(all.graph, 0, 2, 20);
}

TEST_F(OsmProfileTest, Maxspeed) {
  const RoadNetwork net = import(
      chord(1, 1, 5, {{"highway", "residential"}, {"maxspeed", "50"}}) +
      chord(2, 2, 6, {{"highway", "residential"}, {"maxspeed", "20 mph"}}) +
      chord(3, 3, 7, {{"highway", "residential"}, {"maxspeed", "walk"}}) +
      chord(4, 4, 8, {{"highway", "primary"}, {"maxspeed", "DE:urban"}}) +
      chord(5, 1, 3, {{"highway", "secondary"}, {"maxspeed", "DE:rural"}}) +
      chord(6, 2, 4, {{"highway", "primary"}, {"maxspeed", "none"}}) +
      chord(7, 3, 5,
            {{"highway", "residential"}, {"maxspeed:forward", "40"}, {"maxspeed:backward", "20"}}) +
      chord(8, 4, 6, {{"highway", "residential"}, {"maxspeed", "garbage"}}) +
      chord(9, 5, 7, {{"highway", "residential"}, {"maxspeed", "60;40"}}));
  expect_arc(net.graph, 0, 4, 50);
  expect_arc(net.graph, 1, 5, 20 * 1.609344);
  expect_arc(net.graph, 2, 6, 7);
  expect_arc(net.graph, 3, 7, 50);
  expect_arc(net.graph, 0, 2, 90);
  expect_arc(net.graph, 1, 3, 70);  // "none": the class default
  expect_arc(net.graph, 2, 4, 40);
  expect_arc(net.graph, 4, 2, 20);
  expect_arc(net.graph, 3, 5, 30);  // unparsable: the class default
  expect_arc(net.graph, 4, 6, 40);  // several values: the lowest

  io::OsmProfile ignore;
  ignore.use_maxspeed = false;
  const RoadNetwork plain =
      import(chord(1, 1, 5, {{"highway", "residential"}, {"maxspeed", "50"}}), ignore);
  expect_arc(plain.graph, 0, 4, 30);
}

TEST(ParseMaxspeed, Variants) {
  EXPECT_EQ(io::parse_maxspeed("50"), 50.0);
  EXPECT_EQ(io::parse_maxspeed(" 50 km/h "), 50.0);
  EXPECT_EQ(io::parse_maxspeed("50kmh"), 50.0);
  EXPECT_DOUBLE_EQ(*io::parse_maxspeed("30 mph"), 30 * 1.609344);
  EXPECT_DOUBLE_EQ(*io::parse_maxspeed("30mph"), 30 * 1.609344);
  EXPECT_DOUBLE_EQ(*io::parse_maxspeed("10 knots"), 18.52);
  EXPECT_EQ(io::parse_maxspeed("walk"), 7.0);
  EXPECT_EQ(io::parse_maxspeed("DE:urban"), 50.0);
  EXPECT_EQ(io::parse_maxspeed("FR:rural"), 90.0);
  EXPECT_EQ(io::parse_maxspeed("DE:living_street"), 7.0);
  EXPECT_EQ(io::parse_maxspeed("DE:zone30"), 30.0);
  EXPECT_EQ(io::parse_maxspeed("DE:zone:20"), 20.0);
  EXPECT_EQ(io::parse_maxspeed("50;30"), 30.0);
  EXPECT_FALSE(io::parse_maxspeed("DE:motorway"));
  EXPECT_FALSE(io::parse_maxspeed("none"));
  EXPECT_FALSE(io::parse_maxspeed("signals"));
  EXPECT_FALSE(io::parse_maxspeed("0"));
  EXPECT_FALSE(io::parse_maxspeed("50 furlongs"));
  EXPECT_FALSE(io::parse_maxspeed(""));
}

TEST_F(OsmProfileTest, LargestComponentKeptAndReported) {
  // A oneway spur to node 9 and an isolated two-way pair 10-11: both outside the largest SCC.
  const std::string nodes =
      "  <node id='9' version='1' lat='47.11' lon='9.51'/>\n"
      "  <node id='10' version='1' lat='47.12' lon='9.52'/>\n"
      "  <node id='11' version='1' lat='47.121' lon='9.521'/>\n";
  const std::string ways = chord(1, 1, 9, {{"highway", "residential"}, {"oneway", "yes"}}) +
                           chord(2, 10, 11, {{"highway", "residential"}});
  const RoadNetwork net = io::read_osm_pbf(write("t.osm", ring_osm(ways, nodes)));
  expect_well_formed(net.graph);
  EXPECT_EQ(net.graph.node_count(), 8u);
  EXPECT_EQ(net.report.nodes_read, 11u);
  EXPECT_EQ(net.report.nodes_kept, 8u);
  EXPECT_EQ(net.report.nodes_dropped, 3u);
  EXPECT_EQ(net.report.components, 3u);  // ring, {9}, {10, 11}
  EXPECT_EQ(net.report.arcs_read, 16u + 1u + 2u);
  EXPECT_EQ(net.report.arcs_kept, 16u);
  EXPECT_GE(net.report.import_seconds, 0.0);
}

TEST_F(OsmProfileTest, Errors) {
  EXPECT_NE(error_of([&] { io::read_osm_pbf(dir_ / "missing.osm.pbf"); }).find("missing.osm.pbf"),
            std::string::npos);
  const auto empty = write("empty.osm", "<?xml version='1.0'?><osm version='0.6'></osm>");
  EXPECT_NE(error_of([&] { io::read_osm_pbf(empty); }).find("empty graph"), std::string::npos);
  const auto bad = write("bad.osm", "<?xml version='1.0'?><osm version='0.6'><node id='1' lat='x");
  const std::string msg = error_of([&] { io::read_osm_pbf(bad); });
  EXPECT_NE(msg.find("bad.osm"), std::string::npos) << msg;
  const auto junk = write("junk.osm.pbf", std::string(100, '\x07'));
  EXPECT_NE(error_of([&] { io::read_osm_pbf(junk); }).find("junk.osm.pbf"), std::string::npos);
}

// ---- OSM extracts ------------------------------------------------------------------------------

struct Extract {
  const char* file;
  double lon_min, lon_max, lat_min, lat_max;  // generous bounding box of the region
};
constexpr Extract kExtracts[] = {
    {"monaco.osm.pbf", 7.3, 7.6, 43.6, 43.9},
    {"liechtenstein-latest.osm.pbf", 9.3, 9.8, 46.9, 47.4},
    {"baltimore.osm.pbf", -77.0, -76.3, 39.0, 39.6},
    {"nyc.osm.pbf", -74.3, -73.6, 40.4, 41.0},
    {"rome.osm.pbf", 12.2, 12.8, 41.6, 42.2},
};

class OsmExtractTest : public RoadFilesTest {
 protected:
  void check_extract(const Extract& e) {
    const fs::path file = test::datasets_dir() / "roads/osm" / e.file;
    if (!fs::exists(file)) GTEST_SKIP() << "dataset " << file.string() << " not found";
    const RoadNetwork net = io::read_network(file);
    expect_well_formed(net.graph);
    ASSERT_EQ(net.graph.coords.size(), net.graph.node_count());
    for (const Coordinates& c : net.graph.coords) {
      ASSERT_GE(c.lon, e.lon_min);
      ASSERT_LE(c.lon, e.lon_max);
      ASSERT_GE(c.lat, e.lat_min);
      ASSERT_LE(c.lat, e.lat_max);
    }
    EXPECT_EQ(net.report.nodes_kept + net.report.nodes_dropped, net.report.nodes_read);
    for (std::size_t a = 0; a < net.graph.arc_count(); ++a) {
      ASSERT_GE(net.graph.length[a], 1u);
      ASSERT_GE(net.graph.duration[a], 1u);
    }

    // Cache round trip, timed.
    const fs::path cache = dir_ / "net.rsnet";
    const auto t0 = std::chrono::steady_clock::now();
    io::write_network_cache(net, cache);
    const auto t1 = std::chrono::steady_clock::now();
    const RoadNetwork back = io::read_network(cache);
    const auto t2 = std::chrono::steady_clock::now();
    expect_same_network(net, back);
    const double write_s = std::chrono::duration<double>(t1 - t0).count();
    const double load_s = std::chrono::duration<double>(t2 - t1).count();
    std::cout << "[ osm     ] " << e.file << ": " << net.report.nodes_kept << " nodes, "
              << net.report.arcs_kept << " arcs (read " << net.report.nodes_read << " nodes, "
              << net.report.components << " components), import " << net.report.import_seconds
              << " s, cache " << fs::file_size(cache) << " bytes, write " << write_s << " s, load "
              << load_s << " s\n";
  }
};

TEST_F(OsmExtractTest, Monaco) { check_extract(kExtracts[0]); }
TEST_F(OsmExtractTest, Liechtenstein) { check_extract(kExtracts[1]); }
TEST_F(OsmExtractTest, Baltimore) { check_extract(kExtracts[2]); }
TEST_F(OsmExtractTest, Nyc) { check_extract(kExtracts[3]); }
TEST_F(OsmExtractTest, Rome) { check_extract(kExtracts[4]); }

}  // namespace

TEST(OsmPbf, CorruptBlobsDoNotLeakFileDescriptors) {
  // Fuzzing finding: libosmium's PBF parser closes its file descriptor only when the file parses
  // to the end, so every corrupt file read leaked one and a long fuzz run ran out of them. The
  // regression input is a fuzz input: its first byte picks the container (even: PBF).
  const auto input = routesolve::test::source_dir() /
                     "tests/io/regressions/osm_pbf/corrupt_blob_descriptor_leak.pbf.bin";
  std::ifstream in(input, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 1u);
  const auto file = std::filesystem::temp_directory_path() /
                    ("routesolve-corrupt-" + std::to_string(::getpid()) + ".osm.pbf");
  std::ofstream(file, std::ios::binary)
      .write(bytes.data() + 1, static_cast<std::streamsize>(bytes.size() - 1));
  auto open_descriptors = [] {
    std::size_t n = 0;
    for (auto it = std::filesystem::directory_iterator("/proc/self/fd");
         it != std::filesystem::directory_iterator(); ++it)
      ++n;
    return n;
  };
  // One read first: libraries may open something once (thread pools) that is not a leak.
  EXPECT_THROW(io::read_osm_pbf(file), Error);
  const std::size_t before = open_descriptors();
  for (int k = 0; k < 20; ++k) EXPECT_THROW(io::read_osm_pbf(file), Error);
  EXPECT_EQ(open_descriptors(), before);
  std::filesystem::remove(file);
}
