#pragma once
// The host twin's walk of a kernel's launch grid (launch_grid.cuh): every block, and in it every
// thread in index order, through the same per-thread body as the kernel. For kernels without
// block-wide synchronisation; a kernel with phases (warp reductions) has its host twin run the
// block's threads phase by phase instead (route_eval_host.cpp). Host code only.

#include <cstdint>

#include "launch_grid.cuh"

namespace routesolve::cuda::detail {

/// body(thread, block, block_dim) for every thread of one block.
template <typename Body>
inline void run_block(const Grid& grid, std::uint32_t block, Body&& body) {
  for (std::uint32_t t = 0; t < grid.threads; ++t) body(t, block, grid.threads);
}

/// Every block in order on the calling thread (the caller parallelises at a coarser level).
template <typename Body>
inline void run_grid(const Grid& grid, Body&& body) {
  for (std::uint32_t b = 0; b < grid.blocks; ++b) run_block(grid, b, body);
}

/// Every block, spread over up to `threads` OpenMP threads (one iteration per block; for bodies
/// whose blocks write disjoint outputs). A translation unit built without OpenMP runs them in
/// order.
template <typename Body>
inline void run_grid_parallel(const Grid& grid, unsigned threads, const Body& body) {
  const auto blocks = static_cast<std::int64_t>(grid.blocks);
#if defined(_OPENMP)
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (threads > 1 && blocks > 1)
#else
  (void)threads;
#endif
  for (std::int64_t b = 0; b < blocks; ++b) run_block(grid, static_cast<std::uint32_t>(b), body);
}

}  // namespace routesolve::cuda::detail
