#pragma once
// The validated solve every entry point runs, written once: the CLI's solve, batch and
// reoptimise, the service's POST /, the C API and the Python module. From a spec an entry point
// has read: its travel matrices when it has none (make_matrix_provider, or the provider given),
// the problem, the solve (backend choice and fallback: routesolve::solve, or plan mode), the
// independent validator, and the figures the entry points report (stage times, seconds).

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "routesolve/backend.hpp"
#include "routesolve/dispatch/matrices.hpp"
#include "routesolve/network/matrix_provider.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"

namespace routesolve::dispatch {

/// Where a problem's matrices came from when they were computed: the provider and its answer
/// (the roads of each leg on a road network, which geometry output draws).
struct MatrixSource {
  std::shared_ptr<const network::MatrixProvider> provider;
  network::MatrixFill fill;
};

/// Something the user should hear about a run; the entry point decides whether to print it.
struct Note {
  bool warning = false;  ///< a device left or a backend replaced (printed even when quiet)
  std::string text;      ///< one line, naming the input where it is about one
};

/// How a spec becomes a problem, beyond MatrixOptions.
struct PrepareOptions {
  std::string source;  ///< the input's name in notes (a file); empty: the spec's own source
  /// The provider that fills missing matrices; null: make_matrix_provider(MatrixOptions).
  std::shared_ptr<const network::MatrixProvider> provider;
  /// Notes as they arise (great-circle travel, stops off the roads, a device auto left); may be
  /// empty.
  std::function<void(const Note&)> on_note;
  /// When given, the stage under way ("matrices", "problem", "solve", "validate"): which one an
  /// exception came from (the service answers a matrix failure as a routing error).
  std::string* stage = nullptr;
};

/// A problem ready to solve and where its matrices came from.
struct Prepared {
  ProblemPtr problem;
  std::shared_ptr<const MatrixSource> matrices;  ///< null when the spec gave its matrices
  std::vector<StageTime> stages;                 ///< the matrix stages and "problem"
};

/// Fills the spec's matrices when it has none (refusing first, with a road network to load,
/// matrices that cannot fit in memory) and creates the problem.
Prepared prepare_problem(ProblemSpec spec, const MatrixOptions& matrices,
                         const PrepareOptions& how = {});

/// What a solver gives back: the solution, or none on an MPI rank that reports none (its root
/// does); `problem` when the solution is of another problem than the one given (reoptimise
/// with vehicles' positions), else null.
struct Solved {
  std::optional<Solution> solution;
  ProblemPtr problem;
};

/// How the solve runs, beyond SolveOptions.
struct SolveRun {
  /// The run's start: with a time limit, the time since then (reading, matrices) and a reserve
  /// for checking and writing the answer come off the solve's share. None: the solve has it all.
  std::optional<std::chrono::steady_clock::time_point> started;
  bool check_plan = false;  ///< plan mode: check_plan, the violations reported, never refused
  /// The solve itself when it is not routesolve::solve (the decomposition over MPI ranks,
  /// reoptimise); empty: routesolve::solve.
  std::function<Solved(const Problem&, const SolveOptions&)> solver;
  /// Called once the problem exists and before the solve: options that need the problem (a
  /// progress callback in its cost units).
  std::function<void(const Problem&, SolveOptions&)> before_solve;
};

/// A validated solve and its figures.
struct Outcome {
  ProblemPtr problem;  ///< the problem the solution is of
  Solution solution;   ///< its profile: the matrix stages, "problem", the solve's, "validate"
  bool solved = true;  ///< false on an MPI rank whose solution its root reports (solution empty)
  std::shared_ptr<const MatrixSource> matrices;  ///< null when the spec gave its matrices
  bool geometry = false;  ///< the spec's options.g: each route's geometry in the JSON answer
  double seconds = 0.0;  ///< since SolveRun::started (else since the call), the validation included
};

/// Seconds a run keeps back from its time limit for checking and writing the answer of this
/// problem (about 0.1 s for 5,000 tasks as JSON, measured).
double output_reserve_s(const Problem& problem) noexcept;

/// Solves a prepared problem and validates the solution: one that fails the validator is
/// Error(Internal) naming how.source, never returned. A backend's fallback is a warning note.
Outcome solve_prepared(const Prepared& prepared, SolveOptions options, const SolveRun& run = {},
                       const PrepareOptions& how = {});

/// prepare_problem, then solve_prepared: the read spec's whole validated solve.
Outcome solve_spec(ProblemSpec spec, const MatrixOptions& matrices, SolveOptions options,
                   const SolveRun& run = {}, const PrepareOptions& how = {});

}  // namespace routesolve::dispatch
