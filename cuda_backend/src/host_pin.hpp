#pragma once
// The problem's travel matrices pinned for a device solve: the one host copy of each matrix (the
// problem's own) becomes page-locked, so that the insertion engine's upload and the route check
// copy from it by DMA, with no staging copy. No-op in builds without CUDA.

#include <cstddef>
#include <memory>

#include "routesolve/problem.hpp"

namespace routesolve::cuda::detail {

/// Registers every distinct matrix of `problem` with the CUDA runtime until the returned token
/// dies (must die before the problem). Registration failures are ignored: the copies stay
/// correct from pageable memory.
std::shared_ptr<void> pin_matrices(const Problem& problem);

/// Seconds of one cudaMemcpyAsync of `bytes` from pinned memory to device `device`, timed with
/// events (the self-test's transfer rate). Error(Device) without a device.
double time_pinned_copy(int device, std::size_t bytes);

}  // namespace routesolve::cuda::detail
