#pragma once
// Pair relocate on a SearchState (the descent for problems beyond the segment model): moves a
// shipment (pickup and delivery together) to its cheapest feasible position pair in a route (its
// own route included), confirmed by schedule_route.

#include <cstddef>
#include <vector>

#include "routesolve/search/insertion.hpp"
#include "routesolve/search/operators/route_change.hpp"

namespace routesolve::search {

class PairRelocate {
 public:
  /// Searches the cheapest feasible reinsertion of the shipment whose pickup is `pickup` into
  /// `to_vehicle`, considering only placements that improve on `bound` (a cost delta).
  PairRelocate(const SearchState& state, std::size_t pickup, std::size_t to_vehicle,
               Cost bound = 0, std::size_t max_checks = 8);
  /// Relocation of the shipment to explicit positions of the target route without the pair.
  PairRelocate(const SearchState& state, std::size_t pickup, std::size_t to_vehicle,
               std::size_t pickup_position, std::size_t delivery_position);

  /// True when a placement was found (search constructor) or given.
  [[nodiscard]] bool found() const noexcept { return insertion_.feasible; }
  /// Objective change (removal from the old route plus insertion).
  [[nodiscard]] Score delta() const { return delta_; }
  [[nodiscard]] bool passes_filters() const;
  [[nodiscard]] std::vector<RouteChange> changes() const;
  [[nodiscard]] bool is_valid() const { return found() && passes_filters() && changes_feasible(*state_, changes()); }
  void apply(SearchState& state) const { apply_changes(state, changes()); }
  [[nodiscard]] TouchedRoutes routes() const { return TouchedRoutes(from_, to_); }

 private:
  void price();

  const SearchState* state_;
  std::size_t pickup_, from_, to_;
  std::vector<std::size_t> reduced_from_;  ///< old route without the shipment
  RouteData target_;                        ///< target route (without the shipment if the same)
  Insertion insertion_;
  Score delta_;
};

}  // namespace routesolve::search
