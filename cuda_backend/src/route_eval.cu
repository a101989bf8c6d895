// Batched route evaluation on the device: one warp per route (route_eval.cuh). The kernel runs
// the three phases of route_eval.cuh, the warp reduction between them with shuffles
// (warp_sum.cuh); the host twin runs the same phases over the same grid. No Thrust/CUB here: it
// keeps nvcc time small.

#include "device_runtime.hpp"
#include "route_eval.cuh"
#include "route_eval_launch.hpp"
#include "warp_sum.cuh"

namespace routesolve::cuda {

/// The shuffle of one step of warp_sum, field by field (found by argument-dependent lookup).
__device__ __forceinline__ RouteTotals shuffle_down(const RouteTotals& v, std::uint32_t offset) {
  constexpr unsigned kFullMask = 0xffffffffu;
  const auto shuffle = [&](std::int64_t x) {
    return static_cast<std::int64_t>(
        __shfl_down_sync(kFullMask, static_cast<long long>(x), offset));
  };
  return RouteTotals{shuffle(v.duration), shuffle(v.distance), shuffle(v.cost)};
}

namespace detail {
namespace {

__global__ void __launch_bounds__(kRouteEvalBlock)
    route_eval_kernel(RouteEvalView view, DeviceSpan<RouteTotals> out) {
  route_eval_store(threadIdx.x, blockIdx.x, blockDim.x,
                   warp_sum(route_eval_partial(threadIdx.x, blockIdx.x, blockDim.x, view)), out);
}

}  // namespace

void launch_route_eval(RouteEvalView view, DeviceSpan<RouteTotals> out, cudaStream_t stream) {
  if (view.routes() == 0) return;
  const Grid grid = route_eval_grid(view.routes());
  route_eval_kernel<<<grid.blocks, grid.threads, 0, stream>>>(view, out);
  RS_CUDA_CHECK_LAUNCH();
}

}  // namespace detail
}  // namespace routesolve::cuda
