#pragma once
// The batched-move-evaluation search behind the "cuda" and "cuda-host" backends. Plain C++.

#include <memory>

#include "routesolve/solve.hpp"

namespace routesolve::cuda {

/// The "cuda-host" backend: the batched search with the move-evaluation functors run on the
/// host (OpenMP loop over the same code the device kernels run). Always available.
std::unique_ptr<Backend> make_cuda_host_backend();

/// Seconds of the last measured stage profile that make `auto` pick the device: a problem is
/// worth the device when tasks x neighbours x batch x 7 moves per round, priced at the host's
/// measured rate, take longer than the per-round transfer + launch overhead (see solve.cpp).
/// True when a device is usable and `tasks` is large enough for it to pay.
bool device_pays_for(std::size_t tasks) noexcept;

}  // namespace routesolve::cuda
