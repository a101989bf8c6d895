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
  /// How the lists are found: Auto with an R-tree over the tasks' points where the first
  /// vehicle's costs are rounded planar distances (Problem::planar_costs; O(n k log n)), else by
  /// a scan of every pair (O(n^2)); Scan always scans. Both give the same lists.
  enum class Method { Auto, Scan };

  /// The k nearest other tasks of every task by symmetric travel cost (first vehicle's travel
  /// data), ties broken by index.
  Neighbours(const Problem& problem, std::size_t k, Method method = Method::Auto);
  /// Partners for problems with time windows: of each task, the first `keep` of its list in
  /// `pool`, then the `extra` best of the rest of that list by the time-window correlation of
  /// HGS and PyVRP (the travel cost from one to the other plus 0.2 times the least wait and 1.0
  /// times the least time warp between them, the better of the two orders; first vehicle's
  /// travel data; ties broken by the pool's order). The tasks that follow in time rather than
  /// in space: a tour reaching a task far from its last stop but on the way back.
  Neighbours(const Problem& problem, const Neighbours& pool, std::size_t keep, std::size_t extra);
  /// The length of every list.
  [[nodiscard]] std::size_t size() const noexcept { return k_; }
  /// The nearest tasks of `task`, nearest first: min(k, tasks - 1) of them.
  [[nodiscard]] std::span<const std::uint32_t> of(std::size_t task) const {
    return std::span<const std::uint32_t>(lists_).subspan(task * k_, k_);
  }
  /// A hint to bring the head of a task's list (the nearest 32) into the cache before it is read.
  void prefetch(std::size_t task) const noexcept {
#if defined(__GNUC__) || defined(__clang__)
    const char* p = reinterpret_cast<const char*>(lists_.data() + task * k_);
    __builtin_prefetch(p);
    __builtin_prefetch(p + 64);
#else
    (void)task;
#endif
  }
  /// True when the lists came from the spatial index rather than the scan.
  [[nodiscard]] bool spatial() const noexcept { return spatial_; }

 private:
  // Every list in one array of 32-bit task indices, k_ per task: the recreate and the descent
  // read the lists of random tasks, so the fewer cache lines a list takes, the better.
  std::size_t k_ = 0;
  std::vector<std::uint32_t> lists_;
  bool spatial_ = false;
};

}  // namespace routesolve::search
