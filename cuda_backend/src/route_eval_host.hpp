#pragma once
// Internal: host-memory views of a RouteBatch, shared by the host twin and the device path.

#include <vector>

#include "route_eval.cuh"
#include "routesolve/cuda/route_eval.hpp"

namespace routesolve::cuda::detail {

/// The batch's matrices as MatrixRef entries (host pointers).
std::vector<MatrixRef> host_matrix_table(const RouteBatch& batch);

/// A view of the batch in host memory; `table` must outlive it.
RouteEvalView host_view(const RouteBatch& batch, const std::vector<MatrixRef>& table);

}  // namespace routesolve::cuda::detail
