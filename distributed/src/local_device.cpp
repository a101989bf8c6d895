// The rank-local device (world.hpp): local rank modulo the node's CUDA devices.

#include "routesolve/cuda/cuda_backend.hpp"
#include "routesolve/distributed/world.hpp"

namespace routesolve::distributed {

int local_device() { return rank_device(static_cast<int>(cuda::devices().size())); }

}  // namespace routesolve::distributed
