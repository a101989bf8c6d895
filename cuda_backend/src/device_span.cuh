#pragma once
// DeviceSpan: the array view shared by host and device code (RS_HD comes from core). Kept free
// of CUDA headers so that g++ compiles the host twin of every kernel from the same source.

#include <cstddef>

#include "routesolve/hd/host_device.hpp"

namespace routesolve::cuda::detail {

/// A non-owning view of a contiguous array (device or host memory). Kernels take it by value.
template <typename T>
struct DeviceSpan {
  T* ptr = nullptr;
  std::size_t count = 0;

  RS_HD T* data() const noexcept { return ptr; }
  RS_HD std::size_t size() const noexcept { return count; }
  RS_HD bool empty() const noexcept { return count == 0; }
  RS_HD T& operator[](std::size_t i) const noexcept { return ptr[i]; }
};

}  // namespace routesolve::cuda::detail
