// The validated solve of every entry point (routesolve/dispatch/solve_spec.hpp).

#include "routesolve/dispatch/solve_spec.hpp"

#include <fmt/core.h>

#include <utility>

#include "routesolve/dispatch/device_fallback.hpp"
#include "routesolve/error.hpp"
#include "routesolve/memory_budget.hpp"
#include "routesolve/plan_check.hpp"
#include "routesolve/solve.hpp"
#include "routesolve/timing.hpp"
#include "routesolve/validator.hpp"

namespace routesolve::dispatch {
namespace {

using SteadyClock = std::chrono::steady_clock;

void note(const PrepareOptions& how, bool warning, std::string text) {
  if (how.on_note) how.on_note(Note{warning, std::move(text)});
}

void enter(const PrepareOptions& how, const char* stage) {
  if (how.stage != nullptr) *how.stage = stage;
}

}  // namespace

Prepared prepare_problem(ProblemSpec spec, const MatrixOptions& m, const PrepareOptions& how) {
  Prepared out;
  const std::string source = how.source.empty() ? spec.source : how.source;
  enter(how, "matrices");
  if (spec.matrices.empty()) {
    const bool roads = !m.network.empty() && how.provider == nullptr;
    // Refuse before loading a network when the matrices cannot fit.
    if (roads) check_matrix_memory(distinct_locations(spec), matrices_at_peak(spec), spec.source);
    auto filled = std::make_shared<MatrixSource>();
    filled->provider =
        how.provider != nullptr ? how.provider : std::shared_ptr(make_matrix_provider(m));
    network::fill_matrices(spec, *filled->provider, &filled->fill);
    // After the matrices: a device that faulted during them is named too.
    if (roads && m.backend == BackendKind::Auto)
      if (const std::string why = auto_fallback(m.device.index); !why.empty())
        note(how, true, "matrices: " + why);
    if (m.network.empty() && how.provider == nullptr)
      note(how, false,
           fmt::format("{}: no travel matrices given; using great-circle distances at 50 km/h "
                       "(pass a road network "
                       "for real travel times)",
                       source));
    for (const std::string& path : filled->fill.unplaced)
      note(how, false,
           fmt::format("{}{}{}: no drivable road within {} m: reported unassigned (unreachable)",
                       spec.source, spec.source.empty() ? "" : ": ", path, m.max_snap_m));
    for (const auto& stage : filled->fill.matrices.stages)
      out.stages.push_back({stage.name, stage.seconds});
    out.matrices = std::move(filled);
  } else if (!m.network.empty()) {
    note(how, false,
         fmt::format("{}: the file gives travel matrices; --network is not used", source));
  }
  enter(how, "problem");
  const auto t_problem = SteadyClock::now();
  out.problem = Problem::create(std::move(spec));
  out.stages.push_back({"problem", seconds_since(t_problem)});
  return out;
}

double output_reserve_s(const Problem& problem) noexcept {
  return 0.02 + 20e-6 * static_cast<double>(problem.tasks().size() + problem.vehicles().size());
}

Outcome solve_prepared(const Prepared& prepared, SolveOptions options, const SolveRun& run,
                       const PrepareOptions& how) {
  const SteadyClock::time_point t0 = run.started.value_or(SteadyClock::now());
  const std::string source = how.source.empty() ? prepared.problem->spec().source : how.source;
  Outcome out;
  out.problem = prepared.problem;
  out.matrices = prepared.matrices;
  out.geometry = prepared.problem->spec().geometry;
  if (run.before_solve) run.before_solve(*out.problem, options);
  // The time limit holds for the whole run: what came before the solve (reading, matrices) and a
  // reserve for checking and writing the answer come off the solve's share.
  if (run.started && options.time_limit_s > 0) {
    const double used = seconds_since(t0);
    options.time_used_s = used + output_reserve_s(*out.problem);
    if (options.time_used_s >= options.time_limit_s)
      note(how, false,
           fmt::format("{}: reading the input and the matrices took {:.1f} s of the {:.1f} s time "
                       "limit: no time is "
                       "left for the search (the solution is the construction's)",
                       source, used, options.time_limit_s));
  }
  enter(how, "solve");
  Solved solved;
  if (run.check_plan) {
    solved.solution = check_plan(*out.problem);
  } else if (run.solver) {
    solved = run.solver(*out.problem, options);
  } else {
    solved.solution = solve(*out.problem, options);
  }
  if (!solved.solution) {  // an MPI rank whose root reports the solution
    out.solved = false;
    return out;
  }
  out.solution = std::move(*solved.solution);
  if (solved.problem) out.problem = std::move(solved.problem);
  if (!out.solution.fallback.empty())
    note(how, true, fmt::format("backend {}: {}", out.solution.backend, out.solution.fallback));
  out.solution.profile.insert(out.solution.profile.begin(), prepared.stages.begin(),
                              prepared.stages.end());
  enter(how, "validate");
  const auto t_validate = SteadyClock::now();
  const ValidationReport report = validate(*out.problem, out.solution);
  if (!report.ok() && !out.solution.checked)  // a checked plan reports its violations instead
    throw Error(ErrorCode::Internal, (source.empty() ? std::string() : source + ": ") +
                                         "the solver's solution failed validation:\n" +
                                         report.to_text());
  out.solution.profile.push_back({"validate", seconds_since(t_validate)});
  out.seconds = seconds_since(t0);
  return out;
}

Outcome solve_spec(ProblemSpec spec, const MatrixOptions& matrices, SolveOptions options,
                   const SolveRun& run, const PrepareOptions& how) {
  if (run.check_plan) spec.plan = true;  // the steps' service bounds stay as they are (plan mode)
  const Prepared prepared = prepare_problem(std::move(spec), matrices, how);
  return solve_prepared(prepared, std::move(options), run, how);
}

}  // namespace routesolve::dispatch
