#pragma once
// Cheapest feasible insertion of one task (a job, or a shipment's pickup together with its
// delivery) into one route: every position (pair) priced in O(1), cheap filters first, then
// core's schedule_route on the candidates in increasing cost order.

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "routesolve/search/search_state.hpp"
#include "routesolve/solution.hpp"

namespace routesolve::search {

/// Counts why insertions failed, to report the dominant reason of an unassigned task.
class FailureTally {
 public:
  void add(UnassignedReason reason) { ++counts_[static_cast<std::size_t>(reason)]; }
  void add(const FailureTally& other) {
    for (std::size_t i = 0; i < counts_.size(); ++i) counts_[i] += other.counts_[i];
  }
  [[nodiscard]] bool empty() const;
  /// The most frequent reason (ties: the more specific one); NotRouted when empty.
  [[nodiscard]] UnassignedReason dominant() const;

 private:
  std::array<std::uint64_t, 10> counts_{};
};

/// A priced insertion of a task into one route.
struct Insertion {
  bool feasible = false;
  std::size_t vehicle = kNone;
  std::size_t position = 0;   ///< the task goes before tasks[position] (position == n: at the end)
  std::size_t position2 = 0;  ///< shipments: the delivery goes before tasks[position2], >= position
  Cost delta = kInfiniteCost;  ///< cost change, fixed cost included when the route was empty
};

/// The route's task sequence with the insertion applied (pickup and delivery for shipments).
std::vector<std::size_t> inserted_sequence(const Problem& problem, const RouteData& route,
                                           const Insertion& insertion, std::size_t task);

/// Cheapest feasible insertion of `task` (job or pickup) into `route`. Failures are counted in
/// `tally` (may be null). At most `max_checks` schedule_route calls are spent; when the state
/// says the O(1) filters are exact for this vehicle and the task is a job, none are. Only
/// insertions cheaper than `bound` are considered.
Insertion best_insertion(const SearchState& state, const RouteData& route, std::size_t task,
                         FailureTally* tally, std::size_t max_checks = 32,
                         Cost bound = kInfiniteCost);

/// Relaxed time check of task t inserted between node a and node a + 1 of the route.
bool insertion_time_fits(const Problem& problem, const TravelView& tv, const RouteData& route,
                         std::size_t a, const Task& t);

}  // namespace routesolve::search
