#pragma once
// Launchers of the PHAST sweep kernels (phast.cu). CUDA builds only. Each launcher is
// asynchronous on `stream` and checks its launch.

#include <cuda_runtime_api.h>

#include <cstdint>

#include "phast.cuh"

namespace routesolve::cuda::detail {

/// Tile widths the device engine takes: powers of two, so that a sweep block (kPhastBlock
/// threads) holds kPhastBlock / width whole nodes with no idle thread.
inline constexpr bool valid_device_width(std::uint32_t width) {
  return width == 32 || width == 64 || width == 128 || width == 256;
}

/// tile[seed.node * width + seed.column] = seed.key for every seed.
void launch_seed(DeviceSpan<const Seed> seeds, Key* tile, std::uint32_t width, cudaStream_t stream);

/// RelaxNode over local nodes [first, first + count) (one level) and every column of the tile.
void launch_sweep_level(SweepGraphView graph, Key* tile, std::uint32_t width, std::uint32_t first,
                        std::uint32_t count, cudaStream_t stream);

/// out[j * width + c] = tile[target_local[j] * width + c]: the target rows, contiguous.
void launch_gather(const Key* tile, std::uint32_t width,
                   DeviceSpan<const std::uint32_t> target_local, Key* out, cudaStream_t stream);

}  // namespace routesolve::cuda::detail
