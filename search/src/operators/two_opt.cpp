#include "routesolve/search/operators/two_opt.hpp"

#include <algorithm>

namespace routesolve::search {

TourTwoOpt::TourTwoOpt(const WorkingSolution& s, const TourCosts& costs, std::size_t v, std::size_t i, std::size_t j)
    : s_(&s), v_(v), i_(i), j_(j) {
  delta_.cost = delta(costs, i, j);
}

Cost TourTwoOpt::delta(const TourCosts& c, std::size_t i, std::size_t j) {
  // Nodes: task k is node k + 1. Reverse nodes i+1 .. j+1.
  const std::size_t a = i, b = i + 1, e = j + 1, f = j + 2;
  return c.arc(c.location(a), c.location(e)) + c.backward(b, e) + c.arc(c.location(b), c.location(f)) -
         c.arc(c.location(a), c.location(b)) - c.forward(b, e) - c.arc(c.location(e), c.location(f));
}

std::vector<std::size_t> TourTwoOpt::reversed() const {
  std::vector<std::size_t> seq = s_->tour(v_).tasks;
  std::reverse(seq.begin() + static_cast<std::ptrdiff_t>(i_), seq.begin() + static_cast<std::ptrdiff_t>(j_) + 1);
  return seq;
}

bool TourTwoOpt::is_valid() const { return sequence_feasible(*s_, v_, reversed()); }

void TourTwoOpt::apply(WorkingSolution& s) const { s.set_tasks(v_, reversed()); }

// ---- on a SearchState ----------------------------------------------------------------------------

TwoOpt::TwoOpt(const SearchState& state, std::size_t vehicle, std::size_t first, std::size_t last)
    : state_(&state), v_(vehicle), first_(first), last_(last) {}

Score TwoOpt::delta() const {
  const RouteData& r = state_->route(v_);
  const TravelView& tv = state_->travel(v_);
  // Tasks first..last are nodes first+1..last+1.
  const std::size_t i = first_ + 1, j = last_ + 1;
  const Cost forward = r.forward_cost[j] - r.forward_cost[i];
  const Cost backward = r.backward_cost[j] - r.backward_cost[i];
  const auto& loc = r.locations;
  const Cost before = arc_cost(tv, loc[i - 1], loc[i]) + forward + arc_cost(tv, loc[j], loc[j + 1]);
  const Cost after = arc_cost(tv, loc[i - 1], loc[j]) + backward + arc_cost(tv, loc[i], loc[j + 1]);
  Score d;
  d.cost = after - before;
  return d;
}

bool TwoOpt::passes_filters() const {
  const RouteData& r = state_->route(v_);
  if (r.shipment_tasks == 0) return true;
  // A shipment with both halves inside the segment would be reversed: never feasible.
  for (std::size_t k = first_; k <= last_; ++k) {
    const std::size_t sibling = state_->problem().task(r.tasks[k]).sibling;
    if (sibling == kNone) continue;
    const std::size_t ps = state_->position_of(sibling);
    if (ps >= first_ && ps <= last_) return false;
  }
  return true;
}

std::vector<RouteChange> TwoOpt::changes() const {
  std::vector<std::size_t> seq = state_->route(v_).tasks;
  std::reverse(seq.begin() + static_cast<std::ptrdiff_t>(first_),
               seq.begin() + static_cast<std::ptrdiff_t>(last_) + 1);
  return {RouteChange{v_, std::move(seq)}};
}

}  // namespace routesolve::search
