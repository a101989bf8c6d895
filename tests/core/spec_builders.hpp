#pragma once
// Small builders for hand-written problems in the core tests.

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "routesolve/error.hpp"
#include "routesolve/problem.hpp"

namespace routesolve::test {

/// Locations 0..n-1 on a line: duration |i-j| * 10, distance |i-j| * 100.
inline ProblemSpec line_spec(std::size_t n) {
  ProblemSpec spec;
  Matrix dur(n), dist(n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const auto d = static_cast<std::int64_t>(i > j ? i - j : j - i);
      dur(i, j) = 10 * d;
      dist(i, j) = 100 * d;
    }
  spec.matrices["car"] = ProfileMatrices{dur, dist, std::nullopt};
  return spec;
}

inline LocationSpec at(std::size_t index) {
  LocationSpec l;
  l.index = index;
  return l;
}

inline JobSpec job(Id id, std::size_t location, Duration service = 0) {
  JobSpec j;
  j.id = id;
  j.location = at(location);
  j.service = service;
  return j;
}

inline ShipmentSpec shipment(Id id, std::size_t from, std::size_t to, Amount amount = {}) {
  ShipmentSpec s;
  s.pickup.id = id;
  s.pickup.location = at(from);
  s.delivery.id = id;
  s.delivery.location = at(to);
  s.amount = std::move(amount);
  return s;
}

inline VehicleSpec vehicle(Id id, std::optional<std::size_t> start,
                           std::optional<std::size_t> end) {
  VehicleSpec v;
  v.id = id;
  if (start) v.start = at(*start);
  if (end) v.end = at(*end);
  return v;
}

inline BreakSpec break_spec(Id id, Duration service, std::vector<TimeWindow> windows = {}) {
  BreakSpec b;
  b.id = id;
  b.service = service;
  b.time_windows = std::move(windows);
  return b;
}

}  // namespace routesolve::test
