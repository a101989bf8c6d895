#pragma once
// The batched-move-evaluation search behind the "cuda" and "cuda-host" backends. Plain C++.

#include <memory>

#include "routesolve/backend.hpp"

namespace routesolve::cuda {

/// The "cuda-host" backend: the batched search with the move-evaluation functors run on the
/// host (loops over the same per-thread code the device kernels run). Always available.
std::unique_ptr<Backend> make_cuda_host_backend();

/// Move types the batched search prices per task and neighbour (the auto policy's work model).
unsigned batched_move_types() noexcept;

}  // namespace routesolve::cuda
