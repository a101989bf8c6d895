#include "relocate.hpp"

#include <algorithm>
#include <optional>

#include "inter_route.hpp"

namespace routesolve::cpu::detail {

using namespace inter_route;

InterRelocate::InterRelocate(const WorkingSolution& s, std::size_t u, std::size_t w, std::size_t max_length,
                             Objective objective, const Score& bound)
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
  RouteSegment chain_fwd, chain_bwd;
  for (std::size_t length = 1; length <= max_length && i + length <= n1; ++length) {
    const std::size_t last = t1.tasks[i + length - 1];
    if (!is_job(s, last) || !p.compatible(v2, last)) break;
    const std::size_t lf = p.task(u).location, ll = p.task(last).location;
    if (length > 1) {
      const std::size_t prev = p.task(t1.tasks[i + length - 2]).location;
      internal1 += arc(tv1, prev, ll);
      forward2 += arc(tv2, prev, ll);
      backward2 += arc(tv2, ll, prev);
      if (internal1 >= kUnreachable || forward2 >= kUnreachable || backward2 >= kUnreachable) break;
      chain_fwd = m.merge(v2, chain_fwd, m.task(last));
      chain_bwd = m.merge(v2, m.task(last), chain_bwd);
    } else {
      chain_fwd = chain_bwd = m.task(u);
    }
    // Tour 1 without the chain.
    const std::size_t pred = before_location(s, v1, i), succ = after_location(s, v1, i + length - 1);
    const bool empties = length == n1;
    const Cost removed = empties ? t1.cost
                                 : arc(tv1, pred, lf) + internal1 + arc(tv1, ll, succ) - arc(tv1, pred, succ);
    if (removed >= kUnreachable) continue;
    std::optional<RouteSegment> rest;
    for (const bool after : {true, false}) {
      const std::size_t k = after ? j + 1 : j;  // the chain goes before node k + 1 (tasks[k])
      const std::size_t a = k == 0 ? p.vehicle(v2).start : p.task(t2.tasks[k - 1]).location;
      const std::size_t b = k == n2 ? p.vehicle(v2).end : p.task(t2.tasks[k]).location;
      const Cost gap = arc(tv2, a, b);
      for (const bool reversed : {false, true}) {
        if (reversed && length == 1) continue;
        const std::size_t f = reversed ? ll : lf, l = reversed ? lf : ll;
        const Cost in = arc(tv2, a, f), out = arc(tv2, l, b);
        if (in >= kUnreachable || out >= kUnreachable) continue;
        Score d;
        d.cost = in + (reversed ? backward2 : forward2) + out - gap - removed;
        d.routes = empties ? -1 : 0;
        if (!better(d, best, objective)) continue;
        const RouteSegment& chain = reversed ? chain_bwd : chain_fwd;
        const RouteSegment r2 = m.merge(v2, m.merge(v2, t2.prefix[k], chain), t2.suffix[k + 1]);
        if (!m.feasible(v2, r2)) continue;
        if (!rest) rest = m.merge(v1, t1.prefix[i], t1.suffix[i + length + 1]);
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
  t2.insert(t2.begin() + static_cast<std::ptrdiff_t>(after_ ? j + 1 : j), chain.begin(), chain.end());
  s.set_tasks(v1_, std::move(t1));
  s.set_tasks(v2_, std::move(t2));
}

}  // namespace routesolve::cpu::detail
