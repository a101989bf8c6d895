#pragma once
// Internal: the host-memory view of a RouteBatch and the host twin of the route-evaluation
// kernel, shared by evaluate_routes_host and the tests.

#include "route_eval.cuh"
#include "routesolve/cuda/route_eval.hpp"

namespace routesolve::cuda::detail {

/// A view of the batch in host memory (borrows the batch's arrays and matrices).
RouteEvalView host_view(const RouteBatch& batch);

/// The host twin of launch_route_eval: route_eval_grid(view.routes()) walked on the host, the
/// kernel's phases per block; out must have exactly one entry per route.
void evaluate_routes_grid(const RouteEvalView& view, DeviceSpan<RouteTotals> out);

}  // namespace routesolve::cuda::detail
