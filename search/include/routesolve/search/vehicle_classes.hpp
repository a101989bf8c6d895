#pragma once
// Groups vehicles that are interchangeable (same travel, capacity, skills, time window, breaks,
// start/end, limits and costs): an unused vehicle of a class is evaluated once, not per copy.

#include <cstddef>
#include <vector>

#include "routesolve/problem.hpp"

namespace routesolve::search {

class VehicleClasses {
 public:
  explicit VehicleClasses(const Problem& problem);

  [[nodiscard]] std::size_t count() const noexcept { return members_.size(); }
  [[nodiscard]] std::size_t class_of(std::size_t v) const { return class_of_[v]; }
  /// Vehicles of class c, in increasing index order.
  [[nodiscard]] const std::vector<std::size_t>& members(std::size_t c) const { return members_[c]; }

 private:
  std::vector<std::size_t> class_of_;
  std::vector<std::vector<std::size_t>> members_;
};

/// True when vehicles a and b can replace each other in any route.
bool interchangeable(const Problem& problem, std::size_t a, std::size_t b);

}  // namespace routesolve::search
