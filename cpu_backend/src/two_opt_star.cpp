#include "two_opt_star.hpp"

namespace routesolve::cpu::detail {

TwoOptStar::TwoOptStar(const SearchState& state, std::size_t v1, std::size_t keep1, std::size_t v2,
                       std::size_t keep2)
    : state_(&state), v1_(v1), keep1_(keep1), v2_(v2), keep2_(keep2) {}

Cost TwoOptStar::joined_cost(std::size_t head, std::size_t keep_head, std::size_t tail,
                             std::size_t keep_tail) const {
  const Problem& problem = state_->problem();
  const RouteData& h = state_->route(head);
  const RouteData& t = state_->route(tail);
  const std::size_t tail_size = t.size() - keep_tail;
  if (keep_head + tail_size == 0) return 0;
  const TravelView& tv = state_->travel(head);
  // Head: nodes 0..keep_head of `head`. Tail: nodes keep_tail+1..n of `tail`.
  Cost cost = h.forward_cost[keep_head] + state_->fixed_cost(head);
  const std::size_t last_head = h.locations[keep_head];
  const std::size_t end = h.locations[h.size() + 1];
  if (tail_size == 0) return cost + arc_cost(tv, last_head, end);
  const std::size_t first_tail = keep_tail + 1, last_tail = t.size();
  cost += arc_cost(tv, last_head, t.locations[first_tail]);
  if (problem.vehicle(head).travel == problem.vehicle(tail).travel) {
    cost += t.forward_cost[last_tail] - t.forward_cost[first_tail];
  } else {
    for (std::size_t k = first_tail; k < last_tail; ++k)
      cost += arc_cost(tv, t.locations[k], t.locations[k + 1]);
  }
  return cost + arc_cost(tv, t.locations[last_tail], end);
}

Score TwoOptStar::delta() const {
  const Problem& problem = state_->problem();
  const RouteData& a = state_->route(v1_);
  const RouteData& b = state_->route(v2_);
  const std::size_t n1 = keep1_ + (b.size() - keep2_), n2 = keep2_ + (a.size() - keep1_);
  Score d;
  d.cost = joined_cost(v1_, keep1_, v2_, keep2_) + joined_cost(v2_, keep2_, v1_, keep1_) -
           a.cost(problem) - b.cost(problem);
  d.routes = static_cast<long>(n1 > 0) + static_cast<long>(n2 > 0) - static_cast<long>(!a.empty()) -
             static_cast<long>(!b.empty());
  return d;
}

bool TwoOptStar::passes_filters() const {
  const Problem& problem = state_->problem();
  const RouteData& a = state_->route(v1_);
  const RouteData& b = state_->route(v2_);
  // Shipments must not be cut apart.
  auto split = [&](const RouteData& r, std::size_t keep) {
    if (r.shipment_tasks == 0) return false;
    for (std::size_t k = 0; k < keep; ++k) {
      const std::size_t sibling = problem.task(r.tasks[k]).sibling;
      if (sibling != kNone && state_->position_of(sibling) >= keep) return true;
    }
    return false;
  };
  if (split(a, keep1_) || split(b, keep2_)) return false;
  auto fits = [&](std::size_t head, std::size_t keep_head, std::size_t tail, std::size_t keep_tail) {
    const RouteData& h = state_->route(head);
    const RouteData& t = state_->route(tail);
    const Vehicle& vehicle = problem.vehicle(head);
    if (vehicle.max_tasks != kNone && keep_head + t.size() - keep_tail > vehicle.max_tasks) return false;
    Amount delivery = t.delivery_prefix.back(), pickup = t.pickup_prefix.back();
    subtract_amount(delivery, t.delivery_prefix[keep_tail]);
    subtract_amount(pickup, t.pickup_prefix[keep_tail]);
    if (!fits_with(delivery, h.delivery_prefix[keep_head], vehicle.capacity) ||
        !fits_with(pickup, h.pickup_prefix[keep_head], vehicle.capacity))
      return false;
    if (problem.vehicle(head).skills != problem.vehicle(tail).skills) {
      for (std::size_t k = keep_tail; k < t.size(); ++k)
        if (!problem.compatible(head, t.tasks[k])) return false;
    }
    return true;
  };
  return fits(v1_, keep1_, v2_, keep2_) && fits(v2_, keep2_, v1_, keep1_);
}

std::vector<RouteChange> TwoOptStar::changes() const {
  const auto& a = state_->route(v1_).tasks;
  const auto& b = state_->route(v2_).tasks;
  std::vector<std::size_t> n1(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(keep1_));
  n1.insert(n1.end(), b.begin() + static_cast<std::ptrdiff_t>(keep2_), b.end());
  std::vector<std::size_t> n2(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(keep2_));
  n2.insert(n2.end(), a.begin() + static_cast<std::ptrdiff_t>(keep1_), a.end());
  return {RouteChange{v1_, std::move(n1)}, RouteChange{v2_, std::move(n2)}};
}

}  // namespace routesolve::cpu::detail
