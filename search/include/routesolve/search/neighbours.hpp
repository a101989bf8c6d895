#pragma once
// Granular neighbourhoods: each task's k nearest tasks, the only partners the local search tries.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "routesolve/problem.hpp"

namespace routesolve::search {

class Neighbours {
 public:
  /// The k nearest other tasks of every task by symmetric travel cost (first vehicle's travel
  /// data), ties broken by index.
  Neighbours(const Problem& problem, std::size_t k);
  /// The nearest tasks of `task`, nearest first: min(k, tasks - 1) of them.
  [[nodiscard]] std::span<const std::uint32_t> of(std::size_t task) const {
    return std::span<const std::uint32_t>(lists_).subspan(task * k_, k_);
  }

 private:
  // Every list in one array of 32-bit task indices, k_ per task: the recreate and the descent
  // read the lists of random tasks, so the fewer cache lines a list takes, the better.
  std::size_t k_ = 0;
  std::vector<std::uint32_t> lists_;
};

}  // namespace routesolve::search
