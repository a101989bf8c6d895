// Road-network text importers: DIMACS, edge lists and PACE, checked against an independent naive
// reading (largest SCC by forward/backward search, minimum parallel arcs), and malformed input.
// OSM: road_osm_test.cpp; the .rsnet cache: road_cache_test.cpp.

#include "routesolve/io/road_formats.hpp"

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
#include "routesolve/road_graph.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using namespace routesolve;
using routesolve::io::CacheSection;
using namespace road_support;

namespace {

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

TEST_F(RoadFilesTest, ReadNetworkUnknownFormat) {
  const auto f = write("thing.bin", "hello");
  EXPECT_NE(error_of([&] { io::read_network(f); }).find("unknown road network format"),
            std::string::npos);
  // An .osm file without the extension is recognised by its content.
  const auto xml = write("ring.data", ring_osm(""));
  EXPECT_EQ(io::read_network(xml).graph.node_count(), 8u);
}

}  // namespace
