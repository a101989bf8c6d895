#include "routesolve/search/operators/two_opt_star.hpp"

#include "routesolve/search/operators/inter_route.hpp"

namespace routesolve::search {

using namespace inter_route;

InterTwoOptStar::InterTwoOptStar(const WorkingSolution& s, const VehicleClasses& classes,
                                 std::size_t u, std::size_t w, Objective objective,
                                 const Score& bound)
    : u_(u), w_(w) {
  if (!s.assigned(u) || !s.assigned(w)) return;
  const std::size_t v1 = s.route_of(u), v2 = s.route_of(w);
  // Tails change vehicles: their segments (start, end, travel data) must mean the same there.
  if (v1 == v2 || classes.class_of(v1) != classes.class_of(v2)) return;
  const Problem& p = s.problem();
  const SegmentModel& m = s.model();
  const Tour& t1 = s.tour(v1);
  const Tour& t2 = s.tour(v2);
  const TravelView& tv = m.travel(v1);
  const std::size_t n1 = t1.size(), n2 = t2.size(), i = s.position_of(u), j = s.position_of(w);
  const std::size_t lu = p.task(u).location, lw = p.task(w).location;
  Score best = bound;
  for (const bool u_first : {true, false}) {
    // u_first: tour 1 = ... u | w ... (tail of 2 from j), tour 2 = ... pred(w) | succ(u) ...
    // else:    tour 2 = ... w | u ... (tail of 1 from i), tour 1 = ... pred(u) | succ(w) ...
    const std::size_t head1 = u_first ? i + 1 : i;  // tasks of tour 1 that stay
    const std::size_t head2 = u_first ? j : j + 1;  // tasks of tour 2 that stay
    Cost cost;
    if (u_first) {
      const std::size_t s1 = after_location(s, v1, i), p2 = before_location(s, v2, j);
      const Cost added = arc(tv, lu, lw) + arc(tv, p2, s1);
      if (added >= kUnreachable) continue;
      cost = added - arc(tv, lu, s1) - arc(tv, p2, lw);
    } else {
      const std::size_t p1 = before_location(s, v1, i), s2 = after_location(s, v2, j);
      const Cost added = arc(tv, lw, lu) + arc(tv, p1, s2);
      if (added >= kUnreachable) continue;
      cost = added - arc(tv, p1, lu) - arc(tv, lw, s2);
    }
    const std::size_t new1 = head1 + (n2 - head2), new2 = head2 + (n1 - head1);
    // An emptied tour also loses its fixed cost and its start -> end arc.
    if (new1 == 0) cost -= p.fixed_cost(v1) + arc(tv, p.vehicle(v1).start, p.vehicle(v1).end);
    if (new2 == 0) cost -= p.fixed_cost(v2) + arc(tv, p.vehicle(v2).start, p.vehicle(v2).end);
    Score d;
    d.cost = cost;
    d.routes = used_change(n1, new1, n2, new2);
    if (!better(d, best, objective)) continue;
    const RouteSegment r1 = m.merge(v1, t1.prefix()[head1], t2.suffix()[head2 + 1]);
    if (!acceptable(m, v1, r1)) continue;
    const RouteSegment r2 = m.merge(v2, t2.prefix()[head2], t1.suffix()[head1 + 1]);
    if (!acceptable(m, v2, r2)) continue;
    if (!tail_keeps_pairs(s, v1, head1) || !tail_keeps_pairs(s, v2, head2)) continue;
    if (!settle(s, v1, r1, v2, r2, objective, d, best)) continue;
    best = delta_ = d;
    found_ = true;
    v1_ = v1;
    v2_ = v2;
    u_first_ = u_first;
  }
}

void InterTwoOptStar::apply(WorkingSolution& s) const {
  const std::size_t head1 = u_first_ ? s.position_of(u_) + 1 : s.position_of(u_);
  const std::size_t head2 = u_first_ ? s.position_of(w_) : s.position_of(w_) + 1;
  const auto& t1 = s.tour(v1_).tasks;
  const auto& t2 = s.tour(v2_).tasks;
  std::vector<std::size_t> r1(t1.begin(), t1.begin() + static_cast<std::ptrdiff_t>(head1));
  r1.insert(r1.end(), t2.begin() + static_cast<std::ptrdiff_t>(head2), t2.end());
  std::vector<std::size_t> r2(t2.begin(), t2.begin() + static_cast<std::ptrdiff_t>(head2));
  r2.insert(r2.end(), t1.begin() + static_cast<std::ptrdiff_t>(head1), t1.end());
  s.set_tasks(v1_, std::move(r1));
  s.set_tasks(v2_, std::move(r2));
}

}  // namespace routesolve::search
