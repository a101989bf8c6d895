// Road-network importers and the .rsnet cache: the OSM car profile on hand-made .osm files
// (oneway, roundabouts, motorways, access, maxspeed), DIMACS and edge lists checked against an
// independent naive reading (largest SCC by forward/backward search, minimum parallel arcs),
// the shared OSM extracts, cache round trips and corruption detection, and malformed input.

#include "routesolve/io/road_formats.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <iostream>
#include <map>
#include <numeric>
#include <optional>
#include <queue>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "routesolve/error.hpp"
#include "routesolve/road_graph.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using namespace routesolve;
using routesolve::io::CacheSection;

namespace {

// ---- helpers ------------------------------------------------------------------------------------

class RoadFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("routesolve_roads_" + std::to_string(::getpid()) + "_" +
                                        info->test_suite_name() + "_" + info->name());
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  fs::path write(const std::string& name, const std::string& text) const {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
  fs::path dir_;
};

std::optional<std::size_t> find_arc(const RoadGraph& g, NodeId u, NodeId v) {
  for (std::uint32_t a = g.first_out[u]; a < g.first_out[u + 1]; ++a)
    if (g.head[a] == v) return a;
  return std::nullopt;
}

std::vector<char> reachable(const RoadGraph& g, NodeId s, bool reverse) {
  const std::size_t n = g.node_count();
  std::vector<std::vector<NodeId>> rev;
  if (reverse) {
    rev.resize(n);
    for (NodeId u = 0; u < n; ++u)
      for (std::uint32_t a = g.first_out[u]; a < g.first_out[u + 1]; ++a)
        rev[g.head[a]].push_back(u);
  }
  std::vector<char> seen(n, 0);
  std::vector<NodeId> stack{s};
  seen[s] = 1;
  while (!stack.empty()) {
    const NodeId u = stack.back();
    stack.pop_back();
    const auto visit = [&](NodeId w) {
      if (!seen[w]) seen[w] = 1, stack.push_back(w);
    };
    if (reverse) {
      for (NodeId w : rev[u]) visit(w);
    } else {
      for (std::uint32_t a = g.first_out[u]; a < g.first_out[u + 1]; ++a) visit(g.head[a]);
    }
  }
  return seen;
}

// The CSR invariants every importer promises, and strong connectivity.
void expect_well_formed(const RoadGraph& g) {
  ASSERT_GT(g.node_count(), 0u);
  ASSERT_EQ(g.first_out.size(), g.node_count() + 1);
  EXPECT_EQ(g.first_out.front(), 0u);
  EXPECT_EQ(g.first_out.back(), g.arc_count());
  ASSERT_EQ(g.duration.size(), g.arc_count());
  ASSERT_EQ(g.length.size(), g.arc_count());
  for (NodeId u = 0; u < g.node_count(); ++u) {
    ASSERT_LE(g.first_out[u], g.first_out[u + 1]);
    for (std::uint32_t a = g.first_out[u]; a < g.first_out[u + 1]; ++a) {
      ASSERT_LT(g.head[a], g.node_count());
      ASSERT_NE(g.head[a], u) << "self loop";
      if (a > g.first_out[u]) {
        ASSERT_LT(g.head[a - 1], g.head[a]) << "arcs of " << u << " unsorted or parallel";
      }
    }
  }
  const auto fwd = reachable(g, 0, false), bwd = reachable(g, 0, true);
  EXPECT_EQ(std::count(fwd.begin(), fwd.end(), 1), static_cast<long>(g.node_count()))
      << "not strongly connected";
  EXPECT_EQ(std::count(bwd.begin(), bwd.end(), 1), static_cast<long>(g.node_count()))
      << "not strongly connected";
}

void expect_same_network(const RoadNetwork& a, const RoadNetwork& b) {
  EXPECT_EQ(a.graph.first_out, b.graph.first_out);
  EXPECT_EQ(a.graph.head, b.graph.head);
  EXPECT_EQ(a.graph.duration, b.graph.duration);
  EXPECT_EQ(a.graph.length, b.graph.length);
  EXPECT_EQ(a.graph.coords, b.graph.coords);
  EXPECT_EQ(a.source, b.source);
  EXPECT_EQ(a.report.nodes_read, b.report.nodes_read);
  EXPECT_EQ(a.report.arcs_read, b.report.arcs_read);
  EXPECT_EQ(a.report.nodes_kept, b.report.nodes_kept);
  EXPECT_EQ(a.report.arcs_kept, b.report.arcs_kept);
  EXPECT_EQ(a.report.components, b.report.components);
  EXPECT_EQ(a.report.nodes_dropped, b.report.nodes_dropped);
  EXPECT_EQ(a.report.import_seconds, b.report.import_seconds);
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidInput) << e.what();
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a routesolve::Error: " << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error thrown";
  return {};
}

// An independent reading of a directed arc list: the largest SCC (fixpoint of forward and
// backward search from each unassigned node), nodes renumbered by increasing old id, the
// minimum (duration, length) key per node pair.
struct NaiveArc {
  std::size_t u, v;
  std::uint32_t duration, length;
};
RoadGraph naive_largest_scc(std::size_t n, const std::vector<NaiveArc>& arcs,
                            std::size_t* components) {
  std::vector<std::vector<std::size_t>> out(n), in(n);
  for (const NaiveArc& a : arcs) out[a.u].push_back(a.v), in[a.v].push_back(a.u);
  const auto search = [&](std::size_t s, const std::vector<std::vector<std::size_t>>& adj) {
    std::vector<char> seen(n, 0);
    std::queue<std::size_t> q;
    q.push(s);
    seen[s] = 1;
    while (!q.empty()) {
      const std::size_t u = q.front();
      q.pop();
      for (std::size_t w : adj[u])
        if (!seen[w]) seen[w] = 1, q.push(w);
    }
    return seen;
  };
  std::vector<long> comp(n, -1);
  long count = 0;
  std::vector<std::size_t> best;
  for (std::size_t s = 0; s < n; ++s) {
    if (comp[s] >= 0) continue;
    const auto f = search(s, out), b = search(s, in);
    std::vector<std::size_t> members;
    for (std::size_t v = 0; v < n; ++v)
      if (f[v] && b[v]) comp[v] = count, members.push_back(v);
    ++count;
    if (members.size() > best.size()) best = members;
  }
  *components = static_cast<std::size_t>(count);
  std::map<std::size_t, NodeId> id;
  for (std::size_t v : best) id.emplace(v, static_cast<NodeId>(id.size()));
  std::map<std::pair<NodeId, NodeId>, PathKey> key;
  for (const NaiveArc& a : arcs) {
    if (a.u == a.v || !id.count(a.u) || !id.count(a.v)) continue;
    const auto k = std::make_pair(id[a.u], id[a.v]);
    const PathKey p = make_path_key(a.duration, a.length);
    if (!key.count(k) || p < key[k]) key[k] = p;
  }
  RoadGraph g;
  g.first_out.assign(best.size() + 1, 0);
  for (const auto& [uv, k] : key) {  // std::map order: by tail, then head
    ++g.first_out[uv.first + 1];
    g.head.push_back(uv.second);
    g.duration.push_back(key_duration(k));
    g.length.push_back(key_length(k));
  }
  for (std::size_t v = 0; v < best.size(); ++v) g.first_out[v + 1] += g.first_out[v];
  return g;
}

// ---- OSM car profile on hand-made files -----------------------------------------------------

// A ring of 8 two-way residential roads (OSM nodes 1..8 -> graph nodes 0..7) around which
// each test adds chords; a chord's arcs are checked between graph nodes (i-1, j-1).
std::string ring_osm(const std::string& extra_ways, const std::string& extra_nodes = "") {
  std::ostringstream s;
  s.precision(10);
  s << "<?xml version='1.0' encoding='UTF-8'?>\n<osm version='0.6' generator='hand'>\n";
  for (int i = 0; i < 8; ++i) {
    const double angle = i * 3.14159265358979 / 4;
    s << "  <node id='" << i + 1 << "' version='1' lat='" << 47.1 + 0.004 * std::sin(angle)
      << "' lon='" << 9.5 + 0.006 * std::cos(angle) << "'/>\n";
  }
  s << extra_nodes;
  for (int i = 0; i < 8; ++i) {
    s << "  <way id='" << 100 + i << "' version='1'><nd ref='" << i + 1 << "'/><nd ref='"
      << (i + 1) % 8 + 1 << "'/><tag k='highway' v='residential'/></way>\n";
  }
  s << extra_ways << "</osm>\n";
  return s.str();
}

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

// ---- DIMACS ------------------------------------------------------------------------------------

TEST_F(RoadFilesTest, DimacsSmallWithCoordinates) {
  // 4 nodes: 1<->2<->3 strongly connected, 4 only reachable; a parallel arc and a self loop.
  const auto gr =
      write("g.gr",
            "c tiny\np sp 4 7\na 1 2 10\na 2 1 12\na 2 3 5\na 3 2 5\na 1 2 7\na 3 3 1\na 3 4 9\n");
  const auto co = write("g.co",
                        "c coords\np aux sp co 4\nv 1 12500000 41900000\nv 2 12501000 41900000\n"
                        "v 3 12502000 41901000\nv 4 12503000 41902000\n");
  const RoadNetwork net = io::read_dimacs(gr, co);
  expect_well_formed(net.graph);
  EXPECT_EQ(net.report.nodes_read, 4u);
  EXPECT_EQ(net.report.arcs_read, 7u);
  EXPECT_EQ(net.report.nodes_kept, 3u);
  EXPECT_EQ(net.report.arcs_kept, 4u);
  EXPECT_EQ(net.report.components, 2u);
  EXPECT_EQ(net.report.nodes_dropped, 1u);
  const auto a = find_arc(net.graph, 0, 1);
  ASSERT_TRUE(a);
  EXPECT_EQ(net.graph.duration[*a], 7u);  // the cheaper parallel arc
  EXPECT_EQ(net.graph.length[*a], 7u);
  ASSERT_EQ(net.graph.coords.size(), 3u);
  EXPECT_DOUBLE_EQ(net.graph.coords[2].lon, 12.502);
  EXPECT_DOUBLE_EQ(net.graph.coords[2].lat, 41.901);
  // read_network picks the .co beside the .gr.
  const RoadNetwork auto_net = io::read_network(gr);
  EXPECT_EQ(auto_net.graph.coords, net.graph.coords);
}

TEST_F(RoadFilesTest, DimacsMalformed) {
  const auto check = [&](const std::string& text, const std::string& needle) {
    const auto f = write("bad.gr", text);
    const std::string msg = error_of([&] { io::read_dimacs(f); });
    EXPECT_NE(msg.find(needle), std::string::npos) << "message: " << msg;
  };
  check("p sp 3 2\na 1 2 x\na 2 1 3\n", "bad.gr:2");
  check("p sp 3 2\na 1 2 4\na 2 7 3\n", "bad.gr:3");
  check("p sp 3 2\na 1 2 4\na 2 7 3\n", "out of range");
  check("p sp 3 3\na 1 2 4\na 2 1 3\n", "truncated");
  check("a 1 2 4\n", "before the problem line");
  check("", "no problem line");
  check("p sp 3 2\na 1 2 -4\na 2 1 3\n", "bad.gr:2");
  check("p sp 3 2\na 1 2\na 2 1 3\n", "bad.gr:2");
  check("p sp 3 1\na 1 1 4\n", "empty graph");
  const auto gr = write("ok.gr", "p sp 2 2\na 1 2 4\na 2 1 3\n");
  const auto co = write("short.co", "v 1 1000000 2000000\n");
  EXPECT_NE(error_of([&] { io::read_dimacs(gr, co); }).find("short.co"), std::string::npos);
  const auto co2 = write("bad.co", "v 1 1000000 2000000\nv 3 1 1\n");
  EXPECT_NE(error_of([&] { io::read_dimacs(gr, co2); }).find("bad.co:2"), std::string::npos);
}

TEST(RoadDatasets, Rome99AgainstNaiveReading) {
  ROUTESOLVE_REQUIRE_DATASET("roads/dimacs/rome99.gr");
  const fs::path file = test::datasets_dir() / "roads/dimacs/rome99.gr";
  const RoadNetwork net = io::read_dimacs(file);
  EXPECT_EQ(net.report.nodes_read, 3353u);
  EXPECT_EQ(net.report.arcs_read, 8870u);
  expect_well_formed(net.graph);

  std::ifstream in(file);
  std::string line;
  std::vector<NaiveArc> arcs;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] != 'a') continue;
    std::istringstream ls(line.substr(1));
    std::size_t u, v;
    std::uint32_t w;
    ls >> u >> v >> w;
    arcs.push_back({u - 1, v - 1, w, w});
  }
  std::size_t components = 0;
  const RoadGraph expected = naive_largest_scc(3353, arcs, &components);
  EXPECT_EQ(net.report.components, components);
  EXPECT_EQ(net.report.nodes_kept, expected.node_count());
  EXPECT_EQ(net.report.nodes_dropped, 3353 - expected.node_count());
  EXPECT_EQ(net.report.arcs_kept, expected.arc_count());
  EXPECT_EQ(net.graph.first_out, expected.first_out);
  EXPECT_EQ(net.graph.head, expected.head);
  EXPECT_EQ(net.graph.duration, expected.duration);
  EXPECT_EQ(net.graph.length, expected.length);
  std::cout << "[ rome99  ] kept " << net.report.nodes_kept << " of 3353 nodes, "
            << net.report.arcs_kept << " of 8870 arcs, " << net.report.components
            << " components\n";
}

// ---- edge lists and PACE -----------------------------------------------------------------------

TEST_F(RoadFilesTest, EdgeListFormats) {
  const auto f = write("g.txt", "# comment\n0 1 0.5\n1 2 0.25 # trailing\n\n2 0 1e-7\n7 3 4 0.1\n");
  const RoadNetwork net = io::read_edge_list(f);
  expect_well_formed(net.graph);
  EXPECT_EQ(net.report.nodes_read, 5u);  // ids 0..4 (4 is never used)
  EXPECT_EQ(net.report.nodes_kept, 3u);
  EXPECT_EQ(net.report.arcs_read, 8u);
  EXPECT_EQ(net.report.components, 2u);  // {0,1,2} and {3,4}
  const auto a = find_arc(net.graph, 0, 1), b = find_arc(net.graph, 2, 0);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(net.graph.duration[*a], 500000u);
  EXPECT_EQ(net.graph.length[*a], 500000u);
  EXPECT_EQ(net.graph.duration[*b], 1u);  // rounds to 0: at least 1
  const RoadNetwork scaled = io::read_edge_list(f, 1000.0);
  EXPECT_EQ(scaled.graph.duration[*find_arc(scaled.graph, 1, 0)], 500u);

  const auto check = [&](const std::string& text, const std::string& needle) {
    const auto bad = write("bad.cedge", text);
    const std::string msg = error_of([&] { io::read_edge_list(bad); });
    EXPECT_NE(msg.find(needle), std::string::npos) << "message: " << msg;
  };
  check("0 1 0.5\n1 2\n", "bad.cedge:2");
  check("0 1 0.5\n1 x 0.3\n", "bad.cedge:2");
  check("0 -1 0.5\n", "bad.cedge:1");
  check("0 1 -0.5\n", "bad.cedge:1");
  check("0 1 5000\n", "exceeds 32 bits");
  check("# nothing\n", "empty graph");
}

TEST(RoadDatasets, CalEdgeList) {
  ROUTESOLVE_REQUIRE_DATASET("roads/edgelist/cal.cedge");
  const fs::path file = test::datasets_dir() / "roads/edgelist/cal.cedge";
  const RoadNetwork net = io::read_network(file);
  EXPECT_EQ(net.report.nodes_read, 21048u);
  EXPECT_EQ(net.report.arcs_read, 2u * 21693u);
  expect_well_formed(net.graph);
  // Undirected: every arc has its reverse with the same weight.
  const RoadGraph& g = net.graph;
  for (NodeId u = 0; u < g.node_count(); ++u) {
    for (std::uint32_t a = g.first_out[u]; a < g.first_out[u + 1]; ++a) {
      const auto r = find_arc(g, g.head[a], u);
      ASSERT_TRUE(r);
      ASSERT_EQ(g.duration[*r], g.duration[a]);
    }
  }
  // Against a naive reading (weights x 1e6).
  std::ifstream in(file);
  std::vector<NaiveArc> arcs;
  std::size_t id, u, v;
  double w;
  while (in >> id >> u >> v >> w) {
    const auto s = static_cast<std::uint32_t>(std::max(1.0, std::round(w * 1e6)));
    arcs.push_back({u, v, s, s});
    arcs.push_back({v, u, s, s});
  }
  std::size_t components = 0;
  const RoadGraph expected = naive_largest_scc(21048, arcs, &components);
  EXPECT_EQ(net.report.components, components);
  EXPECT_EQ(g.first_out, expected.first_out);
  EXPECT_EQ(g.head, expected.head);
  EXPECT_EQ(g.duration, expected.duration);
  std::cout << "[ cal     ] kept " << net.report.nodes_kept << " of 21048 nodes, " << components
            << " components\n";
}

TEST_F(RoadFilesTest, PaceTopology) {
  const auto f = write("g.gr", "c pace\np tw 4 3\n1 2\n2 3\n3 1\n");
  const RoadNetwork net = io::read_network(f);  // "p tw": PACE, not DIMACS
  EXPECT_EQ(net.graph.node_count(), 3u);
  EXPECT_EQ(net.graph.arc_count(), 6u);
  EXPECT_EQ(net.report.components, 2u);
  for (std::size_t a = 0; a < 6; ++a) EXPECT_EQ(net.graph.arc_key(a), make_path_key(1, 1));
  EXPECT_NE(error_of([&] { io::read_pace(write("t.gr", "p tw 4 3\n1 2\n")); }).find("truncated"),
            std::string::npos);
  EXPECT_NE(
      error_of([&] { io::read_pace(write("x.gr.xz", "not xz data at all")); }).find("x.gr.xz"),
      std::string::npos);
}

TEST(RoadDatasets, PaceNewYorkXz) {
  ROUTESOLVE_REQUIRE_DATASET("roads/topology/NY.pace.gr.xz");
  const RoadNetwork net = io::read_network(test::datasets_dir() / "roads/topology/NY.pace.gr.xz");
  EXPECT_EQ(net.report.nodes_read, 264346u);
  EXPECT_EQ(net.report.arcs_read, 2u * 365050u);
  EXPECT_GT(net.graph.node_count(), 200000u);
  expect_well_formed(net.graph);
  std::cout << "[ NY pace ] kept " << net.report.nodes_kept << " nodes, " << net.report.arcs_kept
            << " arcs in " << net.report.import_seconds << " s\n";
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

// ---- cache -------------------------------------------------------------------------------------

class NetworkCacheTest : public RoadFilesTest {
 protected:
  RoadNetwork small() {
    return io::read_dimacs(
        write("g.gr", "p sp 3 4\na 1 2 10\na 2 1 12\na 2 3 5\na 3 1 5\n"),
        write("g.co", "v 1 12500000 41900000\nv 2 12501000 41900000\nv 3 12502000 41901000\n"));
  }
  static std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
};

TEST_F(NetworkCacheTest, RoundTripAndExtraSections) {
  const RoadNetwork net = small();
  const fs::path cache = dir_ / "g.rsnet";
  io::write_network_cache(net, cache, {CacheSection{"ch", {1, 2, 3}}, CacheSection{"future", {9}}});
  EXPECT_TRUE(io::is_network_cache(cache));
  expect_same_network(net, io::read_network_cache(cache));  // unknown sections skipped
  std::vector<CacheSection> extra;
  expect_same_network(net, io::read_network_cache(cache, &extra));
  ASSERT_EQ(extra.size(), 2u);
  EXPECT_EQ(extra[0].tag, "ch");
  EXPECT_EQ(extra[0].data, (std::vector<std::uint8_t>{1, 2, 3}));
  EXPECT_EQ(io::read_cache_section(cache, "future"), (std::vector<std::uint8_t>{9}));
  EXPECT_FALSE(io::read_cache_section(cache, "absent"));
  io::add_cache_section(cache, {"ch", {4, 5}});
  io::add_cache_section(cache, {"more", {}});
  EXPECT_EQ(io::read_cache_section(cache, "ch"), (std::vector<std::uint8_t>{4, 5}));
  EXPECT_EQ(io::read_cache_section(cache, "more"), std::vector<std::uint8_t>{});
  expect_same_network(net, io::read_network(cache));
  // No temporary file left behind.
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_)) ++files;
  EXPECT_EQ(files, 3u);  // g.gr, g.co, g.rsnet

  EXPECT_THROW(io::write_network_cache(net, cache, {CacheSection{"head", {}}}), Error);
  EXPECT_THROW(io::write_network_cache(net, cache, {CacheSection{"a_tag_much_too_long", {}}}),
               Error);
  // A network without coordinates round-trips too.
  RoadNetwork bare = net;
  bare.graph.coords.clear();
  io::write_network_cache(bare, cache);
  expect_same_network(bare, io::read_network_cache(cache));
}

TEST_F(NetworkCacheTest, CorruptionDetected) {
  const RoadNetwork net = small();
  const fs::path good = dir_ / "good.rsnet";
  io::write_network_cache(net, good, {CacheSection{"ch", {1, 2, 3}}});
  const std::string bytes = slurp(good);
  const auto check = [&](const std::string& content, const std::string& needle) {
    const fs::path bad = write("bad.rsnet", content);
    const std::string msg = error_of([&] { io::read_network_cache(bad); });
    EXPECT_NE(msg.find("bad.rsnet: network cache"), std::string::npos) << msg;
    EXPECT_NE(msg.find(needle), std::string::npos) << msg;
    EXPECT_NE(msg.find("rebuild it with `routesolve network build`"), std::string::npos) << msg;
  };
  // A flipped byte anywhere after the header, in the table or any section (the unknown one
  // included): a corrupt table is caught by its structure or the checksum, data by the checksum.
  for (std::size_t at = 32; at < bytes.size(); ++at) {
    std::string flipped = bytes;
    flipped[at] = static_cast<char>(flipped[at] ^ 0x10);
    check(flipped, "corrupt");
  }
  std::string data_flip = bytes;
  data_flip.back() = static_cast<char>(data_flip.back() ^ 0x10);
  check(data_flip, "checksum mismatch");
  check(bytes.substr(0, bytes.size() - 7), "truncated");
  check(bytes.substr(0, 20), "truncated");
  check(bytes + "xx", "trailing");
  std::string version = bytes;
  version[8] = 99;
  check(version, "version 99");
  std::string magic = bytes;
  magic[0] = 'X';
  check(magic, "wrong magic");
  check("", "truncated");
  // A stored checksum that does not match.
  std::string crc = bytes;
  crc[24] = static_cast<char>(crc[24] ^ 1);
  check(crc, "checksum mismatch");
  EXPECT_NE(error_of([&] { io::read_network_cache(dir_ / "none.rsnet"); }).find("none.rsnet"),
            std::string::npos);
}

TEST_F(RoadFilesTest, ReadNetworkUnknownFormat) {
  const auto f = write("thing.bin", "hello");
  EXPECT_NE(error_of([&] { io::read_network(f); }).find("unknown road network format"),
            std::string::npos);
  // An .osm file without the extension is recognised by its content.
  const auto xml = write("ring.data", ring_osm(""));
  EXPECT_EQ(io::read_network(xml).graph.node_count(), 8u);
}

}  // namespace

TEST(OsmPbf, CorruptBlobsDoNotLeakFileDescriptors) {
  // Fuzzing finding: libosmium's PBF parser closes its file descriptor only when the file parses
  // to the end, so every corrupt file read leaked one and a long fuzz run ran out of them. The
  // regression input is a fuzz input: its first byte picks the container (even: PBF).
  const auto input = routesolve::test::source_dir() / "tests/io/regressions/osm_pbf/corrupt_blob_descriptor_leak.pbf.bin";
  std::ifstream in(input, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 1u);
  const auto file = std::filesystem::temp_directory_path() / ("routesolve-corrupt-" + std::to_string(::getpid()) + ".osm.pbf");
  std::ofstream(file, std::ios::binary).write(bytes.data() + 1, static_cast<std::streamsize>(bytes.size() - 1));
  auto open_descriptors = [] {
    std::size_t n = 0;
    for (auto it = std::filesystem::directory_iterator("/proc/self/fd"); it != std::filesystem::directory_iterator(); ++it) ++n;
    return n;
  };
  // One read first: libraries may open something once (thread pools) that is not a leak.
  EXPECT_THROW(io::read_osm_pbf(file), Error);
  const std::size_t before = open_descriptors();
  for (int k = 0; k < 20; ++k) EXPECT_THROW(io::read_osm_pbf(file), Error);
  EXPECT_EQ(open_descriptors(), before);
  std::filesystem::remove(file);
}
