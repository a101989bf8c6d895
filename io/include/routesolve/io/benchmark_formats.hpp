#pragma once
// Benchmark instance formats: CVRPLIB/TSPLIB (.vrp, .sol), Solomon / Gehring & Homberger,
// Li & Lim. Conventions of ../shared/datasets/README.md: CVRPLIB job id = node number (the depot
// excluded), matrix index = node number - 1; Solomon and Li & Lim job id = customer number,
// matrix index = that number, node 0 the depot.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"

namespace routesolve::io {

/// CVRPLIB/TSPLIB .vrp: EUC_2D (nint), EXPLICIT (FULL_MATRIX, LOWER_ROW, UPPER_ROW,
/// LOWER_DIAG_ROW, UPPER_DIAG_ROW), CAPACITY, DEMAND_SECTION, DEPOT_SECTION, optional
/// VEHICLES / DISTANCE / SERVICE_TIME. Unlimited fleet: one vehicle per customer unless VEHICLES.
ProblemSpec parse_cvrplib(std::string_view text, const std::string& source);

/// CVRPLIB .sol ("Route #k: 3 5 9", "Cost N"): routes as job-id sequences, checked against problem.
/// The numbers are 0-based node indices (job id - 1), as the X instances' Cost lines confirm.
Solution parse_cvrplib_solution(std::string_view text, const std::string& source,
                                const Problem& problem);

/// The "Cost N" line of a CVRPLIB .sol: its figure in output units, the digits after the decimal
/// point it was written with, and its line number.
struct CvrplibCost {
  double value = 0.0;
  int decimals = 0;
  std::size_t line = 0;
};

/// The Cost line of a CVRPLIB .sol; nullopt when the file has none.
std::optional<CvrplibCost> cvrplib_solution_cost(std::string_view text, const std::string& source);

/// Writes a solution in CVRPLIB .sol format.
std::string cvrplib_solution_to_string(const Problem& problem, const Solution& solution);

/// Solomon / Gehring & Homberger text format. Distances = travel times = Euclidean, exact
/// (stored x1000) or truncated to one decimal (stored x10).
ProblemSpec parse_solomon(std::string_view text, const std::string& source,
                          bool truncate_one_decimal);

/// Li & Lim PDPTW format: "vehicles capacity speed", then "id x y demand ready due service
/// pickup_index delivery_index". Pickup/delivery pairs become shipments.
ProblemSpec parse_lilim(std::string_view text, const std::string& source,
                        bool truncate_one_decimal);

}  // namespace routesolve::io
