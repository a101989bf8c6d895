// Contraction hierarchy: invariants, exact point-to-point keys against a plain Dijkstra on many
// random graphs, serialisation round trip and corruption detection.

#include "routesolve/contraction_hierarchy.hpp"

#include <gtest/gtest.h>

#include <string>

#include "road_graph_fixture.hpp"
#include "routesolve/error.hpp"
#include "test_support.hpp"

namespace routesolve {
namespace {

void expect_exact_pairs(const RoadGraph& g, const ContractionHierarchy& ch, std::size_t sources,
                        std::uint64_t seed) {
  for (const NodeId s : test::random_nodes(g.node_count(), sources, seed)) {
    const std::vector<PathKey> dist = test::dijkstra(g, s);
    for (const NodeId t : test::random_nodes(g.node_count(), 40, seed + s))
      ASSERT_EQ(ch_shortest_key(ch, s, t), dist[t]) << "from " << s << " to " << t;
  }
}

TEST(ContractionHierarchy, RandomGraphsGiveExactKeys) {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const std::size_t n = 20 + seed * 17;  // random graphs have no hierarchy: keep them small
    const RoadGraph g = test::random_graph(n, 1.0 + 0.5 * static_cast<double>(seed % 4),
                                           seed % 3 == 0 ? 3 : 500, seed);
    ChBuildStats stats;
    const ContractionHierarchy ch = build_contraction_hierarchy(g, {}, &stats);
    ASSERT_NO_THROW(ch.validate()) << "seed " << seed;
    EXPECT_EQ(ch.node_count(), n);
    EXPECT_EQ(stats.levels, ch.level_count());
    EXPECT_EQ(ch.graph_fingerprint, graph_fingerprint(g));
    expect_exact_pairs(g, ch, 8, seed);
  }
}

TEST(ContractionHierarchy, GridsGiveExactKeysAndFewLevels) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const RoadGraph g = test::grid_graph(40, 30, seed);
    const ContractionHierarchy ch = build_contraction_hierarchy(g);
    ASSERT_NO_THROW(ch.validate());
    EXPECT_LT(ch.level_count(), g.node_count() / 4);
    expect_exact_pairs(g, ch, 10, seed);
  }
}

TEST(ContractionHierarchy, TightWitnessLimitsStayExact) {
  const RoadGraph g = test::random_graph(400, 3.0, 50, 7);
  ChBuildOptions tight;
  tight.witness_settle_limit = 1;
  tight.simulation_settle_limit = 1;
  tight.simulation_hop_limit = 1;
  const ContractionHierarchy ch = build_contraction_hierarchy(g, tight);
  ASSERT_NO_THROW(ch.validate());
  expect_exact_pairs(g, ch, 10, 7);
}

TEST(ContractionHierarchy, EmptyAndTinyGraphs) {
  const ContractionHierarchy empty = build_contraction_hierarchy(RoadGraph{});
  EXPECT_EQ(empty.node_count(), 0u);
  EXPECT_NO_THROW(empty.validate());
  EXPECT_EQ(ContractionHierarchy::from_bytes(empty.to_bytes()), empty);

  const RoadGraph one = test::make_graph(1, {{0, 0, 5, 5}});  // a self loop only
  const ContractionHierarchy ch = build_contraction_hierarchy(one);
  EXPECT_EQ(ch.up_arc_count(), 0u);
  EXPECT_EQ(ch_shortest_key(ch, 0, 0), PathKey{0});
}

TEST(ContractionHierarchy, SerialisationRoundTrip) {
  const RoadGraph g = test::grid_graph(20, 20, 3);
  const ContractionHierarchy ch = build_contraction_hierarchy(g);
  const std::vector<std::uint8_t> bytes = ch.to_bytes();
  EXPECT_EQ(ContractionHierarchy::from_bytes(bytes), ch);

  // Truncation, a wrong magic and a broken invariant are invalid input.
  const auto expect_invalid = [](std::vector<std::uint8_t> b, const char* what) {
    try {
      (void)ContractionHierarchy::from_bytes(b);
      ADD_FAILURE() << "no error for " << what;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::InvalidInput) << e.what();
      EXPECT_NE(std::string(e.what()).find("contraction hierarchy"), std::string::npos) << e.what();
    }
  };
  expect_invalid(std::vector<std::uint8_t>(bytes.begin(), bytes.end() - 3), "truncation");
  expect_invalid(std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + 10), "short header");
  std::vector<std::uint8_t> magic = bytes;
  magic[0] = 'X';
  expect_invalid(magic, "magic");
  std::vector<std::uint8_t> version = bytes;
  version[4] = 99;
  expect_invalid(version, "version");
  // rank[] starts right after magic, version, fingerprint and its count: make it a non-permutation.
  std::vector<std::uint8_t> broken = bytes;
  const std::size_t rank0 = 4 + 4 + 8 + 8;
  broken[rank0] = broken[rank0 + 4];
  broken[rank0 + 1] = broken[rank0 + 5];
  broken[rank0 + 2] = broken[rank0 + 6];
  broken[rank0 + 3] = broken[rank0 + 7];
  expect_invalid(broken, "duplicate rank");
}

TEST(ContractionHierarchy, FingerprintSeesWeightChanges) {
  RoadGraph g = test::grid_graph(10, 10, 1);
  const std::uint64_t before = graph_fingerprint(g);
  g.length[3] += 1;
  EXPECT_NE(graph_fingerprint(g), before);
}

TEST(ContractionHierarchy, Rome99GivesExactKeys) {
  ROUTESOLVE_REQUIRE_DATASET("roads/dimacs/rome99.gr");
  const RoadGraph g = test::read_dimacs_for_test(test::datasets_dir() / "roads/dimacs/rome99.gr");
  ASSERT_EQ(g.node_count(), 3353u);
  const ContractionHierarchy ch = build_contraction_hierarchy(g);
  ASSERT_NO_THROW(ch.validate());
  expect_exact_pairs(g, ch, 20, 99);
}

}  // namespace
}  // namespace routesolve
