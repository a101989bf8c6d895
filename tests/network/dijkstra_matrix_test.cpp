// The CPU travel matrices (Boost.Graph Dijkstra) against an independent binary-heap Dijkstra on
// the (duration, length) key: random graphs with unreachable pairs, rome99.gr and Monaco; thread
// count independence; path reconstruction.

#include "routesolve/network/dijkstra_matrix.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <random>
#include <utility>
#include <vector>

#include "routesolve/error.hpp"
#include "routesolve/io/road_formats.hpp"
#include "test_support.hpp"

namespace routesolve::test {
namespace {

/// Textbook Dijkstra with std::priority_queue and lazy deletion; saturating like the engine.
std::vector<PathKey> reference_dijkstra(const RoadGraph& g, NodeId source) {
  std::vector<PathKey> dist(g.node_count(), kNoPath);
  using Entry = std::pair<PathKey, NodeId>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
  dist[source] = 0;
  queue.emplace(0, source);
  while (!queue.empty()) {
    const auto [d, u] = queue.top();
    queue.pop();
    if (d != dist[u]) continue;
    for (std::uint32_t a = g.first_out[u]; a < g.first_out[u + 1]; ++a) {
      const PathKey w = g.arc_key(a);
      const PathKey nd = d > kNoPath - w ? kNoPath : d + w;
      if (nd < dist[g.head[a]]) {
        dist[g.head[a]] = nd;
        queue.emplace(nd, g.head[a]);
      }
    }
  }
  return dist;
}

/// CSR graph from an arc list (tail, head, duration, length).
struct ArcSpec {
  NodeId tail, head;
  std::uint32_t duration, length;
};
RoadGraph make_graph(std::size_t n, std::vector<ArcSpec> arcs) {
  std::stable_sort(arcs.begin(), arcs.end(),
                   [](const ArcSpec& a, const ArcSpec& b) { return a.tail < b.tail; });
  RoadGraph g;
  g.first_out.assign(n + 1, 0);
  for (const ArcSpec& a : arcs) ++g.first_out[a.tail + 1];
  for (std::size_t u = 0; u < n; ++u) g.first_out[u + 1] += g.first_out[u];
  for (const ArcSpec& a : arcs) {
    g.head.push_back(a.head);
    g.duration.push_back(a.duration);
    g.length.push_back(a.length);
  }
  return g;
}

/// Random directed graph, not strongly connected: some pairs are unreachable.
RoadGraph random_graph(std::mt19937_64& rng, std::size_t n, std::size_t m) {
  std::uniform_int_distribution<NodeId> node(0, static_cast<NodeId>(n - 1));
  std::uniform_int_distribution<std::uint32_t> dur(0, 600), len(0, 5000);
  std::vector<ArcSpec> arcs;
  for (std::size_t k = 0; k < m; ++k) arcs.push_back({node(rng), node(rng), dur(rng), len(rng)});
  return make_graph(n, std::move(arcs));
}

std::vector<NodeId> random_nodes(std::mt19937_64& rng, std::size_t n, std::size_t count) {
  std::uniform_int_distribution<NodeId> node(0, static_cast<NodeId>(n - 1));
  std::vector<NodeId> out(count);
  for (auto& v : out) v = node(rng);
  return out;
}

/// Checks every cell of the engine's matrix against the reference; returns unreachable cells.
std::size_t expect_matches_reference(const RoadGraph& g, const NodeMatrices& m,
                                     const std::vector<NodeId>& sources,
                                     const std::vector<NodeId>& targets) {
  EXPECT_EQ(m.rows, sources.size());
  EXPECT_EQ(m.cols, targets.size());
  std::size_t unreachable = 0;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const std::vector<PathKey> ref = reference_dijkstra(g, sources[i]);
    for (std::size_t j = 0; j < targets.size(); ++j) {
      const PathKey k = ref[targets[j]];
      const std::size_t cell = i * m.cols + j;
      if (k == kNoPath) {
        ++unreachable;
        EXPECT_EQ(m.durations[cell], kUnreachable) << sources[i] << " -> " << targets[j];
        EXPECT_EQ(m.distances[cell], kUnreachable) << sources[i] << " -> " << targets[j];
      } else {
        EXPECT_EQ(m.durations[cell], key_duration(k)) << sources[i] << " -> " << targets[j];
        EXPECT_EQ(m.distances[cell], key_length(k)) << sources[i] << " -> " << targets[j];
      }
    }
  }
  return unreachable;
}

/// The path is made of arcs of the graph and its cheapest arcs sum to the shortest key.
void expect_valid_path(const RoadGraph& g, const network::DijkstraMatrixEngine& engine, NodeId from,
                       NodeId to) {
  const PathKey want = engine.shortest_key(from, to);
  const std::vector<NodeId> path = engine.path(from, to);
  if (want == kNoPath) {
    EXPECT_TRUE(path.empty());
    return;
  }
  ASSERT_FALSE(path.empty());
  EXPECT_EQ(path.front(), from);
  EXPECT_EQ(path.back(), to);
  PathKey sum = 0;
  for (std::size_t k = 0; k + 1 < path.size(); ++k) {
    PathKey best = kNoPath;
    for (std::uint32_t a = g.first_out[path[k]]; a < g.first_out[path[k] + 1]; ++a)
      if (g.head[a] == path[k + 1]) best = std::min(best, g.arc_key(a));
    ASSERT_NE(best, kNoPath) << "no arc " << path[k] << " -> " << path[k + 1];
    sum += best;
  }
  EXPECT_EQ(sum, want);
}

TEST(TravelMatrix, TinyGraphByHand) {
  // 0 -> 1 -> 2 fast, 0 -> 2 direct slow; 3 reaches nobody; 2 -> 0 back.
  const RoadGraph g =
      make_graph(4, {{0, 1, 10, 100}, {1, 2, 10, 100}, {0, 2, 30, 50}, {2, 0, 5, 5}});
  const network::DijkstraMatrixEngine engine(g);
  EXPECT_EQ(engine.node_count(), 4u);
  EXPECT_EQ(engine.arc_count(), 4u);
  const std::vector<NodeId> nodes{0, 1, 2, 3};
  const NodeMatrices m = engine.many_to_many(nodes, nodes);
  EXPECT_EQ(m.durations[0 * 4 + 2], 20);  // fastest wins although longer
  EXPECT_EQ(m.distances[0 * 4 + 2], 200);
  EXPECT_EQ(m.durations[2 * 4 + 1], 15);
  EXPECT_EQ(m.durations[3 * 4 + 3], 0);
  EXPECT_EQ(m.durations[3 * 4 + 0], kUnreachable);
  EXPECT_EQ(m.distances[0 * 4 + 3], kUnreachable);
  EXPECT_EQ(engine.path(0, 2), (std::vector<NodeId>{0, 1, 2}));
  EXPECT_EQ(engine.path(1, 1), (std::vector<NodeId>{1}));
  EXPECT_TRUE(engine.path(3, 0).empty());
}

TEST(TravelMatrix, EqualDurationsTieBreakOnLength) {
  const RoadGraph g = make_graph(3, {{0, 1, 10, 300}, {1, 2, 10, 300}, {0, 2, 20, 500}});
  const network::DijkstraMatrixEngine engine(g);
  const std::vector<NodeId> s{0}, t{2};
  const NodeMatrices m = engine.many_to_many(s, t);
  EXPECT_EQ(m.durations[0], 20);
  EXPECT_EQ(m.distances[0], 500);
}

TEST(TravelMatrix, HugeWeightsSaturateInsteadOfWrapping) {
  const std::uint32_t big = 0xfffffffeu;  // (big, 7) is a real arc key, just below kNoPath
  const RoadGraph g = make_graph(3, {{0, 1, big, 7}, {1, 2, big, 7}});
  const network::DijkstraMatrixEngine engine(g);
  const std::vector<NodeId> s{0}, t{1, 2};
  const NodeMatrices m = engine.many_to_many(s, t);
  EXPECT_EQ(m.durations[0], static_cast<std::int64_t>(big));
  EXPECT_EQ(m.durations[1],
            kUnreachable);  // the sum does not fit the key: no path, never a small value
}

TEST(TravelMatrix, NodesOutOfRangeAreNamed) {
  const RoadGraph g = make_graph(2, {{0, 1, 1, 1}});
  const network::DijkstraMatrixEngine engine(g);
  const std::vector<NodeId> ok{0}, bad{0, 7};
  try {
    (void)engine.many_to_many(ok, bad);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidInput);
    EXPECT_NE(std::string(e.what()).find("targets[1]"), std::string::npos) << e.what();
  }
}

TEST(TravelMatrix, RandomGraphsMatchReferenceDijkstra) {
  std::size_t unreachable = 0, cells = 0;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    std::mt19937_64 rng(seed);
    const std::size_t n = 1 + rng() % 120;
    const std::size_t m = rng() % (3 * n + 1);
    const RoadGraph g = random_graph(rng, n, m);
    const network::DijkstraMatrixEngine engine(g);
    const auto sources = random_nodes(rng, n, 1 + rng() % 15);
    const auto targets = random_nodes(rng, n, 1 + rng() % 15);  // duplicates included
    const unsigned threads = 1 + static_cast<unsigned>(seed % 3);
    const NodeMatrices mat = engine.many_to_many(sources, targets, threads);
    SCOPED_TRACE("seed " + std::to_string(seed));
    unreachable += expect_matches_reference(g, mat, sources, targets);
    cells += sources.size() * targets.size();
    for (std::size_t k = 0; k < 3; ++k)
      expect_valid_path(g, engine, sources[k % sources.size()], targets[k % targets.size()]);
  }
  EXPECT_GT(unreachable, 0u) << "the random graphs should leave some pairs unreachable";
  EXPECT_LT(unreachable, cells);
}

TEST(TravelMatrix, ResultDoesNotDependOnThreadCount) {
  std::mt19937_64 rng(42);
  const RoadGraph g = random_graph(rng, 2000, 7000);
  const network::DijkstraMatrixEngine engine(g);
  const auto sources = random_nodes(rng, 2000, 64);
  const auto targets = random_nodes(rng, 2000, 50);
  network::MatrixStats one, many;
  const NodeMatrices a = engine.many_to_many(sources, targets, 1, &one);
  for (unsigned threads : {2u, 3u, 8u}) {
    const NodeMatrices b = engine.many_to_many(sources, targets, threads, &many);
    EXPECT_EQ(a.durations, b.durations) << threads;
    EXPECT_EQ(a.distances, b.distances) << threads;
    EXPECT_EQ(one.settled_nodes, many.settled_nodes) << threads;
    EXPECT_EQ(many.threads, threads);
  }
  EXPECT_GT(one.settled_nodes, 0u);
}

TEST(TravelMatrix, Rome99MatchesReferenceDijkstra) {
  ROUTESOLVE_REQUIRE_DATASET("roads/dimacs/rome99.gr");
  const RoadNetwork net = io::read_dimacs(datasets_dir() / "roads/dimacs/rome99.gr");
  const RoadGraph& g = net.graph;
  ASSERT_GT(g.node_count(), 3000u);
  const network::DijkstraMatrixEngine engine(g);
  std::mt19937_64 rng(99);
  const auto sources = random_nodes(rng, g.node_count(), 40);
  const auto targets = random_nodes(rng, g.node_count(), 60);
  const NodeMatrices m = engine.many_to_many(sources, targets, 2);
  EXPECT_EQ(expect_matches_reference(g, m, sources, targets),
            0u);  // one strongly connected component
  for (std::size_t k = 0; k < 10; ++k) expect_valid_path(g, engine, sources[k], targets[k]);
}

TEST(TravelMatrix, MonacoMatchesReferenceDijkstra) {
  ROUTESOLVE_REQUIRE_DATASET("roads/osm/monaco.osm.pbf");
  const RoadNetwork net = io::read_osm_pbf(datasets_dir() / "roads/osm/monaco.osm.pbf");
  const RoadGraph& g = net.graph;
  ASSERT_GT(g.node_count(), 100u);
  const network::DijkstraMatrixEngine engine(g);
  std::mt19937_64 rng(377);
  const auto sources = random_nodes(rng, g.node_count(), 25);
  const auto targets = random_nodes(rng, g.node_count(), 40);
  const NodeMatrices m = engine.many_to_many(sources, targets, 2);
  EXPECT_EQ(expect_matches_reference(g, m, sources, targets), 0u);
  for (std::size_t k = 0; k < 10; ++k) expect_valid_path(g, engine, sources[k], targets[k]);
}

}  // namespace
}  // namespace routesolve::test
