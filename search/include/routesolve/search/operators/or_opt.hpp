#pragma once
// Or-opt inside one tour of a WorkingSolution: moves the run tasks[i..i+length-1] before
// tasks[to] (to outside the run). Priced in O(1) from the tour's cumulative arc costs
// (TourCosts); valid when the new tour is feasible under the segment model with every
// shipment's pickup still before its delivery.

#include <cstddef>
#include <vector>

#include "routesolve/search/operators/operator.hpp"
#include "routesolve/search/operators/tour_costs.hpp"
#include "routesolve/search/working_solution.hpp"

namespace routesolve::search {

class TourOrOpt {
 public:
  /// The move of tasks[i..i+length-1] of tour v before tasks[to] (`to` in [0, n] \ [i, i +
  /// length]).
  TourOrOpt(const WorkingSolution& s, const TourCosts& costs, std::size_t v, std::size_t i,
            std::size_t length, std::size_t to);

  [[nodiscard]] Score delta() const noexcept { return delta_; }
  /// Checks the new tour (O(n)).
  [[nodiscard]] bool is_valid() const;
  void apply(WorkingSolution& s) const;
  [[nodiscard]] TouchedRoutes routes() const { return TouchedRoutes(v_); }

  /// Cost change of the move (0-based indices; `to` in [0, n] \ [i, i + length]).
  static Cost delta(const TourCosts& costs, std::size_t i, std::size_t length, std::size_t to);
  /// The tour's tasks after the move.
  static std::vector<std::size_t> moved(const std::vector<std::size_t>& tasks, std::size_t i,
                                        std::size_t length, std::size_t to);

 private:
  const WorkingSolution* s_;
  std::size_t v_, i_, length_, to_;
  Score delta_;
};

}  // namespace routesolve::search
