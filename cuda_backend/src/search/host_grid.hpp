#pragma once
// The move engine's host launcher: a kernel body (kernels.cuh) over engine_grid(n), the same grid
// the device launches, through the one host walk of a launch grid (../host_grid.hpp) with the
// blocks spread over OpenMP threads (no body needs block-wide synchronisation). Host code only.

#include <cstdint>

#include "../host_grid.hpp"
#include "kernels.cuh"

namespace routesolve::cuda::detail::batched {

/// body(thread, block) for every thread of engine_grid(n), on up to `threads` host threads.
template <typename Body>
void run_grid(const Body& body, std::uint64_t n, unsigned threads) {
  run_grid_parallel(engine_grid(n), threads, [&body](u32 thread, u32 block, u32 /*block_dim*/) { body(thread, block); });
}

}  // namespace routesolve::cuda::detail::batched
