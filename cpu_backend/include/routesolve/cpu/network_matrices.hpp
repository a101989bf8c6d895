#pragma once
// Fleet problems on a road network: stops snapped to road nodes, travel matrices between them
// from the CPU engine, and the road geometry of each leg for drawing routes.
//
// It lives in the CPU backend (not in the tool) because dispatch software that links the
// library needs the same "coordinates in, road matrices out" step as the command line; the
// CUDA backend's matrices will plug in beside CpuMatrixEngine.

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "routesolve/cpu/travel_matrix.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/road_graph.hpp"
#include "routesolve/snap.hpp"

namespace routesolve::cpu {

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
  [[nodiscard]] const CpuMatrixEngine& engine() const noexcept { return engine_; }
  [[nodiscard]] bool has_coordinates() const noexcept { return snapper_ != nullptr; }
  /// The snapping index; throws invalid_input naming the network when it has no coordinates.
  [[nodiscard]] const Snapper& snapper() const;

 private:
  RoadNetwork network_;
  std::unique_ptr<Snapper> snapper_;
  CpuMatrixEngine engine_;
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

struct NetworkMatrixOptions {
  double max_snap_m = kDefaultMaxSnapM;
  unsigned threads = 1;
  NodeMatrixFunction engine;  ///< empty: the router's Boost.Graph engine
};

/// What fill_matrices_from_network did, by location index.
struct NetworkFill {
  std::vector<Coordinates> points;     ///< coordinates of each location index
  std::vector<SnapResult> snaps;       ///< where each location was attached to the roads
  std::vector<std::string> unsnapped;  ///< JSON paths of tasks too far from every road
  MatrixStats stats;
  double snap_seconds = 0.0;
  double matrix_seconds = 0.0;
};

/// Fills missing matrices from the road network, for every profile used by a vehicle:
/// durations in seconds (deciseconds / 10, rounded) and distances in metres, times the spec's
/// unit scales. Assigns a location index to every distinct coordinate. A task too far from every
/// road gets kUnreachable to and from everything else, so solvers report it unassigned with
/// reason `unreachable`. Throws invalid_input naming vehicles[i].start / .end when a vehicle's
/// start or end does not snap, or naming a location without coordinates. Returns false (spec
/// unchanged) when matrices were already given.
bool fill_matrices_from_network(ProblemSpec& spec, const RoadRouter& router,
                                const NetworkMatrixOptions& options = {},
                                NetworkFill* fill = nullptr);

/// The road geometry of the leg between two location indices of a filled spec: the first
/// stop, the road nodes of a shortest path, the second stop. Just the two stops when either did
/// not snap or no path exists.
std::vector<Coordinates> leg_geometry(const RoadRouter& router, const NetworkFill& fill,
                                      std::size_t from, std::size_t to);

}  // namespace routesolve::cpu
