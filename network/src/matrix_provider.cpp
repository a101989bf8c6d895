// fill_matrices(): every location of a spec, deduplicated by coordinates, asked of one provider.

#include "routesolve/network/matrix_provider.hpp"

#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "routesolve/error.hpp"
#include "routesolve/memory_budget.hpp"

namespace routesolve::network {
namespace {

std::string where(const ProblemSpec& spec, const std::string& path) {
  return spec.source.empty() ? path : spec.source + ": " + path;
}

}  // namespace

std::string describe(const Coordinates& c) {
  char text[64];
  std::snprintf(text, sizeof text, "(%.6f, %.6f)", c.lon, c.lat);
  return text;
}

std::string MatrixProvider::unplaced_reason(const Coordinates& point) const {
  return name() + " cannot place " + describe(point);
}

std::vector<Coordinates> MatrixProvider::leg(const ProvidedMatrices& /*m*/,
                                             std::span<const Coordinates> points, std::size_t from,
                                             std::size_t to) const {
  if (from >= points.size() || to >= points.size()) return {};
  return {points[from], points[to]};
}

bool fill_matrices(ProblemSpec& spec, const MatrixProvider& provider, MatrixFill* fill) {
  if (!spec.matrices.empty()) return false;

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
  for (std::size_t i = 0; i < spec.vehicles.size();
       ++i)  // multi-trip depots, after every other site
    for (std::size_t l = 0; l < spec.vehicles[i].reload_locations.size(); ++l)
      sites.push_back(
          {&spec.vehicles[i].reload_locations[l],
           "vehicles[" + std::to_string(i) + "].reload_locations[" + std::to_string(l) + "]",
           true});
  for (std::size_t i = 0; i < spec.vehicles.size();
       ++i)  // re-optimisation: where vehicles are now, last
    if (spec.vehicles[i].current_location)
      sites.push_back({&*spec.vehicles[i].current_location,
                       "vehicles[" + std::to_string(i) + "].current_location", true});

  std::map<std::pair<double, double>, std::size_t> index_of;
  std::vector<Coordinates> points;
  std::vector<std::size_t> assigned(sites.size());
  for (std::size_t k = 0; k < sites.size(); ++k) {
    const LocationSpec& loc = *sites[k].location;
    if (!loc.coords)
      throw invalid_input(
          where(spec, sites[k].path),
          std::string(loc.index
                          ? "has a location index but no coordinates, and no matrices are given"
                          : "has no coordinates, and no matrices are given") +
              " (" + provider.name() + " matrices need coordinates for every location)");
    if (!std::isfinite(loc.coords->lon) || !std::isfinite(loc.coords->lat))
      throw invalid_input(where(spec, sites[k].path), "coordinates are not finite numbers");
    auto [it, inserted] =
        index_of.emplace(std::make_pair(loc.coords->lon, loc.coords->lat), points.size());
    if (inserted) points.push_back(*loc.coords);
    assigned[k] = it->second;
  }

  // Refuse (Error OutOfMemory, needed vs available) before allocating what cannot fit.
  check_matrix_memory(points.size(), matrices_at_peak(spec),
                      spec.source.empty() ? "matrices from " + provider.name() : spec.source);
  const MatrixScale scale{spec.scale.time > 0 ? spec.scale.time : 1.0,
                          spec.scale.distance > 0 ? spec.scale.distance : 1.0};
  ProvidedMatrices m = provider.compute(points, scale);

  std::vector<std::string> unplaced;
  for (std::size_t k = 0; k < sites.size(); ++k) {
    if (m.placed[assigned[k]]) continue;
    if (sites[k].is_vehicle)
      throw invalid_input(where(spec, sites[k].path),
                          provider.unplaced_reason(points[assigned[k]]));
    unplaced.push_back(sites[k].path);
  }

  for (std::size_t k = 0; k < sites.size(); ++k) sites[k].location->index = assigned[k];
  std::set<std::string> profiles;
  for (const VehicleSpec& v : spec.vehicles) profiles.insert(v.profile);
  for (auto it = profiles.begin(); it != profiles.end(); ++it) {
    // The last profile takes the matrices; the others get copies.
    ProfileMatrices& target = spec.matrices[*it];
    if (std::next(it) == profiles.end()) {
      target.durations = std::move(m.durations);
      target.distances = std::move(m.distances);
    } else {
      target.durations = m.durations;
      target.distances = m.distances;
    }
  }
  if (fill != nullptr) {
    fill->points = std::move(points);
    fill->unplaced = std::move(unplaced);
    fill->matrices = std::move(m);
  }
  return true;
}

}  // namespace routesolve::network
