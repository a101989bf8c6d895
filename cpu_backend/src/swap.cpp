#include "swap.hpp"

#include <utility>

namespace routesolve::cpu::detail {

Swap::Swap(const SearchState& state, std::size_t first, std::size_t second)
    : state_(&state),
      u_(first),
      w_(second),
      ru_(state.route_of(first)),
      rw_(state.route_of(second)),
      pu_(state.position_of(first)),
      pw_(state.position_of(second)) {}

Score Swap::delta() const {
  if (ru_ == rw_) return recomputed_delta(*state_, changes());
  const Problem& problem = state_->problem();
  auto replace = [&](std::size_t v, std::size_t pos, std::size_t out, std::size_t in) {
    const RouteData& r = state_->route(v);
    const TravelView& tv = state_->travel(v);
    const std::size_t a = r.locations[pos], b = r.locations[pos + 2];
    const std::size_t lo = problem.task(out).location, li = problem.task(in).location;
    return arc_cost(tv, a, li) + arc_cost(tv, li, b) - arc_cost(tv, a, lo) - arc_cost(tv, lo, b);
  };
  Score d;
  d.cost = replace(ru_, pu_, u_, w_) + replace(rw_, pw_, w_, u_);
  return d;
}

bool Swap::passes_filters() const {
  const Problem& problem = state_->problem();
  if (ru_ == rw_) return true;
  if (problem.task(u_).sibling != kNone || problem.task(w_).sibling != kNone) return false;
  if (!problem.compatible(ru_, w_) || !problem.compatible(rw_, u_)) return false;
  auto fits = [&](std::size_t v, std::size_t out, std::size_t in) {
    const RouteData& r = state_->route(v);
    const Amount& capacity = problem.vehicle(v).capacity;
    Amount delivery = r.delivery_prefix.back(), pickup = r.pickup_prefix.back();
    subtract_amount(delivery, problem.task(out).delivery);
    subtract_amount(pickup, problem.task(out).pickup);
    return fits_with(delivery, problem.task(in).delivery, capacity) &&
           fits_with(pickup, problem.task(in).pickup, capacity);
  };
  return fits(ru_, u_, w_) && fits(rw_, w_, u_);
}

std::vector<RouteChange> Swap::changes() const {
  if (ru_ == rw_) {
    std::vector<std::size_t> seq = state_->route(ru_).tasks;
    std::swap(seq[pu_], seq[pw_]);
    return {RouteChange{ru_, std::move(seq)}};
  }
  std::vector<std::size_t> a = state_->route(ru_).tasks, b = state_->route(rw_).tasks;
  a[pu_] = w_;
  b[pw_] = u_;
  return {RouteChange{ru_, std::move(a)}, RouteChange{rw_, std::move(b)}};
}

}  // namespace routesolve::cpu::detail
