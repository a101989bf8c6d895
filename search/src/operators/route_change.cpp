#include "routesolve/search/operators/route_change.hpp"

namespace routesolve::search {

Score recomputed_delta(const SearchState& state, const std::vector<RouteChange>& changes) {
  Score d;
  for (const RouteChange& c : changes) {
    const RouteData& old = state.route(c.vehicle);
    d.cost += route_cost(state.problem(), c.vehicle, c.tasks) - old.cost(state.problem());
    d.routes += static_cast<long>(!c.tasks.empty()) - static_cast<long>(!old.empty());
  }
  return d;
}

bool changes_pass_filters(const SearchState& state, const std::vector<RouteChange>& changes) {
  const Problem& problem = state.problem();
  for (const RouteChange& c : changes) {
    const Vehicle& vehicle = problem.vehicle(c.vehicle);
    if (vehicle.max_tasks != kNone && c.tasks.size() > vehicle.max_tasks) return false;
    Amount delivery(problem.dimensions()), pickup(problem.dimensions());
    for (std::size_t t : c.tasks) {
      if (!problem.compatible(c.vehicle, t)) return false;
      const Task& task = problem.task(t);
      if (task.type == TaskType::Job) {
        add_amount(delivery, task.delivery);
        add_amount(pickup, task.pickup);
      }
    }
    if (!delivery.fits_in(vehicle.capacity) || !pickup.fits_in(vehicle.capacity)) return false;
  }
  return true;
}

bool changes_feasible(const SearchState& state, const std::vector<RouteChange>& changes) {
  for (const RouteChange& c : changes)
    if (!schedule(state.problem(), c.vehicle, c.tasks).feasible) return false;
  return true;
}

void apply_changes(SearchState& state, std::vector<RouteChange> changes) {
  for (RouteChange& c : changes) state.set_route(c.vehicle, std::move(c.tasks));
}

}  // namespace routesolve::search
