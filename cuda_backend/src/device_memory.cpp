// Predictable device memory (device_memory.hpp): the checks and the paired buffer, host code.

#include "device_memory.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "routesolve/error.hpp"

namespace routesolve::cuda::detail {

std::string format_bytes(std::uint64_t bytes) {
  static const char* const units[] = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) return std::to_string(bytes) + " B";
  double v = static_cast<double>(bytes) / 1024.0;
  std::size_t u = 0;
  while (v >= 1024.0 && u + 1 < std::size(units)) {
    v /= 1024.0;
    ++u;
  }
  char text[32];
  std::snprintf(text, sizeof text, v < 10.0 ? "%.2f %s" : "%.1f %s", v, units[u]);
  return text;
}

void check_memory(const std::string& what, int device, const MemoryNeed& need,
                  const MemoryFree& free) {
  if (need.device > free.device)
    throw Error(ErrorCode::OutOfMemory, what + " needs " + format_bytes(need.device) +
                                            " on device " + std::to_string(device) + ", " +
                                            format_bytes(free.device) + " available");
  if (need.pinned > free.host)
    throw Error(ErrorCode::OutOfMemory, what + " needs " + format_bytes(need.pinned) +
                                            " of pinned host memory, " + format_bytes(free.host) +
                                            " available");
}

std::uint64_t host_available_bytes() noexcept {
  try {
    std::ifstream meminfo("/proc/meminfo");
    std::string line;
    while (std::getline(meminfo, line)) {
      std::istringstream in(line);
      std::string key;
      std::uint64_t kib = 0;
      if (in >> key >> kib && key == "MemAvailable:") return kib * 1024;
    }
  } catch (...) {  // no /proc: the page count below
  }
  const long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  return pages > 0 && size > 0
             ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(size)
             : 0;
}

void PairedBuffer::reserve(std::size_t host_bytes, std::size_t device_bytes) {
  if (host_bytes <= host_capacity_ && device_bytes <= device_capacity_) return;
  const std::size_t host_grown = std::max<std::size_t>(1, host_bytes + host_bytes / 2);
  const std::size_t device_grown = std::max<std::size_t>(1, device_bytes + device_bytes / 2);
  auto* host = static_cast<std::byte*>(allocator_->allocate_host(host_grown));
  std::byte* device = nullptr;
  try {
    device = static_cast<std::byte*>(allocator_->allocate_device(device_grown));
  } catch (...) {
    allocator_->free_host(host);
    throw;
  }
  release();
  host_ = host;
  device_ = device;
  host_capacity_ = host_grown;
  device_capacity_ = device_grown;
}

void PairedBuffer::release() noexcept {
  if (host_ != nullptr) allocator_->free_host(host_);
  if (device_ != nullptr) allocator_->free_device(device_);
  host_ = device_ = nullptr;
  host_capacity_ = device_capacity_ = 0;
}

}  // namespace routesolve::cuda::detail
