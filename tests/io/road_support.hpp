#pragma once
// Helpers shared by the road-network tests (road_formats_test.cpp, road_osm_test.cpp,
// road_cache_test.cpp): a temporary-directory fixture, graph checks, and an independent naive
// reading of an arc list (largest SCC, minimum parallel arcs) to compare importers against.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <map>
#include <numeric>
#include <optional>
#include <queue>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "routesolve/error.hpp"
#include "routesolve/io/road_formats.hpp"
#include "routesolve/road_graph.hpp"
#include "test_support.hpp"

namespace road_support {

namespace fs = std::filesystem;
using namespace routesolve;

using RoadFilesTest = routesolve::test::ScratchDirTest;

inline std::optional<std::size_t> find_arc(const RoadGraph& g, NodeId u, NodeId v) {
  for (std::uint32_t a = g.first_out[u]; a < g.first_out[u + 1]; ++a)
    if (g.head[a] == v) return a;
  return std::nullopt;
}

inline std::vector<char> reachable(const RoadGraph& g, NodeId s, bool reverse) {
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
inline void expect_well_formed(const RoadGraph& g) {
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

inline void expect_same_network(const RoadNetwork& a, const RoadNetwork& b) {
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

inline std::string error_of(const std::function<void()>& f) {
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
inline RoadGraph naive_largest_scc(std::size_t n, const std::vector<NaiveArc>& arcs,
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

// A ring of 8 two-way residential roads (OSM nodes 1..8 -> graph nodes 0..7) around which
// each test adds chords; a chord's arcs are checked between graph nodes (i-1, j-1).
inline std::string ring_osm(const std::string& extra_ways, const std::string& extra_nodes = "") {
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

}  // namespace road_support
