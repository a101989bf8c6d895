#pragma once
// Contraction hierarchy (CH) of a road graph on the (duration, length) PathKey, built once on the
// CPU and kept as plain vectors (RoutingKit style), ready for PHAST/RPHAST sweeps.
//
// Nodes are numbered by *rank*: the contraction order, renumbered so that nodes are grouped by
// *level* (level 0 first). Every CH arc joins two nodes of different levels and leads from the
// lower to the higher rank, so all nodes of one level are independent of each other: a sweep
// over one level is one batch (a (min,+) sparse x dense product).
//   - upward graph (CSR by rank): arcs v -> x with rank x > rank v (original arcs and
//     shortcuts), weights in forward direction: the forward search from a source;
//   - downward graph, reversed (CSR by rank): for each node v, the arcs u -> v coming from
//     higher-ranked nodes u: the PHAST sweep computes D[v] = min(D[v], D[u] + w(u, v)).
// For any s, t: dist(s, t) = min over x of up(s, x) + down(x, t), which is what the sweeps use.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "routesolve/road_graph.hpp"

namespace routesolve {

/// a + b on PathKeys, kNoPath when either is kNoPath or the sum overflows.
inline constexpr PathKey saturating_add(PathKey a, PathKey b) noexcept {
  const PathKey sum = a + b;
  return (sum < a || b == kNoPath) ? kNoPath : sum;
}

/// Tuning of the contraction. Results are exact whatever the limits: a witness search that stops
/// early only adds shortcuts that were not strictly needed.
struct ChBuildOptions {
  unsigned witness_settle_limit = 500;     ///< nodes a witness search settles when contracting
  unsigned simulation_settle_limit = 100;  ///< the same when estimating a node's priority
  unsigned simulation_hop_limit = 6;       ///< arcs of a witness path when estimating
};

/// What the construction did.
struct ChBuildStats {
  double seconds = 0.0;
  std::size_t shortcuts = 0;  ///< arcs added by contraction
  std::size_t levels = 0;
};

/// A contraction hierarchy: plain vectors, comparable, serialisable. See the file comment.
struct ContractionHierarchy {
  std::uint64_t graph_fingerprint = 0;  ///< graph_fingerprint() of the graph it was built on
  std::vector<std::uint32_t> rank;      ///< node -> rank
  std::vector<NodeId> order;            ///< rank -> node
  std::vector<std::uint32_t> level;     ///< by rank, non-decreasing
  std::vector<std::uint32_t>
      level_first;  ///< levels + 1 entries: level L = ranks [first[L], first[L+1])

  std::vector<std::uint32_t> up_first_out;  ///< node_count() + 1 entries, by rank
  std::vector<std::uint32_t> up_head;       ///< rank of the (higher) head
  std::vector<PathKey> up_weight;

  std::vector<std::uint32_t> down_first_in;  ///< node_count() + 1 entries, by rank
  std::vector<std::uint32_t> down_tail;      ///< rank of the (higher) tail
  std::vector<PathKey> down_weight;

  [[nodiscard]] std::size_t node_count() const noexcept { return rank.size(); }
  [[nodiscard]] std::size_t level_count() const noexcept {
    return level_first.empty() ? 0 : level_first.size() - 1;
  }
  [[nodiscard]] std::size_t up_arc_count() const noexcept { return up_head.size(); }
  [[nodiscard]] std::size_t down_arc_count() const noexcept { return down_tail.size(); }

  /// Throws Error(InvalidInput) "contraction hierarchy: <field>: ..." when an invariant breaks
  /// (sizes, permutation, arcs not leading upward, levels not separating arc ends).
  void validate() const;

  /// Serialised form (magic "RSCH", version, arrays little-endian): a network-cache section.
  [[nodiscard]] std::vector<std::uint8_t> to_bytes() const;
  /// Inverse of to_bytes; throws Error(InvalidInput) on a wrong magic/version, truncation or
  /// broken invariants.
  static ContractionHierarchy from_bytes(std::span<const std::uint8_t> bytes);

  friend bool operator==(const ContractionHierarchy&, const ContractionHierarchy&) = default;
};

/// Tag of the network-cache section holding the CH ("ch").
inline constexpr const char* kChCacheSection = "ch";

/// A 64-bit hash of the graph's arrays (sizes, heads, durations, lengths), so that a CH is
/// never used with a graph it was not built on.
std::uint64_t graph_fingerprint(const RoadGraph& graph);

/// Contracts every node of the graph: priority = 2 * edge difference + contracted neighbours +
/// level (lazy updates), witness searches bounded by the options. Self loops are dropped and
/// parallel arcs reduced to the smallest key.
ContractionHierarchy build_contraction_hierarchy(const RoadGraph& graph,
                                                 const ChBuildOptions& options = {},
                                                 ChBuildStats* stats = nullptr);

/// Shortest-path key from `source` to `target` through the CH (bidirectional upward searches);
/// kNoPath when unreachable. For checks and single pairs; matrices use the sweeps.
PathKey ch_shortest_key(const ContractionHierarchy& ch, NodeId source, NodeId target);

}  // namespace routesolve
