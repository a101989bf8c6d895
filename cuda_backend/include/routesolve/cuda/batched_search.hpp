#pragma once
// The batched-move-evaluation search behind the "cuda" and "cuda-host" backends. Plain C++.

#include <memory>

#include "routesolve/solve.hpp"

namespace routesolve::cuda {

/// The "cuda-host" backend: the batched search with the move-evaluation functors run on the
/// host (OpenMP loop over the same code the device kernels run). Always available.
std::unique_ptr<Backend> make_cuda_host_backend();

/// `--backend auto`: true when a device is usable and the cost model of auto_policy.hpp says the
/// device pays for a problem of `tasks` tasks (one matrix, no time limit: the conservative case).
bool device_pays_for(std::size_t tasks) noexcept;
/// The same model with the problem's matrices, the time limit and the threads of `options`.
bool device_pays_for(const Problem& problem, const SolveOptions& options) noexcept;

}  // namespace routesolve::cuda
