#include "relocate.hpp"

#include "insertion.hpp"

namespace routesolve::cpu::detail {

Relocate::Relocate(const SearchState& state, std::size_t task, std::size_t to_vehicle,
                   std::size_t to_position)
    : state_(&state),
      task_(task),
      from_(state.route_of(task)),
      from_position_(state.position_of(task)),
      to_(to_vehicle),
      to_position_(to_position) {}

Score Relocate::delta() const {
  if (from_ == to_) return recomputed_delta(*state_, changes());
  const Problem& problem = state_->problem();
  const RouteData& r1 = state_->route(from_);
  const RouteData& r2 = state_->route(to_);
  const std::size_t u = problem.task(task_).location;
  Score d;
  if (r1.size() == 1) {
    d.cost -= r1.cost(problem);
    d.routes -= 1;
  } else {
    const TravelView& tv = state_->travel(from_);
    const std::size_t prev = r1.locations[from_position_], next = r1.locations[from_position_ + 2];
    d.cost += arc_cost(tv, prev, next) - arc_cost(tv, prev, u) - arc_cost(tv, u, next);
  }
  const TravelView& tv = state_->travel(to_);
  const std::size_t a = r2.locations[to_position_], b = r2.locations[to_position_ + 1];
  d.cost += arc_cost(tv, a, u) + arc_cost(tv, u, b);
  if (r2.empty()) {
    d.cost += state_->fixed_cost(to_);
    d.routes += 1;
  } else {
    d.cost -= arc_cost(tv, a, b);
  }
  return d;
}

bool Relocate::passes_filters() const {
  const Problem& problem = state_->problem();
  const Task& t = problem.task(task_);
  if (from_ == to_) return true;
  if (t.sibling != kNone || !problem.compatible(to_, task_)) return false;
  const Vehicle& vehicle = problem.vehicle(to_);
  const RouteData& r2 = state_->route(to_);
  if (vehicle.max_tasks != kNone && r2.size() + 1 > vehicle.max_tasks) return false;
  if (!fits_with(r2.load_prefix_max[to_position_], t.delivery, vehicle.capacity) ||
      !fits_with(r2.load_suffix_max[to_position_], t.pickup, vehicle.capacity))
    return false;
  const TravelView& tv = state_->travel(to_);
  if (arc_unreachable(tv, r2.locations[to_position_], t.location) ||
      arc_unreachable(tv, t.location, r2.locations[to_position_ + 1]))
    return false;
  return insertion_time_fits(problem, tv, r2, to_position_, t);
}

std::vector<RouteChange> Relocate::changes() const {
  const auto& a = state_->route(from_).tasks;
  if (from_ == to_) {
    std::vector<std::size_t> seq;
    seq.reserve(a.size());
    for (std::size_t k = 0; k <= a.size(); ++k) {
      if (k == to_position_) seq.push_back(task_);
      if (k < a.size() && k != from_position_) seq.push_back(a[k]);
    }
    return {RouteChange{from_, std::move(seq)}};
  }
  std::vector<std::size_t> seq1 = a;
  seq1.erase(seq1.begin() + static_cast<std::ptrdiff_t>(from_position_));
  std::vector<std::size_t> seq2 = state_->route(to_).tasks;
  seq2.insert(seq2.begin() + static_cast<std::ptrdiff_t>(to_position_), task_);
  return {RouteChange{from_, std::move(seq1)}, RouteChange{to_, std::move(seq2)}};
}

}  // namespace routesolve::cpu::detail
