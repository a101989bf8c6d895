// PHAST/RPHAST sweep kernels: one launch per level per tile. A block of 256 threads covers
// 256 / width nodes of the level x width columns; thread (node, column) runs RelaxNode (phast.cuh)
// with its minimum in a register, so a warp reads the 32 contiguous keys of a tail row at a time
// (coalesced) and the arc's tail and weight are broadcast. No Thrust/CUB here: nvcc time stays
// small; the selection (sort/compaction) is done once per target set on the host.

#include "device_runtime.hpp"
#include "phast.cuh"
#include "phast_launch.hpp"

namespace routesolve::cuda::detail {
namespace {

constexpr unsigned kBlock = 256;

__global__ void __launch_bounds__(kBlock)
    seed_kernel(DeviceSpan<const Seed> seeds, Key* tile, std::uint32_t width) {
  const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= seeds.size()) return;
  const Seed s = seeds[i];
  tile[static_cast<std::uint64_t>(s.node) * width + s.column] = s.key;
}

__global__ void __launch_bounds__(kBlock) sweep_level_kernel(RelaxNode relax_node, std::uint32_t first,
                                                             std::uint32_t count) {
  const std::uint32_t width = relax_node.width;
  const std::uint32_t local = blockIdx.x * (kBlock / width) + threadIdx.x / width;
  if (local >= count) return;
  relax_node(first + local, threadIdx.x % width);
}

__global__ void __launch_bounds__(kBlock) gather_kernel(const Key* tile, std::uint32_t width,
                                                        DeviceSpan<const std::uint32_t> target_local, Key* out) {
  const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= target_local.size() * width) return;
  const std::uint64_t j = i / width;
  const std::uint64_t c = i % width;
  out[i] = tile[static_cast<std::uint64_t>(target_local[j]) * width + c];
}

unsigned blocks_for(std::uint64_t threads) { return static_cast<unsigned>((threads + kBlock - 1) / kBlock); }

}  // namespace

void launch_seed(DeviceSpan<const Seed> seeds, Key* tile, std::uint32_t width, cudaStream_t stream) {
  if (seeds.empty()) return;
  seed_kernel<<<blocks_for(seeds.size()), kBlock, 0, stream>>>(seeds, tile, width);
  RS_CUDA_CHECK_LAUNCH();
}

void launch_sweep_level(SweepGraphView graph, Key* tile, std::uint32_t width, std::uint32_t first,
                        std::uint32_t count, cudaStream_t stream) {
  if (count == 0) return;
  const std::uint32_t nodes_per_block = kBlock / width;
  const unsigned blocks = (count + nodes_per_block - 1) / nodes_per_block;
  sweep_level_kernel<<<blocks, kBlock, 0, stream>>>(RelaxNode{graph, tile, width}, first, count);
  RS_CUDA_CHECK_LAUNCH();
}

void launch_gather(const Key* tile, std::uint32_t width, DeviceSpan<const std::uint32_t> target_local,
                   Key* out, cudaStream_t stream) {
  if (target_local.empty()) return;
  gather_kernel<<<blocks_for(target_local.size() * width), kBlock, 0, stream>>>(tile, width, target_local, out);
  RS_CUDA_CHECK_LAUNCH();
}

}  // namespace routesolve::cuda::detail
