#include "routesolve/search/operators/relocate.hpp"

#include <algorithm>
#include <optional>

#include "routesolve/search/insertion.hpp"
#include "routesolve/search/operators/inter_route.hpp"

namespace routesolve::search {

using namespace inter_route;

InterRelocate::InterRelocate(const WorkingSolution& s, std::size_t u, std::size_t w,
                             std::size_t max_length, Objective objective, const Score& bound)
    : u_(u), w_(w) {
  if (!s.assigned(u) || !s.assigned(w)) return;
  const std::size_t v1 = s.route_of(u), v2 = s.route_of(w);
  if (v1 == v2) return;
  const Problem& p = s.problem();
  const SegmentModel& m = s.model();
  const Tour& t1 = s.tour(v1);
  const Tour& t2 = s.tour(v2);
  const TravelView& tv1 = m.travel(v1);
  const TravelView& tv2 = m.travel(v2);
  const std::size_t n1 = t1.size(), n2 = t2.size(), i = s.position_of(u), j = s.position_of(w);
  Score best = bound;
  Cost internal1 = 0, forward2 = 0, backward2 = 0;  // arc costs inside the chain
  // What does not depend on the chain's length is read once: the arc into u from its
  // predecessor, and for the two places next to w (after it: before node k + 1 = tasks[k] with
  // k = j + 1; before it: k = j) the arc the chain replaces and the arcs into and out of u there.
  // The chain's segments are merged only for a length whose cost passes the screen.
  const std::size_t lf = p.task(u).location;
  const std::size_t pred = before_location(s, v1, i);
  const Cost into_u = arc(tv1, pred, lf);
  struct Place {
    std::size_t k, a, b;
    Cost gap, in_u, out_u;
  };
  Place places[2];
  for (const bool after : {true, false}) {
    Place& q = places[after ? 0 : 1];
    q.k = after ? j + 1 : j;  // the chain goes before node k + 1 (tasks[k])
    q.a = q.k == 0 ? p.vehicle(v2).start : p.task(t2.tasks[q.k - 1]).location;
    q.b = q.k == n2 ? p.vehicle(v2).end : p.task(t2.tasks[q.k]).location;
    q.gap = arc(tv2, q.a, q.b);
    q.in_u = arc(tv2, q.a, lf);
    q.out_u = arc(tv2, lf, q.b);
  }
  RouteSegment chain_fwd = m.task(u), chain_bwd = m.task(u);
  std::size_t merged = 1;  // the chain segments cover tasks[i .. i + merged - 1]
  for (std::size_t length = 1; length <= max_length && i + length <= n1; ++length) {
    const std::size_t last = t1.tasks[i + length - 1];
    if (!is_job(s, last) || !p.compatible(v2, last)) break;
    const std::size_t ll = p.task(last).location;
    if (length > 1) {
      const std::size_t prev = p.task(t1.tasks[i + length - 2]).location;
      internal1 += arc(tv1, prev, ll);
      forward2 += arc(tv2, prev, ll);
      backward2 += arc(tv2, ll, prev);
      if (internal1 >= kUnreachable || forward2 >= kUnreachable || backward2 >= kUnreachable) break;
    }
    // Tour 1 without the chain.
    const std::size_t succ = after_location(s, v1, i + length - 1);
    const bool empties = length == n1;
    const Cost removed =
        empties ? t1.cost : into_u + internal1 + arc(tv1, ll, succ) - arc(tv1, pred, succ);
    if (removed >= kUnreachable) continue;
    std::optional<RouteSegment> rest;
    for (const bool after : {true, false}) {
      const Place& q = places[after ? 0 : 1];
      for (const bool reversed : {false, true}) {
        if (reversed && length == 1) continue;
        const Cost in = reversed ? arc(tv2, q.a, ll) : q.in_u,
                   out = reversed ? q.out_u : arc(tv2, ll, q.b);
        if (in >= kUnreachable || out >= kUnreachable) continue;
        Score d;
        d.cost = in + (reversed ? backward2 : forward2) + out - q.gap - removed;
        d.routes = empties ? -1 : 0;
        if (!better(d, best, objective)) continue;
        for (; merged < length; ++merged) {
          const RouteSegment& next = m.task(t1.tasks[i + merged]);
          chain_fwd = m.merge(v2, chain_fwd, next);
          chain_bwd = m.merge(v2, next, chain_bwd);
        }
        const RouteSegment& chain = reversed ? chain_bwd : chain_fwd;
        const RouteSegment r2 =
            m.merge(v2, m.merge(v2, t2.prefix()[q.k], chain), t2.suffix()[q.k + 1]);
        if (!m.feasible(v2, r2)) continue;
        if (!rest) rest = m.merge(v1, t1.prefix()[i], t1.suffix()[i + length + 1]);
        if (!acceptable(m, v1, *rest)) continue;
        if (!settle(s, v1, *rest, v2, r2, objective, d, best)) continue;
        best = delta_ = d;
        found_ = true;
        v1_ = v1;
        v2_ = v2;
        length_ = length;
        reversed_ = reversed;
        after_ = after;
      }
    }
  }
}

void InterRelocate::apply(WorkingSolution& s) const {
  const std::size_t i = s.position_of(u_), j = s.position_of(w_);
  std::vector<std::size_t> t1 = s.tour(v1_).tasks, t2 = s.tour(v2_).tasks;
  const auto first = t1.begin() + static_cast<std::ptrdiff_t>(i);
  std::vector<std::size_t> chain(first, first + static_cast<std::ptrdiff_t>(length_));
  if (reversed_) std::reverse(chain.begin(), chain.end());
  t1.erase(first, first + static_cast<std::ptrdiff_t>(length_));
  t2.insert(t2.begin() + static_cast<std::ptrdiff_t>(after_ ? j + 1 : j), chain.begin(),
            chain.end());
  s.set_tasks(v1_, std::move(t1));
  s.set_tasks(v2_, std::move(t2));
}

}  // namespace routesolve::search
