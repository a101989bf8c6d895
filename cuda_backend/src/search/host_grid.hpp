#pragma once
// The host twin's launcher: runs a kernel body (kernels.cuh) over the same grid the device
// launches, one OpenMP iteration per block, the block's threads in order (no body needs
// block-wide synchronisation). Host code only.

#include <cstdint>

#include "kernels.cuh"

namespace routesolve::cuda::detail::search {

/// body(thread, block) for every thread of blocks_for(n) blocks of kBlock threads, on up to
/// `threads` host threads.
template <typename Body>
void run_grid(const Body& body, std::uint64_t n, unsigned threads) {
  const auto blocks = static_cast<std::int64_t>(blocks_for(n));
#if defined(_OPENMP)
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (threads > 1 && blocks > 1)
#else
  (void)threads;  // a translation unit built without OpenMP runs the blocks in order
#endif
  for (std::int64_t block = 0; block < blocks; ++block)
    for (u32 thread = 0; thread < kBlock; ++thread) body(thread, static_cast<u32>(block));
}

}  // namespace routesolve::cuda::detail::search
