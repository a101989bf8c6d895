#pragma once
// Fleet problems on a road network: stops snapped to road nodes, travel matrices between them
// from a node engine (Boost.Graph Dijkstra by default; the CUDA backend's PHAST sweeps plug in as
// a NodeMatrixFunction), and the road geometry of each leg for drawing routes. RoadProvider is
// the road network behind the MatrixProvider interface (matrix_provider.hpp).

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "routesolve/network/dijkstra_matrix.hpp"
#include "routesolve/network/matrix_provider.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/road_graph.hpp"
#include "routesolve/snap.hpp"

namespace routesolve::network {

/// Default largest distance between a stop and the road it is attached to.
inline constexpr double kDefaultMaxSnapM = 1000.0;

/// A road network with everything built once for queries: the snapping index (when the network
/// has coordinates) and the Boost graph. Neither copyable nor movable (the index points into
/// the network); hold it by pointer.
class RoadRouter {
 public:
  explicit RoadRouter(RoadNetwork network);
  RoadRouter(const RoadRouter&) = delete;
  RoadRouter& operator=(const RoadRouter&) = delete;

  [[nodiscard]] const RoadNetwork& network() const noexcept { return network_; }
  [[nodiscard]] const RoadGraph& graph() const noexcept { return network_.graph; }
  [[nodiscard]] const DijkstraMatrixEngine& engine() const noexcept { return engine_; }
  [[nodiscard]] bool has_coordinates() const noexcept { return snapper_ != nullptr; }
  /// The snapping index; throws invalid_input naming the network when it has no coordinates.
  [[nodiscard]] const Snapper& snapper() const;

 private:
  RoadNetwork network_;
  std::unique_ptr<Snapper> snapper_;
  DijkstraMatrixEngine engine_;
};

/// Node-to-node matrices (row = source) from some engine: the CUDA backend's PHAST sweeps plug
/// in here. An empty function means the router's own Boost.Graph engine.
using NodeMatrixFunction =
    std::function<NodeMatrices(std::span<const NodeId> sources, std::span<const NodeId> targets)>;

/// Travel matrices between points (row = from, column = to): durations in deciseconds,
/// distances in metres, kUnreachable where no path exists. A point that did not snap is
/// unreachable to and from every other point (0 to itself).
struct PointMatrices {
  NodeMatrices matrices;
  std::vector<SnapResult> snaps;  ///< one per point (node-given points: found, distances 0)
  MatrixStats stats;
  double snap_seconds = 0.0;
};

/// Snaps each point (within max_snap_m) and computes the matrices between them.
PointMatrices point_matrices(const RoadRouter& router, std::span<const Coordinates> points,
                             double max_snap_m, unsigned threads = 1,
                             const NodeMatrixFunction& engine = {});

/// The same for points given as road nodes (networks without coordinates); throws
/// invalid_input naming points[i] for a node outside the network.
PointMatrices node_point_matrices(const RoadRouter& router, std::span<const NodeId> nodes,
                                  unsigned threads = 1, const NodeMatrixFunction& engine = {});

/// A road network as a matrix provider: snaps every point within max_snap_m (a task too far
/// from every road is unplaced: unreachable), then node matrices from `engine` (empty: the
/// router's Boost.Graph Dijkstra on `threads` threads). Durations are seconds (deciseconds / 10,
/// rounded half up) and distances metres, times the requested scale. Stage times: "snap" and
/// "matrix" (the engine may report finer stages itself).
class RoadProvider final : public MatrixProvider {
 public:
  RoadProvider(std::shared_ptr<const RoadRouter> router, double max_snap_m = kDefaultMaxSnapM,
               unsigned threads = 1, NodeMatrixFunction engine = {},
               std::string engine_name = "Boost.Graph Dijkstra");
  [[nodiscard]] std::string name() const override { return "road network (" + engine_name_ + ")"; }
  [[nodiscard]] ProvidedMatrices compute(std::span<const Coordinates> points,
                                         const MatrixScale& scale) const override;
  [[nodiscard]] std::string unplaced_reason(const Coordinates& point) const override;
  /// The first stop, the road nodes of a shortest path, the second stop; just the two stops
  /// when either did not snap or no path exists.
  [[nodiscard]] std::vector<Coordinates> leg(const ProvidedMatrices& m,
                                             std::span<const Coordinates> points, std::size_t from,
                                             std::size_t to) const override;
  [[nodiscard]] const RoadRouter& router() const noexcept { return *router_; }

 private:
  std::shared_ptr<const RoadRouter> router_;
  double max_snap_m_;
  unsigned threads_;
  NodeMatrixFunction engine_;
  std::string engine_name_;
};

}  // namespace routesolve::network
