// Insertion for the batched search: every option of a task priced with the same O(1)
// functions the move pricing uses (on a one-solution batch), the best few verified with
// schedule_route; the exact scheduler where the priced model does not reach; recreate's order.

#include <algorithm>
#include <random>
#include <tuple>
#include <vector>

#include "search.hpp"

namespace routesolve::cuda::search {

bool Search::insert(State& s, std::int32_t task, std::mt19937_64& rng, double blink) {
  const Task& t = p_.task(static_cast<std::size_t>(task));
  const bool pair = t.sibling != kNone;
  if (pair && t.type != TaskType::Pickup) return true;  // inserted with its pickup
  const auto sibling = pair ? static_cast<std::int32_t>(t.sibling) : -1;
  refresh(s);
  const ds::PrefixView& x = one_prefix_.view;
  std::uniform_real_distribution<double> coin(0.0, 1.0);

  struct Option {
    Cost delta;
    std::uint32_t v, q1, q2;
  };
  std::vector<Option> found;
  for (std::uint32_t v = 0; v < packed_.vehicles; ++v) {
    if (!p_.compatible(v, static_cast<std::size_t>(task))) continue;
    const std::uint32_t first = one_view_.route_offsets[v], last = one_view_.route_offsets[v + 1] - 1;
    const Cost old = ds::route_cost(view_, one_view_, x, v);
    for (std::uint32_t q1 = first; q1 < last; ++q1) {
      const std::uint32_t q2_end = pair ? last - 1 : q1;
      for (std::uint32_t q2 = q1; q2 <= q2_end; ++q2) {
        if (blink > 0.0 && coin(rng) < blink) continue;
        ds::RouteSpec spec;
        spec.veh = v;
        spec.prefix = q1;
        spec.suffix_route = v;
        if (!pair) {
          ds::add_piece(spec, ds::tasks_piece(task));
          spec.suffix = q1 + 1;
        } else if (q1 == q2) {
          ds::add_piece(spec, ds::tasks_piece(task, sibling));
          spec.suffix = q1 + 1;
        } else {
          ds::add_piece(spec, ds::tasks_piece(task));
          ds::add_piece(spec, ds::range_piece(ds::kPieceForward, q1 + 1, q2));
          ds::add_piece(spec, ds::tasks_piece(sibling));
          spec.suffix = q2 + 1;
        }
        // Routes with breaks priced without them (exact cost, necessary feasibility): the
        // schedule_route check below decides.
        const ds::Priced pr = ds::price_route(view_, one_view_, x, spec, ds::BreakRule::Relax);
        if (pr.feasible) found.push_back({pr.cost - old, v, q1 - first, q2 - first});
      }
    }
  }
  std::sort(found.begin(), found.end(), [](const Option& a, const Option& b) {
    return std::tie(a.delta, a.v, a.q1, a.q2) < std::tie(b.delta, b.v, b.q1, b.q2);
  });
  // The 4 best exactly priced options, and any options on routes with breaks among them (their
  // feasibility is only a necessary condition: up to 64 tries in all).
  std::size_t exact_tries = 0;
  for (std::size_t i = 0; i < found.size() && exact_tries < 4 && i < 64; ++i) {
    const Option& o = found[i];
    if ((view_.veh_flags[o.v] & ds::kVehicleBreaks) == 0u) ++exact_tries;
    std::vector<std::int32_t> seq = s.routes[o.v];
    if (pair) {
      seq.insert(seq.begin() + o.q2, sibling);
      seq.insert(seq.begin() + o.q1, task);
    } else {
      seq.insert(seq.begin() + o.q1, task);
    }
    bool ok = false;
    const Cost c = schedule_cost(o.v, seq, &ok);
    if (!ok) {
      ++stats_.rejected;
      continue;
    }
    if (c - s.cost[o.v] != o.delta) ++stats_.mismatched;
    s.routes[o.v] = std::move(seq);
    s.cost[o.v] = c;
    return true;
  }
  // Outside the priced model (breaks, later time windows): the exact scheduler, jobs only.
  if ((breaks_ || multi_window_) && !pair) return insert_exact(s, task);
  return false;
}

bool Search::insert_exact(State& s, std::int32_t task) {
  Cost best = 0;
  std::size_t best_v = kNone, best_q = 0;
  for (std::size_t v = 0; v < s.routes.size(); ++v) {
    if (!p_.compatible(v, static_cast<std::size_t>(task))) continue;
    for (std::size_t q = 0; q <= s.routes[v].size(); ++q) {
      std::vector<std::int32_t> seq = s.routes[v];
      seq.insert(seq.begin() + static_cast<std::ptrdiff_t>(q), task);
      bool ok = false;
      const Cost c = schedule_cost(v, seq, &ok);
      if (ok && (best_v == kNone || c - s.cost[v] < best)) {
        best = c - s.cost[v];
        best_v = v;
        best_q = q;
      }
    }
  }
  if (best_v == kNone) return false;
  s.routes[best_v].insert(s.routes[best_v].begin() + static_cast<std::ptrdiff_t>(best_q), task);
  s.cost[best_v] += best;
  return true;
}

void Search::recreate(State& s, std::vector<std::int32_t> tasks, std::mt19937_64& rng, double blink) {
  // Order: random, largest demand first, or farthest from the first vehicle's start.
  std::shuffle(tasks.begin(), tasks.end(), rng);
  const auto how = rng() % 3;
  const auto demand = [&](std::int32_t t) {
    const Task& k = p_.task(static_cast<std::size_t>(t));
    std::int64_t d = 0;
    for (std::size_t i = 0; i < k.delivery.size(); ++i) d += k.delivery[i] + k.pickup[i];
    return d;
  };
  if (how == 1) {
    std::stable_sort(tasks.begin(), tasks.end(), [&](auto a, auto b) { return demand(a) > demand(b); });
  } else if (how == 2 && p_.vehicle(0).start != kNone) {
    const TravelView tv = p_.travel(0);
    const std::size_t depot = p_.vehicle(0).start;
    std::stable_sort(tasks.begin(), tasks.end(), [&](auto a, auto b) {
      return tv.cost(depot, p_.task(static_cast<std::size_t>(a)).location) >
             tv.cost(depot, p_.task(static_cast<std::size_t>(b)).location);
    });
  }
  // Higher priorities first (stable: the order above among equal priorities), so that a task
  // that costs more priority when left out gets the capacity first.
  std::stable_sort(tasks.begin(), tasks.end(), [&](auto a, auto b) {
    return p_.task(static_cast<std::size_t>(a)).priority > p_.task(static_cast<std::size_t>(b)).priority;
  });
  for (const std::int32_t t : tasks) {
    const Task& k = p_.task(static_cast<std::size_t>(t));
    if (k.type == TaskType::Delivery) continue;  // goes with its pickup
    if (!insert(s, t, rng, blink)) {
      s.unassigned.push_back(t);
      if (k.sibling != kNone) s.unassigned.push_back(static_cast<std::int32_t>(k.sibling));
    }
  }
}

}  // namespace routesolve::cuda::search
