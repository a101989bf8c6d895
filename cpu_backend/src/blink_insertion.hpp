#pragma once
// Recreate by greedy insertion with blinks (SISR): tasks are sorted by a randomly chosen key
// (random, demand, distance from the depot, time-window start) and each goes to its cheapest
// feasible position, every position being skipped with a small probability. Positions are
// priced in O(1) by segment concatenation; only tours holding one of the task's nearest tasks
// (and one empty vehicle per class) are tried first, all tours when none of those fits.

#include <cstddef>
#include <random>
#include <vector>

#include "neighbours.hpp"
#include "search_state.hpp"
#include "vehicle_classes.hpp"
#include "working_solution.hpp"

namespace routesolve::cpu::detail {

/// The best position found for a task.
struct InsertionChoice {
  std::size_t vehicle = kNone;
  std::size_t i = 0;  ///< before tasks[i]
  std::size_t j = 0;  ///< shipments: the delivery before tasks[j] (j >= i)
  Cost delta = kInfiniteCost;
  [[nodiscard]] bool found() const noexcept { return vehicle != kNone; }
};

class BlinkInsertion {
 public:
  BlinkInsertion(const Neighbours& near, const VehicleClasses& classes, double blink_rate = 0.01,
                 std::size_t near_tours = 24);

  /// Cheapest feasible insertion of `task` (job or pickup) into tour v, skipping positions with
  /// probability blink (pass rng = nullptr for no blinks). Only deltas below `bound` count.
  [[nodiscard]] InsertionChoice best_in_tour(const WorkingSolution& solution, std::size_t task, std::size_t v,
                                             std::mt19937_64* rng, Cost bound = kInfiniteCost) const;

  /// Inserts `tasks` (sorted here) one by one; those without a feasible position stay
  /// unassigned. New routes are opened only while fewer than `max_routes` are used.
  void apply(WorkingSolution& solution, std::vector<std::size_t> tasks, std::mt19937_64& rng,
             std::size_t max_routes) const;

 private:
  void sort(const WorkingSolution& solution, std::vector<std::size_t>& tasks, std::mt19937_64& rng) const;

  const Neighbours* near_;
  const VehicleClasses* classes_;
  double blink_rate_;
  std::size_t near_tours_;
};

}  // namespace routesolve::cpu::detail
