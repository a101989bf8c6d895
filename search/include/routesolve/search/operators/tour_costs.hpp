#pragma once
// What the intra-route operators on a WorkingSolution (2-opt, or-opt) share: cumulative arc
// costs of a tour in both directions (so that asymmetric matrices price exactly in O(1)) and the
// segment-model feasibility of a rewritten tour.

#include <cstddef>
#include <vector>

#include "routesolve/search/working_solution.hpp"

namespace routesolve::search {

/// Cumulative arc costs of a tour in both directions, for O(1) pricing of intra-route moves.
class TourCosts {
 public:
  TourCosts(const WorkingSolution& solution, std::size_t v);
  /// Location of node k (0 = start, n + 1 = end; kNone when missing).
  [[nodiscard]] std::size_t location(std::size_t k) const { return locations_[k]; }
  /// Cost of the arc between two locations (0 if one is missing).
  [[nodiscard]] Cost arc(std::size_t a, std::size_t b) const;
  /// Cost of the path node i -> ... -> node j (i <= j), forwards.
  [[nodiscard]] Cost forward(std::size_t i, std::size_t j) const {
    return forward_[j] - forward_[i];
  }
  /// Cost of the path node j -> ... -> node i (i <= j), backwards.
  [[nodiscard]] Cost backward(std::size_t i, std::size_t j) const {
    return backward_[j] - backward_[i];
  }

 private:
  TravelView travel_;
  std::vector<std::size_t> locations_;
  std::vector<Cost> forward_, backward_;
};

/// Feasible under the segment model, with shipments in order, on vehicle v.
bool sequence_feasible(const WorkingSolution& solution, std::size_t v,
                       const std::vector<std::size_t>& tasks);

}  // namespace routesolve::search
