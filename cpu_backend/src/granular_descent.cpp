#include "granular_descent.hpp"

#include <algorithm>
#include <array>
#include <utility>
#include <optional>

namespace routesolve::cpu::detail {

namespace {

/// Arc cost, 0 when an end is missing (open routes), kUnreachable when there is no path.
inline Cost arc(const TravelView& tv, std::size_t a, std::size_t b) {
  if (a == kNone || b == kNone) return 0;
  const Cost c = tv.cost(a, b);
  return c >= kUnreachable ? kUnreachable : c;
}

/// Location of the node before tasks[i] (the start for i = 0) and after tasks[i] (the end).
inline std::size_t before_location(const WorkingSolution& s, std::size_t v, std::size_t i) {
  return i == 0 ? s.problem().vehicle(v).start : s.problem().task(s.tour(v).tasks[i - 1]).location;
}
inline std::size_t after_location(const WorkingSolution& s, std::size_t v, std::size_t i) {
  const auto& tasks = s.tour(v).tasks;
  return i + 1 >= tasks.size() ? s.problem().vehicle(v).end : s.problem().task(tasks[i + 1]).location;
}

/// Cost of a whole route segment on vehicle v as WorkingSolution counts it.
inline Cost tour_cost(const WorkingSolution& s, std::size_t v, const RouteSegment& route) {
  return route.tasks == 0 ? 0 : route.cost + s.problem().fixed_cost(v);
}

/// Feasible, or an empty tour (which costs nothing and is never scheduled).
inline bool acceptable(const SegmentModel& m, std::size_t v, const RouteSegment& route) {
  return route.tasks == 0 || m.feasible(v, route);
}

/// Prices a screened move exactly from its two new tours; keeps it in `best` when it improves
/// and beats it.
bool settle(const WorkingSolution& s, std::size_t v1, const RouteSegment& r1, std::size_t v2,
            const RouteSegment& r2, Objective objective, ExchangeMove& move, ExchangeMove& best) {
  move.delta.cost = tour_cost(s, v1, r1) + tour_cost(s, v2, r2) - s.tour(v1).cost - s.tour(v2).cost;
  if (!improving(move, objective) || !better_move(move, best, objective)) return false;
  best = move;
  return true;
}

inline bool is_job(const WorkingSolution& s, std::size_t t) { return s.problem().task(t).sibling == kNone; }

inline long used_change(std::size_t before1, std::size_t after1, std::size_t before2, std::size_t after2) {
  auto used = [](std::size_t n) { return n > 0 ? 1L : 0L; };
  return used(after1) - used(before1) + used(after2) - used(before2);
}

/// Tasks of tour v from position `from` on keep their shipment partners in the same tail.
bool tail_keeps_pairs(const WorkingSolution& s, std::size_t v, std::size_t from) {
  const auto& tasks = s.tour(v).tasks;
  for (std::size_t k = from; k < tasks.size(); ++k) {
    const std::size_t sibling = s.problem().task(tasks[k]).sibling;
    if (sibling != kNone && s.position_of(sibling) < from) return false;
  }
  return true;
}

}  // namespace

bool improving(const ExchangeMove& move, Objective objective) {
  return move.found() && improves(move.delta, objective);
}

bool better_move(const ExchangeMove& a, const ExchangeMove& b, Objective objective) {
  if (!a.found()) return false;
  if (!b.found()) return true;
  return better(a.delta, b.delta, objective);
}

// ---- relocate / or-opt -------------------------------------------------------------------------

bool InterRelocate::evaluate(const WorkingSolution& s, std::size_t u, std::size_t w, std::size_t max_length,
                             Objective objective, ExchangeMove& best) {
  if (!s.assigned(u) || !s.assigned(w)) return false;
  const std::size_t v1 = s.route_of(u), v2 = s.route_of(w);
  if (v1 == v2) return false;
  const Problem& p = s.problem();
  const SegmentModel& m = s.model();
  const Tour& t1 = s.tour(v1);
  const Tour& t2 = s.tour(v2);
  const TravelView& tv1 = m.travel(v1);
  const TravelView& tv2 = m.travel(v2);
  const std::size_t n1 = t1.size(), n2 = t2.size(), i = s.position_of(u), j = s.position_of(w);
  bool found = false;
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
        ExchangeMove move;
        move.kind = ExchangeMove::Kind::Relocate;
        move.u = u;
        move.w = w;
        move.length = length;
        move.reversed = reversed;
        move.after = after;
        move.delta.cost = in + (reversed ? backward2 : forward2) + out - gap - removed;
        move.delta.routes = empties ? -1 : 0;
        if (!improving(move, objective) || !better_move(move, best, objective)) continue;
        const RouteSegment& chain = reversed ? chain_bwd : chain_fwd;
        const RouteSegment r2 = m.merge(v2, m.merge(v2, t2.prefix[k], chain), t2.suffix[k + 1]);
        if (!m.feasible(v2, r2)) continue;
        if (!rest) rest = m.merge(v1, t1.prefix[i], t1.suffix[i + length + 1]);
        if (!acceptable(m, v1, *rest)) continue;
        found = settle(s, v1, *rest, v2, r2, objective, move, best) || found;
      }
    }
  }
  return found;
}

void InterRelocate::apply(WorkingSolution& s, const ExchangeMove& move) {
  const std::size_t v1 = s.route_of(move.u), v2 = s.route_of(move.w);
  const std::size_t i = s.position_of(move.u), j = s.position_of(move.w);
  std::vector<std::size_t> t1 = s.tour(v1).tasks, t2 = s.tour(v2).tasks;
  const auto first = t1.begin() + static_cast<std::ptrdiff_t>(i);
  std::vector<std::size_t> chain(first, first + static_cast<std::ptrdiff_t>(move.length));
  if (move.reversed) std::reverse(chain.begin(), chain.end());
  t1.erase(first, first + static_cast<std::ptrdiff_t>(move.length));
  t2.insert(t2.begin() + static_cast<std::ptrdiff_t>(move.after ? j + 1 : j), chain.begin(), chain.end());
  s.set_tasks(v1, std::move(t1));
  s.set_tasks(v2, std::move(t2));
}

// ---- swap --------------------------------------------------------------------------------------

bool InterSwap::evaluate(const WorkingSolution& s, std::size_t u, std::size_t w, Objective objective,
                         ExchangeMove& best) {
  if (!s.assigned(u) || !s.assigned(w) || !is_job(s, u) || !is_job(s, w)) return false;
  const std::size_t v1 = s.route_of(u), v2 = s.route_of(w);
  if (v1 == v2) return false;
  const Problem& p = s.problem();
  if (!p.compatible(v1, w) || !p.compatible(v2, u)) return false;
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
  if (added1 >= kUnreachable || added2 >= kUnreachable) return false;
  ExchangeMove move;
  move.kind = ExchangeMove::Kind::Swap;
  move.u = u;
  move.w = w;
  move.delta.cost = added1 + added2 - arc(tv1, p1, lu) - arc(tv1, lu, s1) - arc(tv2, p2, lw) - arc(tv2, lw, s2);
  if (!improving(move, objective) || !better_move(move, best, objective)) return false;
  const RouteSegment r1 = m.merge(v1, m.merge(v1, t1.prefix[i], m.task(w)), t1.suffix[i + 2]);
  if (!m.feasible(v1, r1)) return false;
  const RouteSegment r2 = m.merge(v2, m.merge(v2, t2.prefix[j], m.task(u)), t2.suffix[j + 2]);
  if (!m.feasible(v2, r2)) return false;
  return settle(s, v1, r1, v2, r2, objective, move, best);
}

void InterSwap::apply(WorkingSolution& s, const ExchangeMove& move) {
  const std::size_t v1 = s.route_of(move.u), v2 = s.route_of(move.w);
  std::vector<std::size_t> t1 = s.tour(v1).tasks, t2 = s.tour(v2).tasks;
  t1[s.position_of(move.u)] = move.w;
  t2[s.position_of(move.w)] = move.u;
  s.set_tasks(v1, std::move(t1));
  s.set_tasks(v2, std::move(t2));
}

// ---- 2-opt* ------------------------------------------------------------------------------------

bool InterTwoOptStar::evaluate(const WorkingSolution& s, const VehicleClasses& classes, std::size_t u,
                               std::size_t w, Objective objective, ExchangeMove& best) {
  if (!s.assigned(u) || !s.assigned(w)) return false;
  const std::size_t v1 = s.route_of(u), v2 = s.route_of(w);
  // Tails change vehicles: their segments (start, end, travel data) must mean the same there.
  if (v1 == v2 || classes.class_of(v1) != classes.class_of(v2)) return false;
  const Problem& p = s.problem();
  const SegmentModel& m = s.model();
  const Tour& t1 = s.tour(v1);
  const Tour& t2 = s.tour(v2);
  const TravelView& tv = m.travel(v1);
  const std::size_t n1 = t1.size(), n2 = t2.size(), i = s.position_of(u), j = s.position_of(w);
  const std::size_t lu = p.task(u).location, lw = p.task(w).location;
  bool found = false;
  for (const bool u_first : {true, false}) {
    // u_first: tour 1 = ... u | w ... (tail of 2 from j), tour 2 = ... pred(w) | succ(u) ...
    // else:    tour 2 = ... w | u ... (tail of 1 from i), tour 1 = ... pred(u) | succ(w) ...
    const std::size_t head1 = u_first ? i + 1 : i;  // tasks of tour 1 that stay
    const std::size_t head2 = u_first ? j : j + 1;  // tasks of tour 2 that stay
    Cost delta;
    if (u_first) {
      const std::size_t s1 = after_location(s, v1, i), p2 = before_location(s, v2, j);
      const Cost added = arc(tv, lu, lw) + arc(tv, p2, s1);
      if (added >= kUnreachable) continue;
      delta = added - arc(tv, lu, s1) - arc(tv, p2, lw);
    } else {
      const std::size_t p1 = before_location(s, v1, i), s2 = after_location(s, v2, j);
      const Cost added = arc(tv, lw, lu) + arc(tv, p1, s2);
      if (added >= kUnreachable) continue;
      delta = added - arc(tv, p1, lu) - arc(tv, lw, s2);
    }
    const std::size_t new1 = head1 + (n2 - head2), new2 = head2 + (n1 - head1);
    const Cost fixed1 = p.fixed_cost(v1), fixed2 = p.fixed_cost(v2);
    // An emptied tour also loses its fixed cost and its start -> end arc.
    if (new1 == 0) delta -= fixed1 + arc(tv, p.vehicle(v1).start, p.vehicle(v1).end);
    if (new2 == 0) delta -= fixed2 + arc(tv, p.vehicle(v2).start, p.vehicle(v2).end);
    ExchangeMove move;
    move.kind = ExchangeMove::Kind::TwoOptStar;
    move.u = u;
    move.w = w;
    move.u_first = u_first;
    move.delta.cost = delta;
    move.delta.routes = used_change(n1, new1, n2, new2);
    if (!improving(move, objective) || !better_move(move, best, objective)) continue;
    const RouteSegment r1 = m.merge(v1, t1.prefix[head1], t2.suffix[head2 + 1]);
    if (!acceptable(m, v1, r1)) continue;
    const RouteSegment r2 = m.merge(v2, t2.prefix[head2], t1.suffix[head1 + 1]);
    if (!acceptable(m, v2, r2)) continue;
    if (!tail_keeps_pairs(s, v1, head1) || !tail_keeps_pairs(s, v2, head2)) continue;
    found = settle(s, v1, r1, v2, r2, objective, move, best) || found;
  }
  return found;
}

void InterTwoOptStar::apply(WorkingSolution& s, const ExchangeMove& move) {
  const std::size_t v1 = s.route_of(move.u), v2 = s.route_of(move.w);
  const std::size_t head1 = move.u_first ? s.position_of(move.u) + 1 : s.position_of(move.u);
  const std::size_t head2 = move.u_first ? s.position_of(move.w) : s.position_of(move.w) + 1;
  const auto& t1 = s.tour(v1).tasks;
  const auto& t2 = s.tour(v2).tasks;
  std::vector<std::size_t> r1(t1.begin(), t1.begin() + static_cast<std::ptrdiff_t>(head1));
  r1.insert(r1.end(), t2.begin() + static_cast<std::ptrdiff_t>(head2), t2.end());
  std::vector<std::size_t> r2(t2.begin(), t2.begin() + static_cast<std::ptrdiff_t>(head2));
  r2.insert(r2.end(), t1.begin() + static_cast<std::ptrdiff_t>(head1), t1.end());
  s.set_tasks(v1, std::move(r1));
  s.set_tasks(v2, std::move(r2));
}

// ---- SWAP* -------------------------------------------------------------------------------------

namespace {

/// Whole-tour segment of a task sequence on vehicle v.
RouteSegment whole_tour(const SegmentModel& m, std::size_t v, const std::vector<std::size_t>& tasks) {
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
      gain[i] = arc(tv, loc[i], loc[i + 1]) + arc(tv, loc[i + 1], loc[i + 2]) - arc(tv, loc[i], loc[i + 2]);
  }
  [[nodiscard]] std::size_t size() const { return loc.size() - 2; }
};

/// Cheapest insertion of location x into side b's tour without its task at position j:
/// returns (cost, position or kNone for j's place).
std::pair<Cost, std::size_t> insert_without(const TravelView& tv, const SwapSide& b, const Top3& top,
                                            std::size_t x, std::size_t j) {
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

std::vector<std::size_t> SwapStar::swapped(const std::vector<std::size_t>& tasks, std::size_t u_position,
                                           std::size_t w, std::size_t to) {
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

bool SwapStar::evaluate(const WorkingSolution& s, std::size_t v1, std::size_t v2, Objective objective,
                        ExchangeMove& best) {
  if (v1 == v2 || s.tour(v1).empty() || s.tour(v2).empty()) return false;
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
        out[i].offer(arc(tv, into.loc[k], x) + arc(tv, x, into.loc[k + 1]) - arc(tv, into.loc[k], into.loc[k + 1]), k);
    }
    return out;
  };
  const std::vector<Top3> a_in_b = tops(tv2, a, b), b_in_a = tops(tv1, b, a);
  // Load totals: what is on board at the start (job deliveries) and at the end, per dimension;
  // both must fit after the exchange (a necessary condition, cheap to screen with).
  const std::size_t dims = m.dims();
  const RouteSegment& whole1 = t1.prefix[n1 + 1];
  const RouteSegment& whole2 = t2.prefix[n2 + 1];
  auto loads_fit = [&](const RouteSegment& route, std::size_t v, std::size_t out, std::size_t in) {
    const RouteSegment& o = m.task(out);
    const RouteSegment& i = m.task(in);
    for (std::size_t d = 0; d < dims; ++d) {
      const std::int64_t start = route.load.carried[d] - o.load.carried[d] + i.load.carried[d];
      const std::int64_t end = start + route.load.net[d] - o.load.net[d] + i.load.net[d];
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
    ExchangeMove move;
    move.kind = ExchangeMove::Kind::SwapStar;
    move.u = t1.tasks[cand.i];
    move.w = t2.tasks[cand.j];
    move.u_to = cand.u_to;
    move.w_to = cand.w_to;
    move.delta.cost = cand.delta;
    if (!better_move(move, best, objective)) break;  // sorted: the rest are no better
    const RouteSegment r1 = whole_tour(m, v1, swapped(t1.tasks, cand.i, move.w, cand.w_to));
    if (!m.feasible(v1, r1)) continue;
    const RouteSegment r2 = whole_tour(m, v2, swapped(t2.tasks, cand.j, move.u, cand.u_to));
    if (!m.feasible(v2, r2)) continue;
    if (settle(s, v1, r1, v2, r2, objective, move, best)) return true;
  }
  return false;
}

void SwapStar::apply(WorkingSolution& s, const ExchangeMove& move) {
  const std::size_t v1 = s.route_of(move.u), v2 = s.route_of(move.w);
  std::vector<std::size_t> r1 = swapped(s.tour(v1).tasks, s.position_of(move.u), move.w, move.w_to);
  std::vector<std::size_t> r2 = swapped(s.tour(v2).tasks, s.position_of(move.w), move.u, move.u_to);
  s.set_tasks(v1, std::move(r1));
  s.set_tasks(v2, std::move(r2));
}

void apply_move(WorkingSolution& s, const ExchangeMove& move) {
  switch (move.kind) {
    case ExchangeMove::Kind::SwapStar: SwapStar::apply(s, move); break;
    case ExchangeMove::Kind::Relocate: InterRelocate::apply(s, move); break;
    case ExchangeMove::Kind::Swap: InterSwap::apply(s, move); break;
    case ExchangeMove::Kind::TwoOptStar: InterTwoOptStar::apply(s, move); break;
    case ExchangeMove::Kind::None: break;
  }
}

// ---- descent -----------------------------------------------------------------------------------

bool GranularDescent::swap_star_pass(WorkingSolution& s, Objective objective, std::size_t& moves) const {
  // Pairs of tours holding granular neighbours, in a fixed order.
  const std::size_t nv = s.vehicle_count();
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  for (std::size_t v = 0; v < nv; ++v)
    for (std::size_t u : s.tour(v).tasks) {
      const auto& near = near_->of(u);
      for (std::size_t x = 0; x < std::min(parameters_.neighbours, near.size()); ++x) {
        const std::size_t w = near[x];
        if (!s.assigned(w) || s.route_of(w) == v) continue;
        pairs.emplace_back(std::min(v, s.route_of(w)), std::max(v, s.route_of(w)));
      }
    }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  bool improved = false;
  for (const auto& [v1, v2] : pairs) {
    ExchangeMove best;
    if (!SwapStar::evaluate(s, v1, v2, objective, best)) continue;
    SwapStar::apply(s, best);
    ++moves;
    improved = true;
  }
  return improved;
}

GranularDescent::GranularDescent(const Neighbours& near, const VehicleClasses& classes, Parameters parameters)
    : near_(&near), classes_(&classes), parameters_(parameters) {}

std::size_t GranularDescent::run(WorkingSolution& s, std::mt19937_64& rng, Objective objective) const {
  const std::size_t nt = s.problem().tasks().size();
  std::vector<std::size_t> order;
  order.reserve(nt);
  for (std::size_t t = 0; t < nt; ++t)
    if (s.assigned(t)) order.push_back(t);
  std::shuffle(order.begin(), order.end(), rng);
  std::size_t moves = 0;
  for (std::size_t pass = 0; pass < parameters_.max_passes; ++pass) {
    bool improved = false;
    for (std::size_t u : order) {
      const auto& near = near_->of(u);
      const std::size_t k = std::min(parameters_.neighbours, near.size());
      for (std::size_t x = 0; x < k; ++x) {
        const std::size_t w = near[x];
        if (!s.assigned(u) || !s.assigned(w) || s.route_of(u) == s.route_of(w)) continue;
        ExchangeMove best;
        InterRelocate::evaluate(s, u, w, parameters_.max_chain, objective, best);
        InterRelocate::evaluate(s, w, u, parameters_.max_chain, objective, best);
        InterSwap::evaluate(s, u, w, objective, best);
        InterTwoOptStar::evaluate(s, *classes_, u, w, objective, best);
        if (!best.found()) continue;
        apply_move(s, best);
        ++moves;
        improved = true;
      }
    }
    if (!improved && parameters_.swap_star) improved = swap_star_pass(s, objective, moves);
    if (!improved) break;
  }
  return moves;
}

}  // namespace routesolve::cpu::detail
