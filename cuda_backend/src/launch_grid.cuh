#pragma once
// The launch shape of a one-dimensional kernel, computed once: the launcher passes it to
// <<<blocks, threads>>>, the host twin walks the same blocks and threads (host_grid.hpp). Every
// kernel's per-thread body is an RS_HD function of (thread, block, block_dim, arguments), called
// with threadIdx/blockIdx/blockDim on the device and from those loops on the host. The PHAST
// sweep and gather bodies serve a group of L consecutive threads (phast.cuh): L = 1 on the
// device, and the host walks the block in steps of L.

#include <cstdint>

#include "routesolve/hd/host_device.hpp"

namespace routesolve::cuda::detail {

/// Threads of a warp: the unit of the warp reductions (warp_sum.cuh).
inline constexpr std::uint32_t kWarp = 32;

/// A one-dimensional launch: `blocks` blocks of `threads` threads.
struct Grid {
  std::uint32_t blocks = 0;
  std::uint32_t threads = 0;
  RS_HD constexpr std::uint64_t total_threads() const noexcept {
    return std::uint64_t{blocks} * threads;
  }
};

/// Blocks of `per_block` items that cover `items` items.
RS_HD constexpr std::uint32_t blocks_for(std::uint64_t items, std::uint32_t per_block) noexcept {
  return static_cast<std::uint32_t>((items + per_block - 1) / per_block);
}

/// One thread per item, blocks of `threads`.
RS_HD constexpr Grid linear_grid(std::uint64_t items, std::uint32_t threads) noexcept {
  return Grid{blocks_for(items, threads), threads};
}

/// Global index of a thread of a one-dimensional launch.
RS_HD constexpr std::uint64_t global_thread(std::uint32_t thread, std::uint32_t block,
                                            std::uint32_t block_dim) noexcept {
  return std::uint64_t{block} * block_dim + thread;
}

}  // namespace routesolve::cuda::detail
