// Travel matrices from coordinates, for specs that give locations but no matrices.
// Great-circle (haversine) distances on a spherical Earth and a constant speed: the fallback
// VROOM users get without a routing server. Road-network matrices come from io/ and backends.

#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "routesolve/error.hpp"
#include "routesolve/memory_budget.hpp"
#include "routesolve/problem.hpp"

namespace routesolve {
namespace {

constexpr double kEarthRadiusM = 6371000.0;  // mean Earth radius (IUGG), metres
constexpr double kDegToRad = 3.14159265358979323846 / 180.0;

double haversine_m(const Coordinates& a, const Coordinates& b) {
  const double lat1 = a.lat * kDegToRad, lat2 = b.lat * kDegToRad;
  const double dlat = lat2 - lat1, dlon = (b.lon - a.lon) * kDegToRad;
  const double s = std::sin(dlat / 2), t = std::sin(dlon / 2);
  const double h = std::min(1.0, s * s + std::cos(lat1) * std::cos(lat2) * t * t);
  return 2.0 * kEarthRadiusM * std::asin(std::sqrt(h));
}

}  // namespace

bool fill_matrices_from_coordinates(ProblemSpec& spec, double speed_mps) {
  if (!spec.matrices.empty()) return false;
  if (!(speed_mps > 0.0)) throw invalid_input("speed", "speed must be positive");

  // Collect every location with its JSON path; nothing in the spec changes until all are valid.
  std::vector<std::pair<LocationSpec*, std::string>> locations;
  for (std::size_t i = 0; i < spec.jobs.size(); ++i)
    locations.emplace_back(&spec.jobs[i].location, "jobs[" + std::to_string(i) + "].location");
  for (std::size_t i = 0; i < spec.shipments.size(); ++i) {
    const std::string base = "shipments[" + std::to_string(i) + "]";
    locations.emplace_back(&spec.shipments[i].pickup.location, base + ".pickup.location");
    locations.emplace_back(&spec.shipments[i].delivery.location, base + ".delivery.location");
  }
  for (std::size_t i = 0; i < spec.vehicles.size(); ++i) {
    const std::string base = "vehicles[" + std::to_string(i) + "]";
    if (spec.vehicles[i].start) locations.emplace_back(&*spec.vehicles[i].start, base + ".start");
    if (spec.vehicles[i].end) locations.emplace_back(&*spec.vehicles[i].end, base + ".end");
  }

  std::map<std::pair<double, double>, std::size_t> index_of;
  std::vector<Coordinates> points;
  std::vector<std::size_t> assigned(locations.size());
  for (std::size_t k = 0; k < locations.size(); ++k) {
    const LocationSpec& loc = *locations[k].first;
    if (!loc.coords) {
      throw invalid_input(locations[k].second,
                          loc.index ? "has a location index but no coordinates, and no matrices are given"
                                    : "has no coordinates, and no matrices are given");
    }
    if (!std::isfinite(loc.coords->lon) || !std::isfinite(loc.coords->lat))
      throw invalid_input(locations[k].second, "coordinates are not finite numbers");
    const auto key = std::make_pair(loc.coords->lon, loc.coords->lat);
    auto [it, inserted] = index_of.emplace(key, points.size());
    if (inserted) points.push_back(*loc.coords);
    assigned[k] = it->second;
  }

  // Internal units: metres and seconds times the spec's unit scales (1 for VROOM input).
  const double dist_scale = spec.scale.distance > 0 ? spec.scale.distance : 1.0;
  const double time_scale = spec.scale.time > 0 ? spec.scale.time : 1.0;
  const std::size_t n = points.size();
  // Refuse (Error OutOfMemory, needed vs available) before allocating what cannot fit.
  check_matrix_memory(n, matrices_at_peak(spec), spec.source.empty() ? "matrices from coordinates" : spec.source);
  Matrix distances(n), durations(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      const double metres = haversine_m(points[i], points[j]);
      distances(i, j) = std::llround(metres * dist_scale);
      durations(i, j) = std::llround(std::round(metres) / speed_mps * time_scale);
    }
  }

  for (std::size_t k = 0; k < locations.size(); ++k) locations[k].first->index = assigned[k];
  std::set<std::string> profiles;
  for (const VehicleSpec& v : spec.vehicles) profiles.insert(v.profile);
  for (const std::string& p : profiles) spec.matrices[p] = ProfileMatrices{durations, distances, std::nullopt};
  return true;
}

}  // namespace routesolve
