#pragma once
// Granular neighbourhoods: each task's k nearest tasks, the only partners the local search tries.

#include <cstddef>
#include <vector>

#include "routesolve/problem.hpp"

namespace routesolve::search {

class Neighbours {
 public:
  /// The k nearest other tasks of every task by symmetric travel cost (first vehicle's travel
  /// data), ties broken by index.
  Neighbours(const Problem& problem, std::size_t k);
  [[nodiscard]] const std::vector<std::size_t>& of(std::size_t task) const { return lists_[task]; }

 private:
  std::vector<std::vector<std::size_t>> lists_;
};

}  // namespace routesolve::search
