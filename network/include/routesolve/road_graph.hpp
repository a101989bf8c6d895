#pragma once
// Road networks as plain CSR arrays (RoutingKit style), shared by the importers (io/), the CPU
// backend's Dijkstra matrices and the CUDA backend's contraction-hierarchy sweeps.
//
// Every arc carries an integer travel time (deciseconds) and length (metres). Shortest paths
// minimise the 64-bit key (duration << 32) | length, i.e. fastest first and shortest among the
// fastest, so that every backend returns the same unique duration AND distance for a pair,
// whichever shortest path it happens to find.

#include <cstdint>
#include <string>
#include <vector>

#include "routesolve/types.hpp"

namespace routesolve {

using NodeId = std::uint32_t;
inline constexpr NodeId kNoNode = 0xffffffffu;

/// Combined path weight: (duration in deciseconds << 32) | length in metres.
using PathKey = std::uint64_t;
inline constexpr PathKey kNoPath = ~PathKey{0};
inline constexpr PathKey make_path_key(std::uint32_t duration_ds, std::uint32_t length_m) noexcept {
  return (PathKey{duration_ds} << 32) | PathKey{length_m};
}
inline constexpr std::uint32_t key_duration(PathKey k) noexcept {
  return static_cast<std::uint32_t>(k >> 32);
}
inline constexpr std::uint32_t key_length(PathKey k) noexcept {
  return static_cast<std::uint32_t>(k & 0xffffffffu);
}

/// A directed graph in compressed sparse row form: the arcs leaving node u are
/// [first_out[u], first_out[u+1]); head[a] is the node arc a leads to.
struct RoadGraph {
  std::vector<std::uint32_t> first_out;  ///< node_count() + 1 entries
  std::vector<NodeId> head;              ///< one per arc
  std::vector<std::uint32_t> duration;   ///< deciseconds, one per arc
  std::vector<std::uint32_t> length;     ///< metres, one per arc
  std::vector<Coordinates> coords;       ///< one per node, or empty (no geometry)

  [[nodiscard]] std::size_t node_count() const noexcept {
    return first_out.empty() ? 0 : first_out.size() - 1;
  }
  [[nodiscard]] std::size_t arc_count() const noexcept { return head.size(); }
  [[nodiscard]] bool has_coordinates() const noexcept { return !coords.empty(); }
  [[nodiscard]] PathKey arc_key(std::size_t a) const noexcept {
    return make_path_key(duration[a], length[a]);
  }
};

/// What an import kept and dropped.
struct NetworkReport {
  std::size_t nodes_read = 0, arcs_read = 0;
  std::size_t nodes_kept = 0, arcs_kept = 0;
  std::size_t components = 0;     ///< strongly connected components found
  std::size_t nodes_dropped = 0;  ///< outside the largest strongly connected component
  double import_seconds = 0.0;
};

/// A road network ready for routing: the largest strongly connected component of the input.
struct RoadNetwork {
  RoadGraph graph;
  NetworkReport report;
  std::string source;  ///< the file it came from
};

/// Many-to-many travel matrices between road nodes (row = source, column = target).
/// Unreachable pairs hold kUnreachable in both matrices.
struct NodeMatrices {
  std::size_t rows = 0, cols = 0;
  std::vector<std::int64_t> durations;  ///< deciseconds
  std::vector<std::int64_t> distances;  ///< metres
};

}  // namespace routesolve
