#pragma once
// Totals of one route (or one arc): travel duration, distance and arc cost. One type for the
// public API, the kernels and the host twin. Plain C++17 with RS_HD (no containers), so that nvcc
// compiles it into device code and g++ into everything else.

#include <cstdint>

#include "routesolve/hd/host_device.hpp"

namespace routesolve::cuda {

/// Figures of one route, in the problem's internal units (Duration, Distance, Cost: all int64).
struct RouteTotals {
  std::int64_t duration = 0;
  std::int64_t distance = 0;
  std::int64_t cost = 0;  ///< sum of arc costs (no fixed cost)

  RS_HD friend constexpr RouteTotals operator+(const RouteTotals& a,
                                               const RouteTotals& b) noexcept {
    return RouteTotals{a.duration + b.duration, a.distance + b.distance, a.cost + b.cost};
  }
  RS_HD friend constexpr bool operator==(const RouteTotals& a, const RouteTotals& b) noexcept {
    return a.duration == b.duration && a.distance == b.distance && a.cost == b.cost;
  }
  RS_HD friend constexpr bool operator!=(const RouteTotals& a, const RouteTotals& b) noexcept {
    return !(a == b);
  }
};

}  // namespace routesolve::cuda
