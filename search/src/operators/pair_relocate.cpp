#include "routesolve/search/operators/pair_relocate.hpp"

namespace routesolve::search {

namespace {

std::vector<std::size_t> without_pair(const std::vector<std::size_t>& tasks, std::size_t p, std::size_t d) {
  std::vector<std::size_t> out;
  out.reserve(tasks.size());
  for (std::size_t t : tasks)
    if (t != p && t != d) out.push_back(t);
  return out;
}

}  // namespace

PairRelocate::PairRelocate(const SearchState& state, std::size_t pickup, std::size_t to_vehicle,
                           Cost bound, std::size_t max_checks)
    : state_(&state), pickup_(pickup), from_(state.route_of(pickup)), to_(to_vehicle) {
  const Problem& problem = state.problem();
  const std::size_t delivery = problem.task(pickup).sibling;
  reduced_from_ = without_pair(state.route(from_).tasks, pickup, delivery);
  target_ = from_ == to_ ? make_route_data(problem, to_, reduced_from_) : state.route(to_);
  const Cost removal = route_cost(problem, from_, reduced_from_) - state.route(from_).cost(problem);
  // Only placements with removal + insertion delta < bound are of interest.
  insertion_ = best_insertion(state, target_, pickup, nullptr, max_checks, bound - removal);
  price();
}

PairRelocate::PairRelocate(const SearchState& state, std::size_t pickup, std::size_t to_vehicle,
                           std::size_t pickup_position, std::size_t delivery_position)
    : state_(&state), pickup_(pickup), from_(state.route_of(pickup)), to_(to_vehicle) {
  const Problem& problem = state.problem();
  reduced_from_ = without_pair(state.route(from_).tasks, pickup, problem.task(pickup).sibling);
  target_ = from_ == to_ ? make_route_data(problem, to_, reduced_from_) : state.route(to_);
  insertion_.feasible = true;
  insertion_.vehicle = to_;
  insertion_.position = pickup_position;
  insertion_.position2 = delivery_position;
  price();
}

void PairRelocate::price() {
  if (!insertion_.feasible) return;
  delta_ = recomputed_delta(*state_, changes());
}

bool PairRelocate::passes_filters() const { return changes_pass_filters(*state_, changes()); }

std::vector<RouteChange> PairRelocate::changes() const {
  const Problem& problem = state_->problem();
  std::vector<std::size_t> target = inserted_sequence(problem, target_, insertion_, pickup_);
  if (from_ == to_) return {RouteChange{to_, std::move(target)}};
  return {RouteChange{from_, reduced_from_}, RouteChange{to_, std::move(target)}};
}

}  // namespace routesolve::search
