#pragma once
// The warp's shuffle-down sum, written once as a tree of steps: at offset 16, 8, 4, 2, 1 every
// lane adds the value of the lane `offset` above it (its own value when that lane is past the
// warp, as __shfl_down_sync returns), so lane 0 ends with the warp's sum. The device runs it in
// registers with shuffles; the host twin runs the same steps over the block's 32 lane values.
//
// T needs operator+ (RS_HD) and, for the device, a __device__ shuffle_down(T, offset) overload
// found by argument-dependent lookup next to the kernel.

#include <cstdint>

#include "launch_grid.cuh"

namespace routesolve::cuda::detail {

/// Source lane of `lane` at one step of the tree (the lane itself past the warp's end).
RS_HD constexpr std::uint32_t shuffle_down_source(std::uint32_t lane,
                                                  std::uint32_t offset) noexcept {
  return lane + offset < kWarp ? lane + offset : lane;
}

#if defined(__CUDACC__)
/// Device: the tree in registers. Every lane of the warp must call it (full mask).
template <typename T>
__device__ __forceinline__ T warp_sum(T value) {
  for (std::uint32_t offset = kWarp / 2; offset > 0; offset /= 2)
    value = value + shuffle_down(value, offset);
  return value;
}
#endif

/// Host: the same tree over the values of one warp's 32 lanes, in place (lanes[0] = the sum).
/// Ascending lanes read only lanes not yet updated at this step, as the shuffle reads them.
template <typename T>
inline void warp_sum_lanes(T* lanes) {
  for (std::uint32_t offset = kWarp / 2; offset > 0; offset /= 2)
    for (std::uint32_t lane = 0; lane < kWarp; ++lane)
      lanes[lane] = lanes[lane] + lanes[shuffle_down_source(lane, offset)];
}

}  // namespace routesolve::cuda::detail
