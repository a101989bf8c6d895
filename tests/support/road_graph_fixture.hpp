#pragma once
// Test graphs and an independent reference for the CH / PHAST tests: random directed graphs
// (parallel arcs, self loops, unreachable pairs, many equal durations to exercise the length
// tie-break), road-like grids, a tiny DIMACS .gr reader, and a plain Dijkstra on PathKey.

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <queue>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "routesolve/road_graph.hpp"

namespace routesolve::test {

struct ArcSpec {
  NodeId from, to;
  std::uint32_t duration, length;
};

/// CSR graph from an arc list (arcs kept in the given order per tail; parallel arcs kept).
inline RoadGraph make_graph(std::size_t n, const std::vector<ArcSpec>& arcs) {
  RoadGraph g;
  g.first_out.assign(n + 1, 0);
  for (const ArcSpec& a : arcs) ++g.first_out[a.from + 1];
  for (std::size_t u = 0; u < n; ++u) g.first_out[u + 1] += g.first_out[u];
  g.head.resize(arcs.size());
  g.duration.resize(arcs.size());
  g.length.resize(arcs.size());
  std::vector<std::uint32_t> next(g.first_out.begin(), g.first_out.end() - 1);
  for (const ArcSpec& a : arcs) {
    const std::uint32_t at = next[a.from]++;
    g.head[at] = a.to;
    g.duration[at] = a.duration;
    g.length[at] = a.length;
  }
  return g;
}

/// A random directed graph: `arcs_per_node` random arcs per node on average, durations in
/// [1, max_duration] (small values: many ties), lengths in [1, 5000].
inline RoadGraph random_graph(std::size_t n, double arcs_per_node, std::uint32_t max_duration,
                              std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<NodeId> node(0, static_cast<NodeId>(n - 1));
  std::uniform_int_distribution<std::uint32_t> dur(1, max_duration), len(1, 5000);
  std::vector<ArcSpec> arcs;
  const auto m = static_cast<std::size_t>(arcs_per_node * static_cast<double>(n));
  for (std::size_t i = 0; i < m; ++i) {
    const NodeId u = node(rng);
    const NodeId v = node(rng);
    arcs.push_back({u, v, dur(rng), len(rng)});
    if (i % 7 == 0) arcs.push_back({u, v, dur(rng), len(rng)});  // parallel arc
  }
  return make_graph(n, arcs);
}

/// A road-like grid (w x h), arcs both ways except some one-way streets, a few removed links
/// (so some nodes may be unreachable), and chains of degree-2 nodes from the grid's spacing.
inline RoadGraph grid_graph(std::size_t w, std::size_t h, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::uint32_t> dur(1, 60), len(10, 900);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  std::vector<ArcSpec> arcs;
  const auto id = [w](std::size_t x, std::size_t y) { return static_cast<NodeId>(y * w + x); };
  const auto link = [&](NodeId a, NodeId b) {
    const double c = coin(rng);
    if (c < 0.05) return;  // no road
    const std::uint32_t d = dur(rng), l = len(rng);
    if (c < 0.85) {
      arcs.push_back({a, b, d, l});
      arcs.push_back({b, a, d, l});
    } else if (c < 0.93) {
      arcs.push_back({a, b, d, l});
    } else {
      arcs.push_back({b, a, d, l});
    }
  };
  for (std::size_t y = 0; y < h; ++y)
    for (std::size_t x = 0; x < w; ++x) {
      if (x + 1 < w) link(id(x, y), id(x + 1, y));
      if (y + 1 < h && x % 3 == 0) link(id(x, y), id(x, y + 1));  // sparse verticals: chains
    }
  return make_graph(w * h, arcs);
}

/// DIMACS .gr ("a u v w", 1-based): w is both duration and length. Minimal, for tests only.
inline RoadGraph read_dimacs_for_test(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  std::size_t n = 0;
  std::vector<ArcSpec> arcs;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::istringstream ls(line);
    char kind = 0;
    ls >> kind;
    if (kind == 'p') {
      std::string sp;
      std::size_t m = 0;
      ls >> sp >> n >> m;
    } else if (kind == 'a') {
      std::uint32_t u = 0, v = 0, weight = 0;
      ls >> u >> v >> weight;
      arcs.push_back({u - 1, v - 1, weight, weight});
    }
  }
  return make_graph(n, arcs);
}

/// Plain Dijkstra on PathKey from one node: key of every node (kNoPath when unreachable).
inline std::vector<PathKey> dijkstra(const RoadGraph& g, NodeId source) {
  std::vector<PathKey> dist(g.node_count(), kNoPath);
  using Entry = std::pair<PathKey, NodeId>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
  dist[source] = 0;
  queue.push({0, source});
  while (!queue.empty()) {
    const auto [d, u] = queue.top();
    queue.pop();
    if (d != dist[u]) continue;
    for (std::uint32_t a = g.first_out[u]; a < g.first_out[u + 1]; ++a) {
      const PathKey nd = d + g.arc_key(a);
      if (nd < dist[g.head[a]]) {
        dist[g.head[a]] = nd;
        queue.push({nd, g.head[a]});
      }
    }
  }
  return dist;
}

/// Reference matrices from the plain Dijkstra.
inline NodeMatrices reference_matrices(const RoadGraph& g, const std::vector<NodeId>& sources,
                                       const std::vector<NodeId>& targets) {
  NodeMatrices m;
  m.rows = sources.size();
  m.cols = targets.size();
  m.durations.resize(m.rows * m.cols);
  m.distances.resize(m.rows * m.cols);
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const std::vector<PathKey> dist = dijkstra(g, sources[i]);
    for (std::size_t j = 0; j < targets.size(); ++j) {
      const PathKey k = dist[targets[j]];
      m.durations[i * m.cols + j] =
          k == kNoPath ? kUnreachable : static_cast<std::int64_t>(key_duration(k));
      m.distances[i * m.cols + j] =
          k == kNoPath ? kUnreachable : static_cast<std::int64_t>(key_length(k));
    }
  }
  return m;
}

/// `count` random node ids (duplicates allowed).
inline std::vector<NodeId> random_nodes(std::size_t n, std::size_t count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<NodeId> node(0, static_cast<NodeId>(n - 1));
  std::vector<NodeId> out(count);
  for (NodeId& v : out) v = node(rng);
  return out;
}

/// First differing entry of two matrices, as text; empty when equal.
inline std::string first_difference(const NodeMatrices& a, const NodeMatrices& b) {
  if (a.rows != b.rows || a.cols != b.cols) return "shapes differ";
  for (std::size_t i = 0; i < a.rows * a.cols; ++i)
    if (a.durations[i] != b.durations[i] || a.distances[i] != b.distances[i])
      return "entry (" + std::to_string(i / a.cols) + ", " + std::to_string(i % a.cols) + "): (" +
             std::to_string(a.durations[i]) + ", " + std::to_string(a.distances[i]) + ") vs (" +
             std::to_string(b.durations[i]) + ", " + std::to_string(b.distances[i]) + ")";
  return {};
}

}  // namespace routesolve::test
