#pragma once
// Many-to-many travel matrices on a road network, the CPU reference: one Dijkstra per source
// (Boost.Graph) on the combined (duration, length) key, sources spread over threads.
// Boost stays inside the implementation; this header is plain C++.

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "routesolve/road_graph.hpp"

namespace routesolve::network {

/// What a matrix query did, for "settled nodes per second" figures.
struct MatrixStats {
  std::uint64_t settled_nodes = 0;  ///< nodes taken out of the queue, summed over the sources
  double seconds = 0.0;             ///< wall-clock time of the query
  unsigned threads = 1;             ///< worker threads actually used
};

/// The precomputed half of the CPU matrices: a Boost compressed_sparse_row_graph built once
/// from a RoadGraph and reused by every query (queries are const and may run concurrently).
class DijkstraMatrixEngine {
 public:
  /// Builds the Boost graph (copies the arcs; the RoadGraph need not outlive the engine).
  explicit DijkstraMatrixEngine(const RoadGraph& graph);
  ~DijkstraMatrixEngine();
  DijkstraMatrixEngine(DijkstraMatrixEngine&&) noexcept;
  DijkstraMatrixEngine& operator=(DijkstraMatrixEngine&&) noexcept;
  DijkstraMatrixEngine(const DijkstraMatrixEngine&) = delete;
  DijkstraMatrixEngine& operator=(const DijkstraMatrixEngine&) = delete;

  [[nodiscard]] std::size_t node_count() const noexcept;
  [[nodiscard]] std::size_t arc_count() const noexcept;

  /// Durations (deciseconds) and distances (metres) from every source to every target node,
  /// row = source. Unreachable pairs hold kUnreachable. Each Dijkstra stops once all targets are
  /// settled. `threads` = 0 uses every hardware thread; the result does not depend on it.
  /// Throws invalid_input naming sources[i] / targets[j] when a node is out of range.
  [[nodiscard]] NodeMatrices many_to_many(std::span<const NodeId> sources,
                                          std::span<const NodeId> targets, unsigned threads = 1,
                                          MatrixStats* stats = nullptr) const;

  /// Combined key of the shortest path from `from` to `to`; kNoPath when unreachable.
  [[nodiscard]] PathKey shortest_key(NodeId from, NodeId to) const;

  /// Node sequence of a shortest path, both ends included ({from} when from == to); empty when
  /// `to` cannot be reached. Its arcs sum to shortest_key(from, to).
  [[nodiscard]] std::vector<NodeId> path(NodeId from, NodeId to) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace routesolve::network
