#pragma once
// Shared by the cuda-host and cuda backends: runs the batched search on an engine and fills
// the stage profile (construction, h2d, kernels, d2h, host).

#include "batched_search.hpp"

namespace routesolve::cuda::search {

/// The solution carries the search's mismatches, and when the search left `engine` for
/// search.fallback_engine, backend "cuda-host" and the reason in Solution::fallback.
Solution solve_batched(const Problem& problem, const SolveOptions& options, MoveEngine& engine,
                       const char* backend_name, const BatchedSearchOptions& search = {});

}  // namespace routesolve::cuda::search
