#pragma once
// The "cuda-host" backend: the search driver with the batched insertion engine's host twin (the
// "cuda" backend's, without a device: cuda_backend.hpp). Plain C++.

#include <memory>

#include "routesolve/backend.hpp"

namespace routesolve::cuda {

/// The "cuda-host" backend: the search driver whose insertions are priced by the batched
/// engine's host twin (loops over the same per-thread code the device kernels run). Always
/// available.
std::unique_ptr<Backend> make_cuda_host_backend();

}  // namespace routesolve::cuda
