#pragma once
// What a program embedding routesolve through another language needs, written once for the C
// API and the Python module: a problem from VROOM JSON text (travel matrices filled when the
// document gives coordinates only), solve options from plain values, dispatch's validated solve
// (dispatch::solve_spec) and travel matrices between points. Errors are routesolve::Error.

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "routesolve/backend.hpp"
#include "routesolve/dispatch/solve_spec.hpp"
#include "routesolve/network/matrix_provider.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"
#include "routesolve/validator.hpp"

namespace routesolve::capi {

/// The options of the C API and the Python module, as plain values.
struct EmbedOptions {
  std::string backend =
      "auto";  ///< cpu | cuda | cuda-host | auto (search, and road matrices by default)
  std::string matrix_engine;  ///< the road matrices' engine (the same names); empty: as backend
  std::string network;        ///< road network file; empty: great-circle for coordinates
  std::string objective = "cost";  ///< cost | vehicles-then-cost
  double time_limit_s = 0.0;
  std::uint64_t iterations = 0;
  std::uint64_t seed = 1;
  unsigned threads = 1;
  unsigned chains = 0;
  int device = 0;
  /// The reported timeline, "vroom" or "earliest"; empty: the problem's options.timeline, else
  /// vroom.
  std::string timeline;
  /// Plan mode (VROOM's -c): every vehicle's steps are its whole route; check_plan reports the
  /// constraints the plan breaks instead of solving.
  bool check = false;
};

/// SolveOptions for `o` (no stop flag, no progress callback: the caller adds those).
SolveOptions solve_options(const EmbedOptions& o);

/// The problem of a spec, its matrices filled when it has none (road network or great-circle,
/// as the CLI does: dispatch::prepare_problem).
std::shared_ptr<const Problem> problem_from_spec(ProblemSpec spec, const EmbedOptions& o);

/// parse_vroom_problem(text, source), then problem_from_spec.
std::shared_ptr<const Problem> problem_from_json(std::string_view text, const std::string& source,
                                                 const EmbedOptions& o);

/// The validated solve of a VROOM JSON document (dispatch::solve_spec), in plan mode with
/// o.check. `options` come from solve_options(o) with the caller's stop flag; `run` may add a
/// progress callback (SolveRun::before_solve).
dispatch::Outcome solve_json(std::string_view text, const std::string& source,
                             const EmbedOptions& o, SolveOptions options,
                             dispatch::SolveRun run = {});

/// The validated solve of a problem made before (dispatch::solve_prepared): with `check`,
/// check_plan (plan mode, the violations reported in the solution, never refused). A solution
/// that fails the validator is Error(Internal), never returned.
Solution solve_or_check(std::shared_ptr<const Problem> problem, const SolveOptions& options,
                        bool check);

/// {"ok": bool, "violations": [{"where", "kind", "message"}]}
std::string report_to_json(const ValidationReport& report);

/// Points from a JSON array of [lon, lat]; errors name `source` and the element.
std::vector<Coordinates> points_from_json(std::string_view text, const std::string& source);

/// Durations (s) and distances (m) between the points, row = from: on `o.network` with the
/// engine `o.backend` selects, else great-circle. A point off every road is kUnreachable to and
/// from the others.
network::ProvidedMatrices travel_matrices(std::span<const Coordinates> points,
                                          const EmbedOptions& o);

/// {"matrices": {"car": {"durations": [[...]], "distances": [[...]]}}}, unreachable as 2147483647
/// (what `routesolve matrix` writes).
std::string matrices_to_json(const network::ProvidedMatrices& m);

/// What a road network holds.
struct NetworkInfo {
  std::string path;
  std::size_t nodes = 0, arcs = 0;
  bool coordinates = false;
};

/// Imports a road network (OSM .osm.pbf/.osm, DIMACS .gr, edge list) and writes its binary cache
/// with the contraction hierarchy to `output` (what `routesolve network build` does).
NetworkInfo build_network_cache(const std::string& input, const std::string& output);

/// Loads a road network (a cache or a raw file) once per process and tells what it holds.
NetworkInfo load_network(const std::string& file);

}  // namespace routesolve::capi
