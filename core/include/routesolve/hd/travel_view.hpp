#pragma once
// The travel data one vehicle sees, as plain row-major arrays (n x n): durations after the
// vehicle's speed factor, distances, and per-arc cost in internal cost units. The same view is
// read by the schedule, the CPU search and the device kernels (host or device pointers).

#include <cstddef>
#include <cstdint>

#include "routesolve/hd/host_device.hpp"

namespace routesolve {

struct TravelView {
  std::size_t n = 0;
  const std::int64_t* durations = nullptr;
  const std::int64_t* distances = nullptr;  ///< may be null in device batches: all zero
  const std::int64_t* costs = nullptr;
  [[nodiscard]] RS_HD std::int64_t duration(std::size_t i, std::size_t j) const noexcept { return durations[i * n + j]; }
  [[nodiscard]] RS_HD std::int64_t distance(std::size_t i, std::size_t j) const noexcept { return distances[i * n + j]; }
  [[nodiscard]] RS_HD std::int64_t cost(std::size_t i, std::size_t j) const noexcept { return costs[i * n + j]; }
};

}  // namespace routesolve
