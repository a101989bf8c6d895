#pragma once
// The search driver as the backends call it: pre-check, construction, the SISR chains with the
// backend's insertion engine, exactness by schedule_route, and the solution (see solve.cpp).

#include <cstdint>
#include <string>

#include "routesolve/backend.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/search/insertion_engine.hpp"
#include "routesolve/search/parallel_search.hpp"
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
  /// Chains when SolveOptions::chains is 0 (0: one per thread).
  unsigned chains = 0;
};

/// The search chains of a solve: SolveOptions::chains, else the engine's, else one per thread.
unsigned chain_count(const SolveOptions& options, const Engine& engine);
/// How they run: one per thread, or in lockstep on SolveOptions::threads threads (a batching
/// engine, or more chains than threads).
ParallelSearch::Chains chains_of(const SolveOptions& options, const Engine& engine);
/// The fixed work of a solve without a time limit, over every chain: SolveOptions::iterations
/// (else kDefaultIterations) per chain, times chain_count.
std::uint64_t fixed_work(const SolveOptions& options, const Engine& engine);

/// Solves with the engine; every route confirmed by schedule_route.
Solution solve(const Problem& problem, const SolveOptions& options, const Engine& engine);

}  // namespace routesolve::search
