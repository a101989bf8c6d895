// Fleet problems on a road network: snapping, matrices between the snapped points, leg geometry.

#include "routesolve/cpu/network_matrices.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "routesolve/error.hpp"

namespace routesolve::cpu {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

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

std::string where(const ProblemSpec& spec, const std::string& path) {
  return spec.source.empty() ? path : spec.source + ": " + path;
}

std::string describe(const Coordinates& c) {
  char text[64];
  std::snprintf(text, sizeof text, "(%.6f, %.6f)", c.lon, c.lat);
  return text;
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
                             double max_snap_m, unsigned threads, const NodeMatrixFunction& engine) {
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

bool fill_matrices_from_network(ProblemSpec& spec, const RoadRouter& router,
                                const NetworkMatrixOptions& options, NetworkFill* fill) {
  if (!spec.matrices.empty()) return false;
  if (!(options.max_snap_m >= 0.0))
    throw invalid_input("max snap distance", "must be zero or positive");

  // Every location with its JSON path; nothing in the spec changes until all are valid.
  struct Site {
    LocationSpec* location;
    std::string path;
    bool is_vehicle;
  };
  std::vector<Site> sites;
  for (std::size_t i = 0; i < spec.jobs.size(); ++i)
    sites.push_back({&spec.jobs[i].location, "jobs[" + std::to_string(i) + "].location", false});
  for (std::size_t i = 0; i < spec.shipments.size(); ++i) {
    const std::string base = "shipments[" + std::to_string(i) + "]";
    sites.push_back({&spec.shipments[i].pickup.location, base + ".pickup.location", false});
    sites.push_back({&spec.shipments[i].delivery.location, base + ".delivery.location", false});
  }
  for (std::size_t i = 0; i < spec.vehicles.size(); ++i) {
    const std::string base = "vehicles[" + std::to_string(i) + "]";
    if (spec.vehicles[i].start) sites.push_back({&*spec.vehicles[i].start, base + ".start", true});
    if (spec.vehicles[i].end) sites.push_back({&*spec.vehicles[i].end, base + ".end", true});
  }

  std::map<std::pair<double, double>, std::size_t> index_of;
  std::vector<Coordinates> points;
  std::vector<std::size_t> assigned(sites.size());
  for (std::size_t k = 0; k < sites.size(); ++k) {
    const LocationSpec& loc = *sites[k].location;
    if (!loc.coords)
      throw invalid_input(
          where(spec, sites[k].path),
          "has no coordinates: a road network needs coordinates for every location");
    if (!std::isfinite(loc.coords->lon) || !std::isfinite(loc.coords->lat))
      throw invalid_input(where(spec, sites[k].path), "coordinates are not finite numbers");
    auto [it, inserted] =
        index_of.emplace(std::make_pair(loc.coords->lon, loc.coords->lat), points.size());
    if (inserted) points.push_back(*loc.coords);
    assigned[k] = it->second;
  }

  PointMatrices pm = point_matrices(router, points, options.max_snap_m, options.threads, options.engine);

  std::vector<std::string> unsnapped;
  for (std::size_t k = 0; k < sites.size(); ++k) {
    if (pm.snaps[assigned[k]].found) continue;
    const std::string what = "no drivable road within " +
                             std::to_string(std::llround(options.max_snap_m)) + " m of " +
                             describe(points[assigned[k]]);
    if (sites[k].is_vehicle) throw invalid_input(where(spec, sites[k].path), what);
    unsnapped.push_back(sites[k].path);
  }

  // Internal units: seconds and metres times the spec's unit scales (1 for VROOM input).
  const double time_scale = spec.scale.time > 0 ? spec.scale.time : 1.0;
  const double dist_scale = spec.scale.distance > 0 ? spec.scale.distance : 1.0;
  const std::size_t n = points.size();
  Matrix durations(n), distances(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      const std::int64_t ds = pm.matrices.durations[i * n + j];
      const std::int64_t m = pm.matrices.distances[i * n + j];
      if (ds >= kUnreachable) {
        durations(i, j) = distances(i, j) = kUnreachable;
        continue;
      }
      const std::int64_t seconds = (ds + 5) / 10;  // deciseconds to seconds, rounded half up
      durations(i, j) =
          time_scale == 1.0 ? seconds : std::llround(static_cast<double>(seconds) * time_scale);
      distances(i, j) = dist_scale == 1.0 ? m : std::llround(static_cast<double>(m) * dist_scale);
    }
  }

  for (std::size_t k = 0; k < sites.size(); ++k) sites[k].location->index = assigned[k];
  std::set<std::string> profiles;
  for (const VehicleSpec& v : spec.vehicles) profiles.insert(v.profile);
  for (const std::string& p : profiles)
    spec.matrices[p] = ProfileMatrices{durations, distances, std::nullopt};

  if (fill != nullptr) {
    fill->points = std::move(points);
    fill->snaps = std::move(pm.snaps);
    fill->unsnapped = std::move(unsnapped);
    fill->stats = pm.stats;
    fill->snap_seconds = pm.snap_seconds;
    fill->matrix_seconds = pm.stats.seconds;
  }
  return true;
}

std::vector<Coordinates> leg_geometry(const RoadRouter& router, const NetworkFill& fill,
                                      std::size_t from, std::size_t to) {
  if (from >= fill.points.size() || to >= fill.points.size()) return {};
  std::vector<Coordinates> line{fill.points[from]};
  const SnapResult& a = fill.snaps[from];
  const SnapResult& b = fill.snaps[to];
  if (a.found && b.found && router.graph().has_coordinates()) {
    for (const NodeId v : router.engine().path(a.node, b.node))
      line.push_back(router.graph().coords[v]);
  }
  line.push_back(fill.points[to]);
  return line;
}

}  // namespace routesolve::cpu
