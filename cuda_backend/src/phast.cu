// PHAST/RPHAST sweep kernels: one launch per level per tile. Each kernel is a one-line wrapper
// of its body in phast.cuh, run with one lane per thread (the host twin runs the same bodies
// over the same grids, in lane groups).
// A sweep block of 256 threads covers 256 / width nodes of the level x width columns, so a warp
// reads the 32 contiguous keys of a tail row at a time (coalesced) and the arc's tail and weight
// are broadcast. No Thrust/CUB here: nvcc time stays small; the selection (sort/compaction) is
// done once per target set on the host.

#include "device_runtime.hpp"
#include "phast.cuh"
#include "phast_launch.hpp"

namespace routesolve::cuda::detail {
namespace {

__global__ void __launch_bounds__(kPhastBlock)
    seed_kernel(DeviceSpan<const Seed> seeds, Key* tile, std::uint32_t width) {
  seed_thread(threadIdx.x, blockIdx.x, blockDim.x, seeds, tile, width);
}

__global__ void __launch_bounds__(kPhastBlock)
    sweep_level_kernel(RelaxNode relax_node, std::uint32_t first, std::uint32_t count) {
  sweep_lanes<1>(threadIdx.x, blockIdx.x, blockDim.x, relax_node, first, count);
}

__global__ void __launch_bounds__(kPhastBlock)
    gather_kernel(const Key* tile, std::uint32_t width,
                  DeviceSpan<const std::uint32_t> target_local, Key* out) {
  gather_lanes<1>(threadIdx.x, blockIdx.x, blockDim.x, tile, width, target_local, out);
}

}  // namespace

void launch_seed(DeviceSpan<const Seed> seeds, Key* tile, std::uint32_t width,
                 cudaStream_t stream) {
  if (seeds.empty()) return;
  const Grid grid = seed_grid(seeds.size());
  seed_kernel<<<grid.blocks, grid.threads, 0, stream>>>(seeds, tile, width);
  RS_CUDA_CHECK_LAUNCH();
}

void launch_sweep_level(SweepGraphView graph, Key* tile, std::uint32_t width, std::uint32_t first,
                        std::uint32_t count, cudaStream_t stream) {
  if (count == 0) return;
  const Grid grid = sweep_grid(count, width);
  sweep_level_kernel<<<grid.blocks, grid.threads, 0, stream>>>(RelaxNode{graph, tile, width}, first,
                                                               count);
  RS_CUDA_CHECK_LAUNCH();
}

void launch_gather(const Key* tile, std::uint32_t width,
                   DeviceSpan<const std::uint32_t> target_local, Key* out, cudaStream_t stream) {
  if (target_local.empty()) return;
  const Grid grid = gather_grid(target_local.size(), width);
  gather_kernel<<<grid.blocks, grid.threads, 0, stream>>>(tile, width, target_local, out);
  RS_CUDA_CHECK_LAUNCH();
}

}  // namespace routesolve::cuda::detail
