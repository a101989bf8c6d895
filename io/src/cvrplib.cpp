// CVRPLIB / TSPLIB .vrp instances and CVRPLIB .sol solutions.
//
// Numbering: node numbers in a .vrp are 1-based; a customer's job id is its node number and its
// matrix index is node number - 1; the depot is not a job.
//
// .sol numbering (checked on every X instance of ../shared/datasets/cvrp/x by recomputing the
// "Cost" line from the matrix): the numbers in "Route #k:" lines are 0-based node indices, i.e.
// matrix indices, so customer "1" is node 2 (the depot being node 1). Read as node numbers they
// give costs 2-5x the Cost line; read as matrix indices they give it exactly. Hence
// job id = .sol number + 1, and the writer prints job id - 1.
//
// This file: the ProblemSpec built from a .vrp (cvrplib_vrp.hpp lists the other parts).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "cvrplib_vrp.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/benchmark_formats.hpp"
#include "routesolve/memory_budget.hpp"

namespace routesolve::io {

using cvrplib::TextReader;
using cvrplib::VrpFile;

ProblemSpec parse_cvrplib(std::string_view text, const std::string& source) {
  TextReader in(text, source);
  VrpFile vrp = cvrplib::read_vrp(in);
  const std::size_t end_line = in.line_number();
  auto missing = [&](std::string_view what) {
    in.fail(std::string("missing ") + std::string(what), end_line);
  };

  if (!vrp.dimension) missing("DIMENSION");
  if (!vrp.capacity) missing("CAPACITY");
  if (vrp.edge_weight_type.empty()) missing("EDGE_WEIGHT_TYPE");
  if (!vrp.has_demands) missing("DEMAND_SECTION");
  if (!vrp.has_depots) missing("DEPOT_SECTION");
  const std::size_t n = *vrp.dimension;

  if (vrp.depots.empty()) in.fail("DEPOT_SECTION: no depot listed", vrp.depot_line);
  if (vrp.depots.size() > 1)
    in.fail_with(ErrorCode::Unsupported,
                 "DEPOT_SECTION: several depots (multi-depot CVRPLIB) are not supported",
                 vrp.depot_line);
  const std::size_t depot = vrp.depots.front() - 1;
  if (*vrp.demands[depot] != 0)
    in.fail("DEMAND_SECTION: the depot (node " + std::to_string(depot + 1) + ") has demand " +
                std::to_string(*vrp.demands[depot]) + ", expected 0",
            end_line);

  Matrix weights;
  if (vrp.edge_weight_type == "EXPLICIT") {
    if (!vrp.weights) missing("EDGE_WEIGHT_SECTION (EDGE_WEIGHT_TYPE EXPLICIT)");
    weights = std::move(*vrp.weights);
  } else {
    if (!vrp.has_coords)
      missing("NODE_COORD_SECTION (EDGE_WEIGHT_TYPE " + vrp.edge_weight_type + ")");
    const bool ceil = vrp.edge_weight_type == "CEIL_2D";
    std::vector<Coordinates> points(n);
    for (std::size_t i = 0; i < n; ++i) points[i] = *vrp.coords[i];
    auto planar = std::make_shared<const PlanarSource>(
        PlanarSource{std::move(points), 1.0, ceil ? PlanarRounding::Up : PlanarRounding::Nearest});
    if (planar_exact(*planar)) {
      weights = detail::planar_table(std::move(planar), in.source() + ": NODE_COORD_SECTION");
    } else {
      // One matrix serves as durations, distances and costs; refused here, before it is
      // allocated, when it cannot fit (32-bit entries: rounded planar distances fit them).
      check_matrix_memory(n, 1, in.source() + ": NODE_COORD_SECTION", 4);
      weights = Matrix(n, 0);
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) {
          const double dx = vrp.coords[i]->lon - vrp.coords[j]->lon;
          const double dy = vrp.coords[i]->lat - vrp.coords[j]->lat;
          try {
            weights(i, j) = weights(j, i) =
                ceil ? detail::euclidean_ceiled(dx, dy) : detail::euclidean_rounded(dx, dy, 1);
          } catch (const Error& e) {
            in.fail(std::string("NODE_COORD_SECTION: nodes ") + std::to_string(i + 1) + " and " +
                    std::to_string(j + 1) + ": " + e.what());
          }
        }
      weights.set_planar(std::move(planar));
    }
  }

  ProblemSpec spec;
  spec.name = vrp.name;
  spec.planar_coordinates = true;
  spec.source = source;
  auto location = [&](std::size_t index) {
    LocationSpec loc;
    loc.index = index;
    if (vrp.has_coords) loc.coords = vrp.coords[index];
    return loc;
  };

  const Duration service =
      vrp.service_time ? static_cast<Duration>(std::llround(*vrp.service_time)) : 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (i == depot) continue;
    JobSpec job;
    job.id = i + 1;
    job.location = location(i);
    job.service = service;
    job.delivery = Amount{*vrp.demands[i]};
    spec.jobs.push_back(std::move(job));
  }

  const std::size_t fleet =
      vrp.vehicles ? static_cast<std::size_t>(*vrp.vehicles) : std::max<std::size_t>(1, n - 1);
  spec.vehicles.reserve(fleet);
  for (std::size_t k = 0; k < fleet; ++k) {
    VehicleSpec v;
    v.id = k + 1;
    v.profile = "car";
    v.start = location(depot);
    v.end = location(depot);
    v.capacity = Amount{*vrp.capacity};
    if (vrp.distance) {
      // Route lengths are integers, so "length <= DISTANCE" equals "length <= floor(DISTANCE)".
      const auto limit = static_cast<std::int64_t>(std::floor(*vrp.distance));
      v.max_distance = limit;
      v.max_travel_time = limit;  // travel time = distance in CVRPLIB
    }
    spec.vehicles.push_back(std::move(v));
  }

  ProfileMatrices matrices;
  matrices.durations = weights;
  matrices.distances = weights;
  matrices.costs = std::move(weights);
  spec.matrices.emplace("car", std::move(matrices));
  spec.scale = UnitScale{1.0, 1.0, 1.0};
  return spec;
}

}  // namespace routesolve::io
