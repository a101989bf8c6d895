// CPU-only builds: no device insertion engine.

#include "insertion_engines.hpp"
#include "routesolve/error.hpp"

namespace routesolve::cuda::insertion {

std::unique_ptr<BatchedEngine> make_device_engine(const DeviceOptions&, std::size_t) {
  throw Error(ErrorCode::Device,
              "this build of routesolve has no CUDA support (built without nvcc)");
}

}  // namespace routesolve::cuda::insertion
