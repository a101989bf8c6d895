#include "batched_solve.hpp"

#include <algorithm>

#include "routesolve/search/solve.hpp"
#include "routesolve/search/tuning.hpp"

namespace routesolve::cuda::insertion {

std::optional<std::string> batched_unsupported(const Problem& problem) {
  if (problem.has_reloads()) return "multi-trip vehicles (reload_locations)";
  for (std::size_t v = 0; v < problem.vehicles().size(); ++v)
    if (problem.vehicle(v).max_working_time < kMaxTime)
      return "max_working_time (vehicles[" + std::to_string(v) + "])";
  return std::nullopt;
}

Solution solve_batched(const Problem& problem, const SolveOptions& options, BatchedEngine& engine,
                       const char* backend_name, unsigned chains, bool lockstep) {
  Solution solution =
      search::solve(problem, options, search::Engine{backend_name, &engine, lockstep, chains});
  // The engine's stages happened inside the driver's "local_search": what is left of it is
  // the host's part of the search (ruin, recreate bookkeeping, descent, acceptance).
  const InsertionStats& s = engine.stats();
  const double engine_s = s.pack + s.h2d + s.kernels + s.d2h + s.check;
  for (StageTime& t : solution.profile)
    if (t.stage == "local_search") {
      t.stage = "host_search";
      t.seconds = std::max(0.0, t.seconds - engine_s);
    }
  solution.profile.push_back({"pack", s.pack});
  solution.profile.push_back({"h2d", s.h2d});
  solution.profile.push_back({"kernel", s.kernels});
  solution.profile.push_back({"d2h", s.d2h});
  if (s.check > 0.0) solution.profile.push_back({"insertion_check", s.check});
  return solution;
}

unsigned device_chains(const Problem& problem, const SolveOptions& options, int multiprocessors) {
  return search::device_chains(problem.tasks().size(), options.threads,
                               static_cast<unsigned>(std::max(1, multiprocessors)));
}

Solution solve_checked(const Problem& problem, const SolveOptions& options, CheckedEngine& engine,
                       unsigned chains) {
  Solution solution = solve_batched(problem, options, engine, "cuda", chains);
  solution.mismatches = engine.mismatches();
  if (!engine.fallback_reason().empty()) {
    solution.fallback = engine.fallback_reason();
    solution.backend = "cuda-host";
  }
  return solution;
}

}  // namespace routesolve::cuda::insertion
