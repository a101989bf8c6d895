// PHAST/RPHAST (cuda-host) on the real networks of ../shared/datasets/roads, through the
// importers: exactly the Boost.Graph engine's matrices (durations and distances), and the
// contraction hierarchy stored in / read back from the network cache.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "road_graph_fixture.hpp"
#include "routesolve/contraction_hierarchy.hpp"
#include "routesolve/cuda/matrix_engine.hpp"
#include "routesolve/io/road_formats.hpp"
#include "routesolve/network/dijkstra_matrix.hpp"
#include "test_support.hpp"

namespace routesolve::cuda {
namespace {

void expect_equal_to_boost(const std::string& rel, std::size_t sources, std::size_t targets) {
  const RoadNetwork net = io::read_network(test::datasets_dir() / rel);
  const RoadGraph& g = net.graph;
  const ContractionHierarchy ch = build_contraction_hierarchy(g);
  ASSERT_NO_THROW(ch.validate());
  const auto s = test::random_nodes(g.node_count(), sources, 11);
  const auto t = test::random_nodes(g.node_count(), targets, 12);
  PhastOptions o;
  o.threads = 2;
  PhastMatrixEngine engine(g, ch, o);
  const NodeMatrices got = engine.compute(s, t);
  const network::DijkstraMatrixEngine boost(g);
  EXPECT_EQ(test::first_difference(got, boost.many_to_many(s, t, 2)), "") << rel;
  // And the plain Dijkstra of this test on a few rows.
  const std::vector<NodeId> few(s.begin(), s.begin() + 5);
  EXPECT_EQ(test::first_difference(engine.compute(few, t), test::reference_matrices(g, few, t)), "")
      << rel;
}

TEST(PhastNetworks, Rome99EqualsBoostGraph) {
  ROUTESOLVE_REQUIRE_DATASET("roads/dimacs/rome99.gr");
  expect_equal_to_boost("roads/dimacs/rome99.gr", 400, 400);
}

TEST(PhastNetworks, CaliforniaEdgeListEqualsBoostGraph) {
  ROUTESOLVE_REQUIRE_DATASET("roads/edgelist/cal.cedge");
  expect_equal_to_boost("roads/edgelist/cal.cedge", 300, 500);
}

TEST(PhastNetworks, MonacoOsmEqualsBoostGraph) {
  ROUTESOLVE_REQUIRE_DATASET("roads/osm/monaco.osm.pbf");
  expect_equal_to_boost("roads/osm/monaco.osm.pbf", 300, 300);
}

TEST(PhastNetworks, HierarchyTravelsInTheNetworkCache) {
  ROUTESOLVE_REQUIRE_DATASET("roads/dimacs/rome99.gr");
  const RoadNetwork net = io::read_network(test::datasets_dir() / "roads/dimacs/rome99.gr");
  const ContractionHierarchy ch = build_contraction_hierarchy(net.graph);
  const auto file = std::filesystem::temp_directory_path() / "routesolve_phast_cache_test.rsnet";
  io::write_network_cache(net, file, {io::CacheSection{kChCacheSection, ch.to_bytes()}});
  const auto bytes = io::read_cache_section(file, kChCacheSection);
  ASSERT_TRUE(bytes.has_value());
  const ContractionHierarchy back = ContractionHierarchy::from_bytes(*bytes);
  EXPECT_EQ(back, ch);
  EXPECT_EQ(back.graph_fingerprint, graph_fingerprint(io::read_network_cache(file).graph));
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace routesolve::cuda
