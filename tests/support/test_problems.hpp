#pragma once
// Small problems built in code, for the search, backend, io and reliability tests.

#include <cmath>
#include <random>
#include <utility>
#include <vector>

#include "routesolve/problem.hpp"

namespace routesolve::test {

/// A spec whose single profile "car" has Euclidean (rounded) durations = distances between points.
inline ProblemSpec points_spec(const std::vector<std::pair<double, double>>& points) {
  ProblemSpec spec;
  const std::size_t n = points.size();
  Matrix m(n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      m(i, j) = static_cast<std::int64_t>(std::llround(
          std::hypot(points[i].first - points[j].first, points[i].second - points[j].second)));
  spec.matrices["car"] = ProfileMatrices{m, m, std::nullopt};
  spec.name = "test";
  return spec;
}

inline JobSpec make_job(Id id, std::size_t location, std::int64_t demand = 1) {
  JobSpec j;
  j.id = id;
  j.location.index = location;
  j.delivery = Amount{demand};
  j.pickup = Amount{0};
  return j;
}

inline VehicleSpec make_vehicle(Id id, std::size_t depot, std::int64_t capacity) {
  VehicleSpec v;
  v.id = id;
  v.start = LocationSpec{depot, std::nullopt};
  v.end = LocationSpec{depot, std::nullopt};
  v.capacity = Amount{capacity};
  return v;
}

/// Random points in [0, 100)^2; point 0 is the depot.
inline std::vector<std::pair<double, double>> random_points(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> coord(0.0, 100.0);
  std::vector<std::pair<double, double>> pts(n);
  for (auto& p : pts) p = {coord(rng), coord(rng)};
  return pts;
}

}  // namespace routesolve::test
