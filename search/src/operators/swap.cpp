#include "routesolve/search/operators/swap.hpp"

#include <algorithm>
#include <utility>

#include "routesolve/search/operators/inter_route.hpp"

namespace routesolve::search {

using namespace inter_route;

InterSwap::InterSwap(const WorkingSolution& s, std::size_t u, std::size_t w, Objective objective,
                     const Score& bound, std::size_t max_string)
    : u_(u), w_(w) {
  if (!s.assigned(u) || !s.assigned(w) || !is_job(s, u) || !is_job(s, w)) return;
  const std::size_t v1 = s.route_of(u), v2 = s.route_of(w);
  if (v1 == v2) return;
  const Problem& p = s.problem();
  const SegmentModel& m = s.model();
  const Tour& t1 = s.tour(v1);
  const Tour& t2 = s.tour(v2);
  const TravelView& tv1 = m.travel(v1);
  const TravelView& tv2 = m.travel(v2);
  const std::size_t i = s.position_of(u), j = s.position_of(w);
  constexpr std::size_t kMax = 8;  // the longest strings priced (the arrays below)
  max_string = std::min(max_string, kMax);
  // The longest strings of jobs from u and from w that may change tours.
  auto longest = [&](const Tour& from, std::size_t at, std::size_t to) {
    std::size_t n = 0;
    while (n < max_string && at + n < from.size() && is_job(s, from.tasks[at + n]) &&
           p.compatible(to, from.tasks[at + n]))
      ++n;
    return n;
  };
  const std::size_t na = longest(t1, i, v2), nb = longest(t2, j, v1);
  if (na == 0 || nb == 0) return;
  auto location = [&](const Tour& t, std::size_t k) { return p.task(t.tasks[k]).location; };
  // The cost of a string's inner arcs on a vehicle, by its length (index 0: length 1).
  auto inner = [&](const TravelView& tv, const Tour& t, std::size_t at, std::size_t n, Cost* out) {
    out[0] = 0;
    for (std::size_t k = 1; k < n; ++k)
      out[k] = out[k - 1] + arc(tv, location(t, at + k - 1), location(t, at + k));
  };
  Cost u_on_1[kMax], u_on_2[kMax], w_on_1[kMax], w_on_2[kMax];
  inner(tv1, t1, i, na, u_on_1);
  inner(tv2, t1, i, na, u_on_2);
  inner(tv1, t2, j, nb, w_on_1);
  inner(tv2, t2, j, nb, w_on_2);
  const std::size_t p1 = before_location(s, v1, i), p2 = before_location(s, v2, j);
  const std::size_t lu = location(t1, i), lw = location(t2, j);
  Score best = bound;
  for (std::size_t a = 1; a <= na; ++a) {
    const std::size_t lu_end = location(t1, i + a - 1), s1 = after_location(s, v1, i + a - 1);
    const Cost out1 = arc(tv1, p1, lu) + u_on_1[a - 1] + arc(tv1, lu_end, s1);
    for (std::size_t b = 1; b <= nb; ++b) {
      const std::size_t lw_end = location(t2, j + b - 1);
      const std::size_t s2 = after_location(s, v2, j + b - 1);
      const Cost added1 = arc(tv1, p1, lw) + w_on_1[b - 1] + arc(tv1, lw_end, s1);
      const Cost added2 = arc(tv2, p2, lu) + u_on_2[a - 1] + arc(tv2, lu_end, s2);
      if (added1 >= kUnreachable || added2 >= kUnreachable) continue;
      Score d;
      d.cost = added1 + added2 - out1 - (arc(tv2, p2, lw) + w_on_2[b - 1] + arc(tv2, lw_end, s2));
      if (!better(d, best, objective)) continue;
      RouteSegment in1 = m.task(t2.tasks[j]), in2 = m.task(t1.tasks[i]);
      for (std::size_t k = 1; k < b; ++k) in1 = m.merge(v1, in1, m.task(t2.tasks[j + k]));
      for (std::size_t k = 1; k < a; ++k) in2 = m.merge(v2, in2, m.task(t1.tasks[i + k]));
      const RouteSegment r1 = m.merge(v1, m.merge(v1, t1.prefix()[i], in1), t1.suffix()[i + a + 1]);
      if (!m.feasible(v1, r1)) continue;
      const RouteSegment r2 = m.merge(v2, m.merge(v2, t2.prefix()[j], in2), t2.suffix()[j + b + 1]);
      if (!m.feasible(v2, r2)) continue;
      if (!settle(s, v1, r1, v2, r2, objective, d, best)) continue;
      best = d;
      delta_ = d;
      found_ = true;
      v1_ = v1;
      v2_ = v2;
      a_ = a;
      b_ = b;
    }
  }
}

void InterSwap::apply(WorkingSolution& s) const {
  const std::vector<std::size_t>& t1 = s.tour(v1_).tasks;
  const std::vector<std::size_t>& t2 = s.tour(v2_).tasks;
  const auto i = static_cast<std::ptrdiff_t>(s.position_of(u_)),
             j = static_cast<std::ptrdiff_t>(s.position_of(w_));
  const auto a = static_cast<std::ptrdiff_t>(a_), b = static_cast<std::ptrdiff_t>(b_);
  std::vector<std::size_t> n1(t1.begin(), t1.begin() + i), n2(t2.begin(), t2.begin() + j);
  n1.insert(n1.end(), t2.begin() + j, t2.begin() + j + b);
  n1.insert(n1.end(), t1.begin() + i + a, t1.end());
  n2.insert(n2.end(), t1.begin() + i, t1.begin() + i + a);
  n2.insert(n2.end(), t2.begin() + j + b, t2.end());
  s.set_tasks(v1_, std::move(n1));
  s.set_tasks(v2_, std::move(n2));
}

}  // namespace routesolve::search
