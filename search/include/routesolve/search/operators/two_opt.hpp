#pragma once
// 2-opt inside one tour of a WorkingSolution: reverses tasks[i..j]. Priced in O(1) from the
// tour's cumulative arc costs (TourCosts); valid when the reversed tour is feasible under the
// segment model with every shipment's pickup still before its delivery.

#include <cstddef>
#include <vector>

#include "routesolve/search/operators/operator.hpp"
#include "routesolve/search/operators/tour_costs.hpp"
#include "routesolve/search/working_solution.hpp"

namespace routesolve::search {

class TourTwoOpt {
 public:
  /// Reversal of tasks[i..j] (0-based, i < j) of tour v; `costs` are tour v's.
  TourTwoOpt(const WorkingSolution& s, const TourCosts& costs, std::size_t v, std::size_t i,
             std::size_t j);

  [[nodiscard]] Score delta() const noexcept { return delta_; }
  /// Checks the reversed tour (O(n)).
  [[nodiscard]] bool is_valid() const;
  void apply(WorkingSolution& s) const;
  [[nodiscard]] TouchedRoutes routes() const { return TouchedRoutes(v_); }

  /// The tour's tasks after the reversal.
  [[nodiscard]] std::vector<std::size_t> reversed() const;
  /// Cost change of reversing tasks[i..j] (0-based task indices, i < j).
  static Cost delta(const TourCosts& costs, std::size_t i, std::size_t j);

 private:
  const WorkingSolution* s_;
  std::size_t v_, i_, j_;
  Score delta_;
};

}  // namespace routesolve::search
