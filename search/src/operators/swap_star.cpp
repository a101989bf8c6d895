#include "routesolve/search/operators/swap_star.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "routesolve/search/operators/inter_route.hpp"

namespace routesolve::search {

using namespace inter_route;

namespace {

/// Whole-tour segment of a task sequence on vehicle v.
RouteSegment whole_tour(const SegmentModel& m, std::size_t v,
                        const std::vector<std::size_t>& tasks) {
  RouteSegment r = m.start(v);
  for (std::size_t t : tasks) r = m.merge(v, r, m.task(t));
  return m.merge(v, r, m.end(v));
}

/// The three cheapest insertion positions of a task into a tour (cost, position).
struct Top3 {
  std::array<Cost, 3> cost{kUnreachable, kUnreachable, kUnreachable};
  std::array<std::size_t, 3> at{kNone, kNone, kNone};
  void offer(Cost c, std::size_t k) {
    if (c >= cost[2]) return;
    std::size_t slot = 2;
    while (slot > 0 && c < cost[slot - 1]) {
      cost[slot] = cost[slot - 1];
      at[slot] = at[slot - 1];
      --slot;
    }
    cost[slot] = c;
    at[slot] = k;
  }
};

/// One side of a SWAP*: the tour's locations and the removal gain of each of its tasks.
struct SwapSide {
  std::size_t v = kNone;
  std::vector<std::size_t> loc;  // node k: 0 = start, 1..n tasks, n + 1 = end (kNone if missing)
  std::vector<Cost> gain;        // removal gain of tasks[i]

  SwapSide(const WorkingSolution& s, std::size_t vehicle) : v(vehicle) {
    const Problem& p = s.problem();
    const auto& tasks = s.tour(v).tasks;
    const TravelView& tv = s.model().travel(v);
    const std::size_t n = tasks.size();
    loc.resize(n + 2);
    loc[0] = p.vehicle(v).start;
    for (std::size_t i = 0; i < n; ++i) loc[i + 1] = p.task(tasks[i]).location;
    loc[n + 1] = p.vehicle(v).end;
    gain.resize(n);
    for (std::size_t i = 0; i < n; ++i)
      gain[i] = arc(tv, loc[i], loc[i + 1]) + arc(tv, loc[i + 1], loc[i + 2]) -
                arc(tv, loc[i], loc[i + 2]);
  }
  [[nodiscard]] std::size_t size() const { return loc.size() - 2; }
};

/// Cheapest insertion of location x into side b's tour without its task at position j:
/// returns (cost, position or kNone for j's place).
std::pair<Cost, std::size_t> insert_without(const TravelView& tv, const SwapSide& b,
                                            const Top3& top, std::size_t x, std::size_t j) {
  // In j's place: between its predecessor and successor.
  Cost best = arc(tv, b.loc[j], x) + arc(tv, x, b.loc[j + 2]) - arc(tv, b.loc[j], b.loc[j + 2]);
  std::size_t at = kNone;
  for (std::size_t r = 0; r < 3; ++r) {
    if (top.at[r] == kNone) break;
    if (top.at[r] == j || top.at[r] == j + 1) continue;  // an arc that touches the leaving task
    if (top.cost[r] < best) {
      best = top.cost[r];
      at = top.at[r];
    }
    break;  // the first non-adjacent one is the cheapest
  }
  return {best, at};
}

}  // namespace

std::vector<std::size_t> SwapStar::swapped(const std::vector<std::size_t>& tasks,
                                           std::size_t u_position, std::size_t w, std::size_t to) {
  std::vector<std::size_t> out;
  out.reserve(tasks.size());
  if (to == kNone) {
    out = tasks;
    out[u_position] = w;
    return out;
  }
  for (std::size_t k = 0; k <= tasks.size(); ++k) {
    if (k == to) out.push_back(w);
    if (k < tasks.size() && k != u_position) out.push_back(tasks[k]);
  }
  return out;
}

SwapStar::SwapStar(const WorkingSolution& s, std::size_t v1, std::size_t v2, Objective objective,
                   const Score& bound)
    : v1_(v1), v2_(v2) {
  if (v1 == v2 || s.tour(v1).empty() || s.tour(v2).empty()) return;
  const Problem& p = s.problem();
  const SegmentModel& m = s.model();
  const Tour& t1 = s.tour(v1);
  const Tour& t2 = s.tour(v2);
  const TravelView& tv1 = m.travel(v1);
  const TravelView& tv2 = m.travel(v2);
  const SwapSide a(s, v1), b(s, v2);
  const std::size_t n1 = a.size(), n2 = b.size();
  // Top-3 positions of every task of one tour in the other.
  auto tops = [](const TravelView& tv, const SwapSide& from, const SwapSide& into) {
    std::vector<Top3> out(from.size());
    for (std::size_t i = 0; i < from.size(); ++i) {
      const std::size_t x = from.loc[i + 1];
      for (std::size_t k = 0; k <= into.size(); ++k)
        out[i].offer(arc(tv, into.loc[k], x) + arc(tv, x, into.loc[k + 1]) -
                         arc(tv, into.loc[k], into.loc[k + 1]),
                     k);
    }
    return out;
  };
  const std::vector<Top3> a_in_b = tops(tv2, a, b), b_in_a = tops(tv1, b, a);
  // Load totals: what is on board at the start (job deliveries) and at the end, per dimension;
  // both must fit after the exchange (a necessary condition, cheap to screen with).
  const std::size_t dims = m.dims();
  const RouteSegment& whole1 = t1.prefix()[n1 + 1];
  const RouteSegment& whole2 = t2.prefix()[n2 + 1];
  auto loads_fit = [&](const RouteSegment& route, std::size_t v, std::size_t out, std::size_t in) {
    const RouteSegment& o = m.task(out);
    const RouteSegment& i = m.task(in);
    for (std::size_t d = 0; d < dims; ++d) {
      const std::int64_t start =
          route.load.head[d].carried - o.load.head[d].carried + i.load.head[d].carried;
      const std::int64_t end =
          start + route.load.head[d].net - o.load.head[d].net + i.load.head[d].net;
      const std::int64_t cap = p.vehicle(v).capacity[d];
      if (start > cap || end > cap) return false;
    }
    return true;
  };
  struct Candidate {
    Cost delta;
    std::size_t i, j, u_to, w_to;
  };
  std::vector<Candidate> candidates;
  for (std::size_t i = 0; i < n1; ++i) {
    const std::size_t u = t1.tasks[i];
    if (!is_job(s, u) || !p.compatible(v2, u)) continue;
    for (std::size_t j = 0; j < n2; ++j) {
      const std::size_t w = t2.tasks[j];
      if (!is_job(s, w) || !p.compatible(v1, w)) continue;
      const auto [cost_u, u_to] = insert_without(tv2, b, a_in_b[i], a.loc[i + 1], j);
      const auto [cost_w, w_to] = insert_without(tv1, a, b_in_a[j], b.loc[j + 1], i);
      if (cost_u >= kUnreachable || cost_w >= kUnreachable) continue;
      const Cost delta = cost_u + cost_w - a.gain[i] - b.gain[j];
      if (delta >= 0) continue;
      if (!loads_fit(whole1, v1, u, w) || !loads_fit(whole2, v2, w, u)) continue;
      candidates.push_back({delta, i, j, u_to, w_to});
    }
  }
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& x, const Candidate& y) {
    return x.delta != y.delta ? x.delta < y.delta : (x.i != y.i ? x.i < y.i : x.j < y.j);
  });
  // Confirm the most promising ones on the whole tours (time windows, limits, exact load).
  constexpr std::size_t kConfirm = 4;
  for (std::size_t c = 0; c < std::min(kConfirm, candidates.size()); ++c) {
    const Candidate& cand = candidates[c];
    const std::size_t u = t1.tasks[cand.i], w = t2.tasks[cand.j];
    Score d;
    d.cost = cand.delta;
    if (!better(d, bound, objective)) break;  // sorted: the rest are no better
    const RouteSegment r1 = whole_tour(m, v1, swapped(t1.tasks, cand.i, w, cand.w_to));
    if (!m.feasible(v1, r1)) continue;
    const RouteSegment r2 = whole_tour(m, v2, swapped(t2.tasks, cand.j, u, cand.u_to));
    if (!m.feasible(v2, r2)) continue;
    if (!settle(s, v1, r1, v2, r2, objective, d, bound)) continue;
    delta_ = d;
    found_ = true;
    u_ = u;
    w_ = w;
    u_to_ = cand.u_to;
    w_to_ = cand.w_to;
    return;
  }
}

void SwapStar::apply(WorkingSolution& s) const {
  std::vector<std::size_t> r1 = swapped(s.tour(v1_).tasks, s.position_of(u_), w_, w_to_);
  std::vector<std::size_t> r2 = swapped(s.tour(v2_).tasks, s.position_of(w_), u_, u_to_);
  s.set_tasks(v1_, std::move(r1));
  s.set_tasks(v2_, std::move(r2));
}

}  // namespace routesolve::search
