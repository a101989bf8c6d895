#pragma once
// The CUDA backend's public face: plain C++, no CUDA types (the device code stays inside).

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "routesolve/backend.hpp"

namespace routesolve::cuda {

struct DeviceInfo {
  int index = 0;
  std::string name;
  int compute_major = 0, compute_minor = 0;
  std::size_t total_memory = 0;  ///< bytes
  int multiprocessors = 0;
};

/// True when this build compiled device code with nvcc.
bool built_with_cuda() noexcept;

/// The CUDA devices usable now; empty without a device, a driver, or a CUDA build.
std::vector<DeviceInfo> devices();

/// True when at least one usable device is present.
bool device_available() noexcept;

/// Why no device is usable ("built without CUDA", "no CUDA-capable device is detected", ...);
/// empty when one is.
std::string device_unavailable_reason();

/// The CUDA backend ("cuda"). Throws Error(Device) naming the reason when no device is usable.
std::unique_ptr<Backend> make_cuda_backend();

}  // namespace routesolve::cuda
