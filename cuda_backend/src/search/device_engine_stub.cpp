// CPU-only builds: there is no device engine.

#include "routesolve/cuda/cuda_backend.hpp"
#include "routesolve/error.hpp"
#include "search_engine.hpp"

namespace routesolve::cuda::batched {

std::unique_ptr<MoveEngine> make_device_engine(TransferMode /*transfer*/, int /*device*/) {
  throw Error(ErrorCode::Device, "device move evaluation requested but " + device_unavailable_reason());
}

}  // namespace routesolve::cuda::batched
