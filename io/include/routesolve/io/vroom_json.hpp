#pragma once
// VROOM-compatible JSON: problems in, solutions out (and back in, for `routesolve validate`).

#include <filesystem>
#include <iosfwd>
#include <string>
#include <string_view>

#include "routesolve/io/writers.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"

namespace routesolve::io {

/// Parses a VROOM problem (jobs, shipments, vehicles, matrices | matrix). `source` names the
/// input in error messages, which carry the JSON path and field, e.g.
/// "fleet.json: vehicles[1].capacity[0]: expected a non-negative integer, got -3".
ProblemSpec parse_vroom_problem(std::string_view text, const std::string& source);
ProblemSpec read_vroom_problem(const std::filesystem::path& file);

/// Writes a solution as VROOM output JSON (code, summary, unassigned, routes with steps),
/// converting internal units back to the problem's output units.
/// With `geometry`, each route also gets its `geometry`: the encoded polyline (precision 5, as
/// VROOM returns with -g) of its path, each leg along the given road path when there is one.
void write_vroom_solution(std::ostream& out, const Problem& problem, const Solution& solution,
                          const LegLines* geometry = nullptr);
std::string vroom_solution_to_string(const Problem& problem, const Solution& solution);

/// Parses a VROOM output JSON into a Solution with task/vehicle indices resolved against
/// `problem` (unknown ids are kept with kNone indices so the validator reports them).
Solution parse_vroom_solution(std::string_view text, const std::string& source,
                              const Problem& problem);
Solution read_vroom_solution(const std::filesystem::path& file, const Problem& problem);

}  // namespace routesolve::io
