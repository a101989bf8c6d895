#pragma once
// Shared by the cuda-host and cuda backends: runs the batched search on an engine and fills
// the stage profile (construction, h2d, kernels, d2h, host).

#include "batched_search.hpp"

namespace routesolve::cuda::search {

Solution solve_batched(const Problem& problem, const SolveOptions& options, MoveEngine& engine,
                       const char* backend_name);

}  // namespace routesolve::cuda::search
