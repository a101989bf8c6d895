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
  /// The classes in the order a new route tries them: larger capacity first (compared
  /// dimension by dimension), then by index. New routes that cost the same in two classes go to
  /// the larger vehicle, which leaves room for the tasks that come later.
  [[nodiscard]] const std::vector<std::size_t>& opening_order() const noexcept { return opening_; }

 private:
  std::vector<std::size_t> class_of_;
  std::vector<std::vector<std::size_t>> members_;
  std::vector<std::size_t> opening_;
};

/// True when vehicles a and b can replace each other in any route.
bool interchangeable(const Problem& problem, std::size_t a, std::size_t b);

}  // namespace routesolve::search
