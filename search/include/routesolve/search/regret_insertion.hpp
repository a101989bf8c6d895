#pragma once
// Construction by regret insertion: at each step, among the pending tasks of the highest
// priority, insert the one whose best options differ most (regret-k), at its cheapest feasible
// position over all routes. Best insertions are cached per (route, task) and recomputed only
// for the route that changed; unused interchangeable vehicles are priced once per class.

#include <cstddef>
#include <utility>
#include <vector>

#include "routesolve/search/search_control.hpp"
#include "routesolve/search/search_state.hpp"
#include "routesolve/search/vehicle_classes.hpp"
#include "routesolve/solution.hpp"

namespace routesolve::search {

class RegretInsertion {
 public:
  RegretInsertion(SearchState& state, const VehicleClasses& classes, const Deadline& deadline,
                  std::size_t regret_k = 3);

  /// Inserts `tasks` (jobs and shipment pickups) into the state's routes: every non-empty route,
  /// or those `routes` marks (indexed by vehicle), and an empty vehicle of every class. Returns
  /// the tasks left out and why (NotRouted for those the deadline left untried).
  std::vector<std::pair<std::size_t, UnassignedReason>> run(
      const std::vector<std::size_t>& tasks, const std::vector<char>* routes = nullptr);

 private:
  SearchState& state_;
  const VehicleClasses& classes_;
  const Deadline& deadline_;
  std::size_t regret_k_;
};

}  // namespace routesolve::search
