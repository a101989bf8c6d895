// The great-circle matrix provider (matrix_provider.hpp).

#include <cmath>
#include <cstdint>
#include <string>

#include "routesolve/error.hpp"
#include "routesolve/network/matrix_provider.hpp"

namespace routesolve::network {
GreatCircleProvider::GreatCircleProvider(double speed_mps) : speed_mps_(speed_mps) {
  if (!(speed_mps > 0.0)) throw invalid_input("speed", "speed must be positive");
}

ProvidedMatrices GreatCircleProvider::compute(std::span<const Coordinates> points,
                                              const MatrixScale& scale) const {
  const std::size_t n = points.size();
  ProvidedMatrices out;
  out.durations = Matrix(n);
  out.distances = Matrix(n);
  out.placed.assign(n, true);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      const double metres = haversine_m(points[i], points[j]);
      out.distances(i, j) = std::llround(metres * scale.distance);
      out.durations(i, j) = std::llround(std::round(metres) / speed_mps_ * scale.time);
    }
  }
  return out;
}

}  // namespace routesolve::network
