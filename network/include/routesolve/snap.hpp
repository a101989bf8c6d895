#pragma once
// Snapping stop coordinates to a road network: the nearest road segment (straight line between
// two nodes, indexed once per undirected node pair in an R-tree), then the endpoint of that
// segment nearest the stop's foot point. A stop farther than the allowed distance from every
// road is not found; the caller reports it unreachable and never moves it silently.
//
// The spatial index (Boost.Geometry) stays inside snap.cpp.

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "routesolve/road_graph.hpp"
#include "routesolve/types.hpp"

namespace routesolve {

struct SnapResult {
  bool found = false;
  NodeId node = kNoNode;         ///< the road node the stop is attached to
  double road_distance_m = 0.0;  ///< stop to the nearest point of the road (haversine)
  double node_distance_m = 0.0;  ///< stop to `node` (haversine)
};

/// Immutable spatial index over a road graph with coordinates; const queries are thread-safe.
/// The graph must outlive the Snapper.
class Snapper {
 public:
  /// Builds the index once. Throws invalid_input when the graph has no coordinates.
  explicit Snapper(const RoadGraph& graph);
  ~Snapper();
  Snapper(Snapper&&) noexcept;
  Snapper& operator=(Snapper&&) noexcept;
  Snapper(const Snapper&) = delete;
  Snapper& operator=(const Snapper&) = delete;

  /// Nearest road node for one stop; found = false when no road lies within max_distance_m
  /// (road_distance_m then still says how far the nearest road is) or the coordinates are not
  /// finite. Throws invalid_input when max_distance_m is negative.
  [[nodiscard]] SnapResult snap(Coordinates where, double max_distance_m) const;
  /// The same for many stops, in order.
  [[nodiscard]] std::vector<SnapResult> snap(std::span<const Coordinates> where,
                                             double max_distance_m) const;

  /// Number of indexed (undirected) road segments.
  [[nodiscard]] std::size_t segment_count() const noexcept;

 private:
  struct Index;
  const RoadGraph* graph_;
  std::unique_ptr<Index> index_;
};

/// Great-circle distance in metres (spherical Earth, mean radius 6371 km).
double haversine_m(Coordinates a, Coordinates b) noexcept;

}  // namespace routesolve
