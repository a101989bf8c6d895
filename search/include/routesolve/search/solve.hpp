#pragma once
// The search driver as the backends call it: pre-check, construction, the SISR chains with the
// backend's insertion engine, exactness by schedule_route, and the solution (see solve.cpp).

#include <string>

#include "routesolve/backend.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/search/insertion_engine.hpp"
#include "routesolve/solution.hpp"

namespace routesolve::search {

/// What a backend brings to the driver.
struct Engine {
  std::string backend;                   ///< Solution::backend ("cpu", "cuda-host", "cuda")
  InsertionEngine* insertion = nullptr;  ///< prices the recreate's positions
  /// SolveOptions::threads chains in lockstep on the calling thread, their requests priced in
  /// one batch per round (a batched engine); else one chain per thread (the engine is called
  /// from every thread at once).
  bool lockstep = false;
};

/// Solves with the engine; every route confirmed by schedule_route.
Solution solve(const Problem& problem, const SolveOptions& options, const Engine& engine);

}  // namespace routesolve::search
