#pragma once
// The arc of a planar table computed from its points: the one formula the readers' tables and
// the computed travel tables (host and device) share, so that both hold the same entries.

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "routesolve/hd/host_device.hpp"

namespace routesolve {

/// A point of a planar table, as the travel tables read it (x, y in coordinate units).
struct PlanarPoint {
  double x = 0.0;
  double y = 0.0;
};

/// How scale x the Euclidean distance becomes an integer: to nearest (halves up, TSPLIB nint),
/// down (a truncation, Solomon's one decimal at scale 10) or up (TSPLIB CEIL_2D).
enum class PlanarRounding : std::uint8_t { Nearest, Down, Up };

/// Entry (i, j): scale x |points[i] - points[j]| rounded. Exact (no step can round across an
/// integer or a half) where the points are integral and every squared arc x scale^2 < 2^42
/// (planar_exact), so every evaluation order, with or without FMA, gives the same entry.
[[nodiscard]] RS_HD inline std::int32_t planar_arc(const PlanarPoint* points, std::size_t i,
                                                   std::size_t j, double scale_squared,
                                                   PlanarRounding rounding) noexcept {
  const double dx = points[i].x - points[j].x, dy = points[i].y - points[j].y;
  const double root = std::sqrt((dx * dx + dy * dy) * scale_squared);
  switch (rounding) {
    case PlanarRounding::Nearest:
      return static_cast<std::int32_t>(root + 0.5);
    case PlanarRounding::Down:
      return static_cast<std::int32_t>(root);
    default:
      return static_cast<std::int32_t>(std::ceil(root));
  }
}

/// Largest squared span x scale^2 where planar_arc is exact (2^42, so every entry fits 32 bits).
inline constexpr double kPlanarExactBound = 4398046511104.0;

}  // namespace routesolve
