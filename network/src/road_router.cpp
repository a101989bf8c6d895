// Fleet problems on a road network: snapping, matrices between the snapped points, leg geometry.

#include "routesolve/network/road_router.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "routesolve/error.hpp"
#include "routesolve/timing.hpp"

namespace routesolve::network {
namespace {

/// Expands the matrices between the snapped points to all points: rows and columns of
/// points that did not snap stay unreachable (0 on the diagonal).
PointMatrices matrices_between(const RoadRouter& router, std::vector<SnapResult> snaps,
                               unsigned threads, const NodeMatrixFunction& engine) {
  PointMatrices out;
  const std::size_t n = snaps.size();
  std::vector<NodeId> nodes;
  std::vector<std::size_t> point_of;  // snapped point -> point index
  for (std::size_t i = 0; i < n; ++i) {
    if (!snaps[i].found) continue;
    nodes.push_back(snaps[i].node);
    point_of.push_back(i);
  }
  const NodeMatrices sub = engine ? engine(nodes, nodes)
                                  : router.engine().many_to_many(nodes, nodes, threads, &out.stats);
  out.matrices.rows = out.matrices.cols = n;
  out.matrices.durations.assign(n * n, kUnreachable);
  out.matrices.distances.assign(n * n, kUnreachable);
  for (std::size_t i = 0; i < n; ++i)
    out.matrices.durations[i * n + i] = out.matrices.distances[i * n + i] = 0;
  const std::size_t k = nodes.size();
  for (std::size_t a = 0; a < k; ++a) {
    for (std::size_t b = 0; b < k; ++b) {
      const std::size_t cell = point_of[a] * n + point_of[b];
      out.matrices.durations[cell] = sub.durations[a * k + b];
      out.matrices.distances[cell] = sub.distances[a * k + b];
    }
  }
  out.snaps = std::move(snaps);
  return out;
}

}  // namespace

RoadRouter::RoadRouter(RoadNetwork network)
    : network_(std::move(network)), engine_(network_.graph) {
  if (network_.graph.has_coordinates()) snapper_ = std::make_unique<Snapper>(network_.graph);
}

const Snapper& RoadRouter::snapper() const {
  if (!snapper_)
    throw invalid_input(network_.source.empty() ? std::string("network") : network_.source,
                        "the road network has no coordinates, so stops cannot be snapped to it "
                        "(routesolve matrix takes points as 'id,node' on such networks)");
  return *snapper_;
}

PointMatrices point_matrices(const RoadRouter& router, std::span<const Coordinates> points,
                             double max_snap_m, unsigned threads,
                             const NodeMatrixFunction& engine) {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<SnapResult> snaps = router.snapper().snap(points, max_snap_m);
  const double snap_seconds = seconds_since(t0);
  PointMatrices out = matrices_between(router, std::move(snaps), threads, engine);
  out.snap_seconds = snap_seconds;
  return out;
}

PointMatrices node_point_matrices(const RoadRouter& router, std::span<const NodeId> nodes,
                                  unsigned threads, const NodeMatrixFunction& engine) {
  std::vector<SnapResult> snaps(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i] >= router.graph().node_count())
      throw invalid_input("points[" + std::to_string(i) + "]",
                          "node " + std::to_string(nodes[i]) + " is not in the network (" +
                              std::to_string(router.graph().node_count()) + " nodes)");
    snaps[i].found = true;
    snaps[i].node = nodes[i];
  }
  return matrices_between(router, std::move(snaps), threads, engine);
}

RoadProvider::RoadProvider(std::shared_ptr<const RoadRouter> router, double max_snap_m,
                           unsigned threads, NodeMatrixFunction engine, std::string engine_name)
    : router_(std::move(router)),
      max_snap_m_(max_snap_m),
      threads_(threads),
      engine_(std::move(engine)),
      engine_name_(std::move(engine_name)) {
  if (!(max_snap_m_ >= 0.0)) throw invalid_input("max snap distance", "must be zero or positive");
}

std::string RoadProvider::unplaced_reason(const Coordinates& point) const {
  return "no drivable road within " + std::to_string(std::llround(max_snap_m_)) + " m of " +
         describe(point);
}

ProvidedMatrices RoadProvider::compute(std::span<const Coordinates> points,
                                       const MatrixScale& scale) const {
  PointMatrices pm = point_matrices(*router_, points, max_snap_m_, threads_, engine_);
  const std::size_t n = points.size();
  ProvidedMatrices out;
  out.durations = Matrix(n);
  out.distances = Matrix(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      const std::int64_t ds = pm.matrices.durations[i * n + j];
      const std::int64_t m = pm.matrices.distances[i * n + j];
      if (ds >= kUnreachable) {
        out.durations(i, j) = out.distances(i, j) = kUnreachable;
        continue;
      }
      const std::int64_t seconds = (ds + 5) / 10;  // deciseconds to seconds, rounded half up
      out.durations(i, j) =
          scale.time == 1.0 ? seconds : std::llround(static_cast<double>(seconds) * scale.time);
      out.distances(i, j) =
          scale.distance == 1.0 ? m : std::llround(static_cast<double>(m) * scale.distance);
    }
  }
  out.placed.resize(n);
  for (std::size_t i = 0; i < n; ++i) out.placed[i] = pm.snaps[i].found;
  out.snaps = std::move(pm.snaps);
  out.stages = {{"snap", pm.snap_seconds}, {"matrix", pm.stats.seconds}};
  return out;
}

std::vector<Coordinates> RoadProvider::leg(const ProvidedMatrices& m,
                                           std::span<const Coordinates> points, std::size_t from,
                                           std::size_t to) const {
  if (from >= points.size() || to >= points.size() || m.snaps.size() != points.size()) return {};
  std::vector<Coordinates> line{points[from]};
  const SnapResult& a = m.snaps[from];
  const SnapResult& b = m.snaps[to];
  if (a.found && b.found && router_->graph().has_coordinates()) {
    for (const NodeId v : router_->engine().path(a.node, b.node))
      line.push_back(router_->graph().coords[v]);
  }
  line.push_back(points[to]);
  return line;
}

}  // namespace routesolve::network
