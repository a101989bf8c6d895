#pragma once
// Intra-route local search on one tour of a WorkingSolution: 2-opt (reverse a run of visits)
// and or-opt (move a run of 1-3 visits elsewhere in the tour). Costs are priced in O(1) from
// cumulative arc costs (both directions, so asymmetric matrices are exact); only improving
// candidates are checked for feasibility, by concatenating the visits' segments. Shipments keep
// their pickup before their delivery.

#include <cstddef>
#include <vector>

#include "working_solution.hpp"

namespace routesolve::cpu::detail {

/// Cumulative arc costs of a tour in both directions, for O(1) pricing of intra-route moves.
class TourCosts {
 public:
  TourCosts(const WorkingSolution& solution, std::size_t v);
  /// Location of node k (0 = start, n + 1 = end; kNone when missing).
  [[nodiscard]] std::size_t location(std::size_t k) const { return locations_[k]; }
  /// Cost of the arc between two locations (0 if one is missing).
  [[nodiscard]] Cost arc(std::size_t a, std::size_t b) const;
  /// Cost of the path node i -> ... -> node j (i <= j), forwards.
  [[nodiscard]] Cost forward(std::size_t i, std::size_t j) const { return forward_[j] - forward_[i]; }
  /// Cost of the path node j -> ... -> node i (i <= j), backwards.
  [[nodiscard]] Cost backward(std::size_t i, std::size_t j) const { return backward_[j] - backward_[i]; }

 private:
  TravelView travel_;
  std::vector<std::size_t> locations_;
  std::vector<Cost> forward_, backward_;
};

/// 2-opt inside a tour: reverses tasks[i..j].
class TourTwoOpt {
 public:
  /// Applies the first improving feasible reversal found; true when one was applied.
  static bool improve(WorkingSolution& solution, std::size_t v);
  /// Cost change of reversing tasks[i..j] (0-based task indices, i < j).
  static Cost delta(const TourCosts& costs, std::size_t i, std::size_t j);
};

/// Or-opt inside a tour: moves tasks[i..i+length-1] before tasks[to] (to outside the run).
class TourOrOpt {
 public:
  static bool improve(WorkingSolution& solution, std::size_t v);
  /// Cost change of the move (0-based indices; `to` in [0, n] \ [i, i + length]).
  static Cost delta(const TourCosts& costs, std::size_t i, std::size_t length, std::size_t to);
  /// The tour's tasks after the move.
  static std::vector<std::size_t> moved(const std::vector<std::size_t>& tasks, std::size_t i, std::size_t length,
                                        std::size_t to);
};

/// Runs both operators on tour v until neither improves (at most `max_moves` moves).
void polish_tour(WorkingSolution& solution, std::size_t v, std::size_t max_moves = 1000);

/// Feasible under the segment model, with shipments in order, on vehicle v.
bool sequence_feasible(const WorkingSolution& solution, std::size_t v, const std::vector<std::size_t>& tasks);

}  // namespace routesolve::cpu::detail
