// Batched route evaluation on the device: one warp per route; the lanes stride over the route's
// arc slots, gather each arc through the shared ArcEval functor (route_eval.cuh), and the warp
// sums the three figures with shuffles. No Thrust/CUB here: it keeps nvcc time small.

#include "device_runtime.hpp"
#include "route_eval.cuh"
#include "route_eval_launch.hpp"

namespace routesolve::cuda::detail {
namespace {

constexpr unsigned kWarp = 32;
constexpr unsigned kBlock = 256;  // 8 routes per block
constexpr unsigned kFullMask = 0xffffffffu;

__device__ __forceinline__ std::int64_t warp_sum(std::int64_t value) {
  long long v = static_cast<long long>(value);
  for (unsigned offset = kWarp / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(kFullMask, v, offset);
  return static_cast<std::int64_t>(v);
}

__global__ void __launch_bounds__(kBlock)
    route_eval_kernel(RouteEvalView view, DeviceSpan<ArcTotals> out) {
  const std::uint64_t route =
      (static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / kWarp;
  const unsigned lane = threadIdx.x % kWarp;
  if (route >= view.routes()) return;  // uniform per warp: the shuffles below see full warps

  const ArcEval eval{view};
  ArcTotals sum{};
  const std::uint32_t slots = arc_slots(view, route);
  for (std::uint32_t s = lane; s < slots; s += kWarp) sum = sum + eval(route, s);

  sum.duration = warp_sum(sum.duration);
  sum.distance = warp_sum(sum.distance);
  sum.cost = warp_sum(sum.cost);
  if (lane == 0) out[route] = sum;
}

}  // namespace

void launch_route_eval(RouteEvalView view, DeviceSpan<ArcTotals> out, cudaStream_t stream) {
  const std::uint64_t routes = view.routes();
  if (routes == 0) return;
  const std::uint64_t routes_per_block = kBlock / kWarp;
  const auto blocks = static_cast<unsigned>((routes + routes_per_block - 1) / routes_per_block);
  route_eval_kernel<<<blocks, kBlock, 0, stream>>>(view, out);
  RS_CUDA_CHECK_LAUNCH();
}

}  // namespace routesolve::cuda::detail
