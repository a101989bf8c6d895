// Snapping stops to roads with a Boost.Geometry R-tree over the road segments.
//
// Segments are indexed once per undirected node pair, in an equirectangular projection centred
// on the network's mid latitude (metres; exact enough at city and region scale). A query takes
// the few nearest segments in that projection, re-measures them in a projection centred on the
// stop itself (so a network spanning many degrees of latitude still picks the right one), and
// reports haversine distances.

#include "routesolve/snap.hpp"

#include <algorithm>
#include <boost/geometry.hpp>
#include <boost/geometry/index/rtree.hpp>
#include <cmath>
#include <utility>

#include "routesolve/error.hpp"

namespace routesolve {

namespace bg = boost::geometry;
namespace bgi = boost::geometry::index;

namespace {

constexpr double kEarthRadiusM = 6371000.0;
constexpr double kDegToRad = 3.14159265358979323846 / 180.0;
constexpr double kMetresPerDegree = kEarthRadiusM * kDegToRad;
constexpr unsigned kCandidates = 8;  // nearest segments re-measured exactly per query

using Point = bg::model::point<double, 2, bg::cs::cartesian>;
using Segment = bg::model::segment<Point>;
using Value = std::pair<Segment, std::uint32_t>;

}  // namespace

double haversine_m(Coordinates a, Coordinates b) noexcept {
  const double lat1 = a.lat * kDegToRad, lat2 = b.lat * kDegToRad;
  const double dlat = lat2 - lat1, dlon = (b.lon - a.lon) * kDegToRad;
  const double s = std::sin(dlat / 2), t = std::sin(dlon / 2);
  const double h = std::min(1.0, s * s + std::cos(lat1) * std::cos(lat2) * t * t);
  return 2.0 * kEarthRadiusM * std::asin(std::sqrt(h));
}

struct Snapper::Index {
  double x_scale = 1.0;                         // cos(mid latitude) * metres per degree
  std::vector<std::pair<NodeId, NodeId>> ends;  // segment -> its two nodes (first < second)
  bgi::rtree<Value, bgi::rstar<16>> tree;

  [[nodiscard]] Point project(Coordinates c) const {
    return {c.lon * x_scale, c.lat * kMetresPerDegree};
  }
};

Snapper::Snapper(const RoadGraph& graph) : graph_(&graph), index_(std::make_unique<Index>()) {
  const std::size_t n = graph.node_count();
  if (!graph.has_coordinates() || graph.coords.size() != n)
    throw invalid_input("road network", "has no node coordinates: stops cannot be snapped to it");
  if (n == 0) throw invalid_input("road network", "is empty: stops cannot be snapped to it");
  double lo = graph.coords[0].lat, hi = lo;
  for (const Coordinates& c : graph.coords) {
    lo = std::min(lo, c.lat);
    hi = std::max(hi, c.lat);
  }
  index_->x_scale = std::cos((lo + hi) / 2 * kDegToRad) * kMetresPerDegree;

  auto& ends = index_->ends;
  for (NodeId u = 0; u < n; ++u)
    for (std::uint32_t a = graph.first_out[u]; a < graph.first_out[u + 1]; ++a)
      ends.emplace_back(std::min(u, graph.head[a]), std::max(u, graph.head[a]));
  if (ends.empty())  // no arcs: the nodes themselves, as zero-length segments
    for (NodeId u = 0; u < n; ++u) ends.emplace_back(u, u);
  std::sort(ends.begin(), ends.end());
  ends.erase(std::unique(ends.begin(), ends.end()), ends.end());

  std::vector<Value> values;
  values.reserve(ends.size());
  for (std::uint32_t s = 0; s < ends.size(); ++s) {
    values.emplace_back(Segment(index_->project(graph.coords[ends[s].first]),
                                index_->project(graph.coords[ends[s].second])),
                        s);
  }
  index_->tree = bgi::rtree<Value, bgi::rstar<16>>(values);  // bulk loading (packing)
}

Snapper::~Snapper() = default;
Snapper::Snapper(Snapper&&) noexcept = default;
Snapper& Snapper::operator=(Snapper&&) noexcept = default;

std::size_t Snapper::segment_count() const noexcept { return index_->ends.size(); }

SnapResult Snapper::snap(Coordinates where, double max_distance_m) const {
  if (!(max_distance_m >= 0))
    throw invalid_input("max snap distance", "must be a non-negative number of metres");
  SnapResult result;
  if (!std::isfinite(where.lon) || !std::isfinite(where.lat) || std::fabs(where.lat) > 90.0)
    return result;

  std::vector<Value> near;
  near.reserve(kCandidates);
  index_->tree.query(bgi::nearest(index_->project(where), kCandidates), std::back_inserter(near));

  // Re-measure the candidates in a projection centred on the stop: foot point parameter t.
  const double sx = std::cos(where.lat * kDegToRad) * kMetresPerDegree;
  double best = INFINITY, best_t = 0;
  std::uint32_t best_segment = 0;
  for (const Value& v : near) {
    const auto [u, w] = index_->ends[v.second];
    const Coordinates& a = graph_->coords[u];
    const Coordinates& b = graph_->coords[w];
    const double ax = (a.lon - where.lon) * sx, ay = (a.lat - where.lat) * kMetresPerDegree;
    const double bx = (b.lon - where.lon) * sx, by = (b.lat - where.lat) * kMetresPerDegree;
    const double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
    const double t = len2 > 0 ? std::clamp(-(ax * dx + ay * dy) / len2, 0.0, 1.0) : 0.0;
    const double fx = ax + t * dx, fy = ay + t * dy, d = fx * fx + fy * fy;
    if (d < best || (d == best && v.second < best_segment)) {
      best = d;
      best_t = t;
      best_segment = v.second;
    }
  }
  if (near.empty()) return result;

  const auto [u, w] = index_->ends[best_segment];
  const Coordinates& a = graph_->coords[u];
  const Coordinates& b = graph_->coords[w];
  const Coordinates foot{a.lon + best_t * (b.lon - a.lon), a.lat + best_t * (b.lat - a.lat)};
  result.road_distance_m = haversine_m(where, foot);
  if (result.road_distance_m > max_distance_m) return result;
  const double du = haversine_m(foot, a), dw = haversine_m(foot, b);
  result.node = dw < du ? w : u;  // ties: the smaller id (u < w)
  result.node_distance_m = haversine_m(where, graph_->coords[result.node]);
  result.found = true;
  return result;
}

std::vector<SnapResult> Snapper::snap(std::span<const Coordinates> where,
                                      double max_distance_m) const {
  std::vector<SnapResult> out;
  out.reserve(where.size());
  for (const Coordinates& c : where) out.push_back(snap(c, max_distance_m));
  return out;
}

}  // namespace routesolve
