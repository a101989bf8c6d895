#include "routesolve/search/operators/swap.hpp"

#include <utility>

#include "routesolve/search/operators/inter_route.hpp"

namespace routesolve::search {

using namespace inter_route;

InterSwap::InterSwap(const WorkingSolution& s, std::size_t u, std::size_t w, Objective objective, const Score& bound)
    : u_(u), w_(w) {
  if (!s.assigned(u) || !s.assigned(w) || !is_job(s, u) || !is_job(s, w)) return;
  const std::size_t v1 = s.route_of(u), v2 = s.route_of(w);
  if (v1 == v2) return;
  const Problem& p = s.problem();
  if (!p.compatible(v1, w) || !p.compatible(v2, u)) return;
  const SegmentModel& m = s.model();
  const Tour& t1 = s.tour(v1);
  const Tour& t2 = s.tour(v2);
  const TravelView& tv1 = m.travel(v1);
  const TravelView& tv2 = m.travel(v2);
  const std::size_t i = s.position_of(u), j = s.position_of(w);
  const std::size_t lu = p.task(u).location, lw = p.task(w).location;
  const std::size_t p1 = before_location(s, v1, i), s1 = after_location(s, v1, i);
  const std::size_t p2 = before_location(s, v2, j), s2 = after_location(s, v2, j);
  const Cost added1 = arc(tv1, p1, lw) + arc(tv1, lw, s1), added2 = arc(tv2, p2, lu) + arc(tv2, lu, s2);
  if (added1 >= kUnreachable || added2 >= kUnreachable) return;
  Score d;
  d.cost = added1 + added2 - arc(tv1, p1, lu) - arc(tv1, lu, s1) - arc(tv2, p2, lw) - arc(tv2, lw, s2);
  if (!better(d, bound, objective)) return;
  const RouteSegment r1 = m.merge(v1, m.merge(v1, t1.prefix[i], m.task(w)), t1.suffix[i + 2]);
  if (!m.feasible(v1, r1)) return;
  const RouteSegment r2 = m.merge(v2, m.merge(v2, t2.prefix[j], m.task(u)), t2.suffix[j + 2]);
  if (!m.feasible(v2, r2)) return;
  if (!settle(s, v1, r1, v2, r2, objective, d, bound)) return;
  delta_ = d;
  found_ = true;
  v1_ = v1;
  v2_ = v2;
}

void InterSwap::apply(WorkingSolution& s) const {
  std::vector<std::size_t> t1 = s.tour(v1_).tasks, t2 = s.tour(v2_).tasks;
  t1[s.position_of(u_)] = w_;
  t2[s.position_of(w_)] = u_;
  s.set_tasks(v1_, std::move(t1));
  s.set_tasks(v2_, std::move(t2));
}

// ---- on a SearchState ----------------------------------------------------------------------------

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

}  // namespace routesolve::search
