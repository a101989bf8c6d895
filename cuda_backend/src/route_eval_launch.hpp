#pragma once
// Launcher of the route-evaluation kernel (route_eval.cu). CUDA builds only.

#include <cuda_runtime_api.h>

#include "route_eval.cuh"

namespace routesolve::cuda::detail {

/// Evaluates every route of `view` into `out` (exactly one entry per route) on `stream`,
/// asynchronously, over route_eval_grid(routes).
/// Checks the launch; errors of the kernel itself surface at the next synchronisation.
void launch_route_eval(RouteEvalView view, DeviceSpan<RouteTotals> out, cudaStream_t stream);

}  // namespace routesolve::cuda::detail
