// The batched search (see batched_search.hpp). Host work: insertion (priced with the same
// O(1) functors on a one-solution batch), ruin, move selection and verification.

#include "batched_search.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "routesolve/error.hpp"

namespace routesolve::cuda::search {
namespace {

namespace ds = detail::search;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// One solution of the search: the task order per vehicle, its verified costs, the unassigned.
struct State {
  RouteSet routes;
  std::vector<Cost> cost;  // per route, from schedule_route (fixed cost included)
  std::vector<std::int32_t> unassigned;
  [[nodiscard]] Cost total() const { return std::accumulate(cost.begin(), cost.end(), Cost{0}); }
  [[nodiscard]] std::size_t used() const {
    return static_cast<std::size_t>(std::count_if(routes.begin(), routes.end(), [](const auto& r) { return !r.empty(); }));
  }
};

std::vector<std::size_t> as_tasks(const std::vector<std::int32_t>& seq) {
  return {seq.begin(), seq.end()};
}

/// Objective key: fewer unassigned first, then (optionally) fewer routes, then cost.
std::tuple<std::size_t, std::size_t, Cost> key(const State& s, Objective objective) {
  return {s.unassigned.size(), objective == Objective::VehiclesThenCost ? s.used() : 0, s.total()};
}

Cost schedule_cost(const Problem& p, std::size_t v, const std::vector<std::int32_t>& seq, bool* feasible) {
  if (seq.empty()) {
    *feasible = true;
    return 0;
  }
  const ScheduleResult r = schedule_route(p, v, as_tasks(seq));
  *feasible = r.feasible;
  return r.feasible ? r.route.cost : 0;
}

/// The batched descent, the pieces of descend() (see batched_search.hpp).
class Descent {
 public:
  Descent(const Problem& p, const PackedProblem& packed, MoveEngine& engine, const BatchedSearchOptions& opts,
          SearchStats& stats, const std::function<bool()>& expired)
      : p_(p), packed_(packed), view_(packed.view(packed.arena.bytes.data())), engine_(engine), opts_(opts),
        stats_(stats), expired_(expired) {
    for (const Vehicle& v : p_.vehicles())
      if (!v.breaks.empty()) breaks_ = true;
  }

  void run(std::vector<RouteSet>& sols, std::vector<std::vector<Cost>>& costs) {
    for (int pass = 0; pass < 64; ++pass) {
      if (opts_.apply == ApplyMode::Host) {
        on_host(sols, costs);
      } else {
        in_engine(sols, costs);
      }
      if (!breaks_ || expired() || break_pass(sols, costs) == 0) return;
    }
  }

 private:
  [[nodiscard]] bool expired() const { return expired_ && expired_(); }

  /// The reference: best moves back every round, applied here after schedule_route.
  void on_host(std::vector<RouteSet>& sols, std::vector<std::vector<Cost>>& costs);
  /// The default: load, rounds in the engine, fetch, verify.
  void in_engine(std::vector<RouteSet>& sols, std::vector<std::vector<Cost>>& costs);
  /// Moves touching routes with breaks, priced without breaks, applied after schedule_route.
  std::size_t break_pass(std::vector<RouteSet>& sols, std::vector<std::vector<Cost>>& costs);

  /// Schedules the routes of `rs` that differ from `old` (costs of the others carried over);
  /// false when one is infeasible.
  bool schedule_changed(const RouteSet& old, const std::vector<Cost>& old_cost, const RouteSet& rs,
                        std::vector<Cost>& cost) const {
    cost = old_cost;
    for (std::size_t v = 0; v < rs.size(); ++v) {
      if (rs[v] == old[v]) continue;
      bool ok = false;
      cost[v] = schedule_cost(p_, v, rs[v], &ok);
      if (!ok) return false;
    }
    return true;
  }

  const Problem& p_;
  const PackedProblem& packed_;
  ProblemView view_;
  MoveEngine& engine_;
  const BatchedSearchOptions& opts_;
  SearchStats& stats_;
  const std::function<bool()>& expired_;
  bool breaks_ = false;
};

void Descent::on_host(std::vector<RouteSet>& sols, std::vector<std::vector<Cost>>& costs) {
  std::vector<char> active(sols.size(), 1);
  std::vector<Move> best;
  HostPrefix prefix;
  for (std::uint64_t round = 0; round < 10000; ++round) {
    std::vector<std::size_t> ids;
    std::vector<const RouteSet*> ptrs;
    for (std::size_t i = 0; i < sols.size(); ++i)
      if (active[i]) {
        ids.push_back(i);
        ptrs.push_back(&sols[i]);
      }
    if (ids.empty() || expired()) return;
    const auto t0 = Clock::now();
    const PackedBatch packed = pack_batch(packed_, ptrs);
    stats_.engine.pack += seconds_since(t0);
    engine_.evaluate(packed, best, stats_.engine);
    ++stats_.ls_rounds;

    const auto t1 = Clock::now();
    const BatchView bv = packed.view(packed.arena.bytes.data());
    build_prefix_host(view_, bv, packed.routes, prefix, 1);  // for make_specs' shipment counts
    const std::uint32_t tasks = packed_.tasks, vehicles = packed_.vehicles;
    for (std::size_t s = 0; s < ids.size(); ++s) {
      RouteSet& routes = sols[ids[s]];
      std::vector<Cost>& cost = costs[ids[s]];
      std::vector<Move> cand;
      for (std::uint32_t u = 0; u < tasks; ++u) {
        const Move& m = best[s * tasks + u];
        if (m.delta < 0 && m.delta != ds::kNoMove) cand.push_back(m);
      }
      std::sort(cand.begin(), cand.end(), [](const Move& a, const Move& b) {
        return std::tie(a.delta, a.u, a.v, a.type, a.aux) < std::tie(b.delta, b.u, b.v, b.type, b.aux);
      });
      std::vector<char> used(vehicles, 0);
      std::size_t applied = 0;
      for (const Move& m : cand) {
        ds::RouteSpec spec[2];
        const std::uint32_t n =
            ds::make_specs(view_, bv, prefix.view, static_cast<std::uint32_t>(s), m.u, m.v, m.type, m.aux, spec);
        if (n == 0) continue;
        bool clash = false;
        for (std::uint32_t i = 0; i < n; ++i)
          clash = clash || used[spec[i].veh] || used[spec[i].suffix_route % vehicles];
        if (clash) continue;
        // Materialise the new sequences from the (unchanged) packed batch, then verify.
        std::vector<std::int32_t> seqs[2];
        Cost new_cost[2] = {0, 0};
        bool ok = true;
        Cost delta = 0;
        for (std::uint32_t i = 0; i < n && ok; ++i) {
          const ds::RouteSpec& sp = spec[i];
          seqs[i] = materialize(bv, sp);
          new_cost[i] = schedule_cost(p_, sp.veh, seqs[i], &ok);
          delta += new_cost[i] - cost[sp.veh];
        }
        if (!ok) {
          ++stats_.rejected;
          continue;
        }
        if (delta != m.delta) {
          ++stats_.mismatched;  // a pricing bug: never apply what was not priced exactly
          continue;
        }
        for (std::uint32_t i = 0; i < n; ++i) {
          routes[spec[i].veh] = std::move(seqs[i]);
          cost[spec[i].veh] = new_cost[i];
          used[spec[i].veh] = 1;
          used[spec[i].suffix_route % vehicles] = 1;
        }
        ++applied;
      }
      stats_.applied += applied;
      if (applied == 0) active[ids[s]] = 0;
    }
    stats_.host += seconds_since(t1);
  }
}

void Descent::in_engine(std::vector<RouteSet>& sols, std::vector<std::vector<Cost>>& costs) {
  if (sols.empty() || expired()) return;
  const auto t0 = Clock::now();
  std::vector<const RouteSet*> ptrs;
  for (const RouteSet& rs : sols) ptrs.push_back(&rs);
  PackedBatch batch = pack_batch(packed_, ptrs);
  stats_.engine.pack += seconds_since(t0);
  engine_.load(batch, stats_.engine);
  const auto n = sols.size();
  std::vector<Cost> start(n), gained(n, 0);
  for (std::size_t s = 0; s < n; ++s) start[s] = std::accumulate(costs[s].begin(), costs[s].end(), Cost{0});
  std::vector<std::uint32_t> applied;
  std::vector<std::int64_t> gain;
  const auto check = [&](std::size_t s, const RouteSet& rs, std::vector<Cost>& cost) {
    if (!schedule_changed(sols[s], costs[s], rs, cost)) return false;
    return std::accumulate(cost.begin(), cost.end(), Cost{0}) == start[s] + gained[s];
  };
  for (std::uint64_t round = 0; round < 10000 && !expired(); ++round) {
    engine_.round(applied, gain, stats_.engine);
    ++stats_.ls_rounds;
    bool any = false;
    for (std::size_t s = 0; s < n; ++s) {
      gained[s] += gain[s];
      stats_.applied += applied[s];
      any = any || applied[s] > 0;
    }
    if (opts_.verify_rounds) {
      engine_.fetch(batch, stats_.engine);
      for (std::size_t s = 0; s < n; ++s) {
        std::vector<Cost> cost;
        if (!check(s, unpack_solution(batch, batch.arena.bytes.data(), static_cast<std::uint32_t>(s), packed_.vehicles), cost))
          throw Error(ErrorCode::Internal, "batched search: round " + std::to_string(round) + " of the engine descent: solution " +
                                               std::to_string(s) + " is infeasible or not priced exactly");
      }
    }
    if (!any) break;
  }
  engine_.fetch(batch, stats_.engine);
  const auto t1 = Clock::now();
  for (std::size_t s = 0; s < n; ++s) {
    RouteSet rs = unpack_solution(batch, batch.arena.bytes.data(), static_cast<std::uint32_t>(s), packed_.vehicles);
    std::vector<Cost> cost;
    if (!check(s, rs, cost)) {
      ++stats_.mismatched;  // a pricing bug: keep the solution as it was before the descent
      continue;
    }
    sols[s] = std::move(rs);
    costs[s] = std::move(cost);
  }
  stats_.host += seconds_since(t1);
}

std::size_t Descent::break_pass(std::vector<RouteSet>& sols, std::vector<std::vector<Cost>>& costs) {
  const auto t0 = Clock::now();
  const std::uint32_t tasks = packed_.tasks, vehicles = packed_.vehicles, k = packed_.neighbours;
  std::size_t total = 0;
  HostPrefix prefix;
  for (std::size_t s = 0; s < sols.size(); ++s) {
    const PackedBatch one = pack_batch(packed_, {&sols[s]});
    const BatchView bv = one.view(one.arena.bytes.data());
    build_prefix_host(view_, bv, one.routes, prefix, 1);
    const ds::PrefixView& x = prefix.view;
    const auto has_breaks = [&](std::uint32_t pos) {
      return (view_.veh_flags[bv.pos_route[pos] % vehicles] & ds::kVehicleBreaks) != 0u;
    };
    std::vector<Move> cand;
    const auto consider = [&](std::int32_t u, std::int32_t v, std::uint32_t type, std::uint32_t aux) {
      const ds::MoveResult r = ds::price_move(view_, bv, x, 0, u, v, type, aux, ds::BreakRule::Relax);
      if (r.feasible && r.delta < 0) cand.push_back(Move{r.delta, u, v, type, aux});
    };
    for (std::uint32_t ui = 0; ui < tasks; ++ui) {
      const auto u = static_cast<std::int32_t>(ui);
      const std::int32_t pu = bv.task_pos[ui];
      if (pu < 0) continue;
      const std::uint32_t travel = view_.veh_travel[bv.pos_route[static_cast<std::uint32_t>(pu)] % vehicles];
      for (std::uint32_t j = 0; j < k; ++j) {
        const std::int32_t v = view_.neighbour[(std::size_t{travel} * tasks + ui) * k + j];
        if (v < 0) continue;
        const std::int32_t pv = bv.task_pos[static_cast<std::size_t>(v)];
        if (pv < 0 || !(has_breaks(static_cast<std::uint32_t>(pu)) || has_breaks(static_cast<std::uint32_t>(pv)))) continue;
        for (std::uint32_t type = 0; type < ds::kPairRelocate; ++type) consider(u, v, type, 0);
        if ((view_.task_flags[ui] & ds::kTaskPickup) != 0u) {
          const std::uint32_t lv = bv.route_offsets[bv.pos_route[static_cast<std::uint32_t>(pv)] + 1] - 1;
          for (std::uint32_t q = static_cast<std::uint32_t>(pv); q < lv; ++q) consider(u, v, ds::kPairRelocate, q);
        }
      }
    }
    std::sort(cand.begin(), cand.end(), [](const Move& a, const Move& b) {
      return std::tie(a.delta, a.u, a.v, a.type, a.aux) < std::tie(b.delta, b.u, b.v, b.type, b.aux);
    });
    std::vector<char> used(vehicles, 0);
    for (const Move& m : cand) {
      ds::RouteSpec spec[2];
      const std::uint32_t n = ds::make_specs(view_, bv, x, 0, m.u, m.v, m.type, m.aux, spec);
      bool clash = n == 0;
      for (std::uint32_t i = 0; i < n; ++i) clash = clash || used[spec[i].veh] || used[spec[i].suffix_route];
      if (clash) continue;
      std::vector<std::int32_t> seqs[2];
      Cost new_cost[2] = {0, 0};
      bool ok = true;
      Cost delta = 0;
      for (std::uint32_t i = 0; i < n && ok; ++i) {
        seqs[i] = materialize(bv, spec[i]);
        new_cost[i] = schedule_cost(p_, spec[i].veh, seqs[i], &ok);
        delta += new_cost[i] - costs[s][spec[i].veh];
      }
      if (!ok) {
        ++stats_.break_rejected;  // feasible without the breaks, not with them
        continue;
      }
      if (delta != m.delta) {
        ++stats_.mismatched;
        continue;
      }
      for (std::uint32_t i = 0; i < n; ++i) {
        sols[s][spec[i].veh] = std::move(seqs[i]);
        costs[s][spec[i].veh] = new_cost[i];
        used[spec[i].veh] = 1;
        used[spec[i].suffix_route] = 1;
      }
      ++stats_.break_applied;
      ++total;
    }
  }
  stats_.host += seconds_since(t0);
  return total;
}

class Search {
 public:
  Search(const Problem& problem, const SolveOptions& options, MoveEngine& engine,
         const BatchedSearchOptions& opts, SearchStats& stats)
      : p_(problem), options_(options), engine_(engine), opts_(opts), stats_(stats),
        packed_(pack_problem(problem, opts.neighbours)),
        view_(packed_.view(packed_.arena.bytes.data())),
        threads_(std::max(1u, options.threads)) {
    engine_.set_problem(packed_);
    for (const Task& t : p_.tasks())
      if (t.time_windows.size() > 1) multi_window_ = true;
    for (const Vehicle& v : p_.vehicles())
      if (!v.breaks.empty()) breaks_ = true;
  }

  Solution run();

 private:
  // --- insertion -------------------------------------------------------------------------
  void refresh(const State& s) {
    one_ = pack_batch(packed_, {&s.routes});
    one_view_ = one_.view(one_.arena.bytes.data());
    build_prefix_host(view_, one_view_, one_.routes, one_prefix_, 1);
  }
  bool insert(State& s, std::int32_t task, std::mt19937_64& rng, double blink);
  bool insert_exact(State& s, std::int32_t task);
  void recreate(State& s, std::vector<std::int32_t> tasks, std::mt19937_64& rng, double blink);
  void ruin(State& s, std::mt19937_64& rng);
  // --- batched local search ----------------------------------------------------------------
  void local_search(std::vector<State>& batch);
  [[nodiscard]] bool expired() const {
    if (options_.stop != nullptr && options_.stop->load()) return true;
    return options_.time_limit_s > 0.0 && seconds_since(start_) >= options_.time_limit_s;
  }
  Cost schedule_cost(std::size_t v, const std::vector<std::int32_t>& seq, bool* feasible) const {
    if (seq.empty()) {
      *feasible = true;
      return 0;
    }
    const ScheduleResult r = schedule_route(p_, v, as_tasks(seq));
    *feasible = r.feasible;
    return r.feasible ? r.route.cost : 0;
  }
  Solution finish(const State& s);

  const Problem& p_;
  const SolveOptions& options_;
  MoveEngine& engine_;
  BatchedSearchOptions opts_;
  SearchStats& stats_;
  PackedProblem packed_;
  ProblemView view_;
  unsigned threads_;
  bool multi_window_ = false, breaks_ = false;
  Clock::time_point start_ = Clock::now();
  PackedBatch one_;
  BatchView one_view_;
  HostPrefix one_prefix_;
};

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
  for (const std::int32_t t : tasks) {
    const Task& k = p_.task(static_cast<std::size_t>(t));
    if (k.type == TaskType::Delivery) continue;  // goes with its pickup
    if (!insert(s, t, rng, blink)) {
      s.unassigned.push_back(t);
      if (k.sibling != kNone) s.unassigned.push_back(static_cast<std::int32_t>(k.sibling));
    }
  }
}

void Search::ruin(State& s, std::mt19937_64& rng) {
  std::vector<std::int32_t> assigned;
  for (const auto& r : s.routes) assigned.insert(assigned.end(), r.begin(), r.end());
  if (assigned.empty()) return;
  const std::size_t limit = std::clamp<std::size_t>(assigned.size() / 5, 2, 40);
  const std::size_t target = 1 + rng() % limit;
  const std::int32_t seed = assigned[rng() % assigned.size()];
  std::vector<std::int32_t> removed;
  std::vector<char> route_done(s.routes.size(), 0);
  std::vector<std::int32_t> where(p_.tasks().size(), -1);
  for (std::size_t v = 0; v < s.routes.size(); ++v)
    for (const auto t : s.routes[v]) where[static_cast<std::size_t>(t)] = static_cast<std::int32_t>(v);
  const std::uint32_t k = packed_.neighbours;
  const std::uint32_t travel = packed_.travel_count > 0 ? static_cast<std::uint32_t>(p_.vehicle(0).travel) : 0;
  std::vector<std::int32_t> around{seed};
  for (std::uint32_t i = 0; i < k; ++i)
    around.push_back(view_.neighbour[(std::size_t{travel} * packed_.tasks + static_cast<std::size_t>(seed)) * k + i]);
  for (const std::int32_t w : around) {
    if (removed.size() >= target || w < 0) break;
    const std::int32_t v = where[static_cast<std::size_t>(w)];
    if (v < 0 || route_done[static_cast<std::size_t>(v)]) continue;
    route_done[static_cast<std::size_t>(v)] = 1;
    auto& seq = s.routes[static_cast<std::size_t>(v)];
    const auto pos = static_cast<std::size_t>(std::find(seq.begin(), seq.end(), w) - seq.begin());
    const std::size_t len = 1 + rng() % std::min<std::size_t>(seq.size(), std::max<std::size_t>(1, target - removed.size()));
    const std::size_t from = pos >= len - 1 ? pos - (rng() % len) : 0;
    const std::size_t to = std::min(seq.size(), from + len);
    std::vector<std::int32_t> keep;
    for (std::size_t i = 0; i < seq.size(); ++i) {
      const bool out = i >= from && i < to;
      if (out) removed.push_back(seq[i]);
      else keep.push_back(seq[i]);
    }
    seq = std::move(keep);
  }
  // Shipments leave with both halves.
  std::vector<char> gone(p_.tasks().size(), 0);
  for (const auto t : removed) gone[static_cast<std::size_t>(t)] = 1;
  for (const auto t : std::vector<std::int32_t>(removed)) {
    const std::size_t sib = p_.task(static_cast<std::size_t>(t)).sibling;
    if (sib != kNone && !gone[sib]) {
      gone[sib] = 1;
      removed.push_back(static_cast<std::int32_t>(sib));
    }
  }
  for (auto& seq : s.routes)
    seq.erase(std::remove_if(seq.begin(), seq.end(), [&](std::int32_t t) { return gone[static_cast<std::size_t>(t)] != 0; }),
              seq.end());
  for (std::size_t v = 0; v < s.routes.size(); ++v) {
    bool ok = false;
    s.cost[v] = schedule_cost(v, s.routes[v], &ok);
    if (!ok) throw Error(ErrorCode::Internal, "batched search: a route became infeasible by removals");
  }
  // Earlier unassigned tasks get another chance.
  removed.insert(removed.end(), s.unassigned.begin(), s.unassigned.end());
  s.unassigned.clear();
  std::sort(removed.begin(), removed.end());
  removed.erase(std::unique(removed.begin(), removed.end()), removed.end());
  recreate(s, removed, rng, 0.01);
}

void Search::local_search(std::vector<State>& batch) {
  std::vector<RouteSet> routes;
  std::vector<std::vector<Cost>> costs;
  for (State& st : batch) {
    routes.push_back(std::move(st.routes));
    costs.push_back(std::move(st.cost));
  }
  descend(p_, packed_, engine_, routes, costs, opts_, stats_, [this] { return expired(); });
  for (std::size_t i = 0; i < batch.size(); ++i) {
    batch[i].routes = std::move(routes[i]);
    batch[i].cost = std::move(costs[i]);
  }
}

Solution Search::finish(const State& s) {
  std::vector<Route> routes;
  for (std::size_t v = 0; v < s.routes.size(); ++v) {
    if (s.routes[v].empty()) continue;
    ScheduleResult r = schedule_route(p_, v, as_tasks(s.routes[v]));
    if (!r.feasible) throw Error(ErrorCode::Internal, "batched search: final route infeasible");
    routes.push_back(std::move(r.route));
  }
  std::vector<Unassigned> unassigned;
  std::vector<std::int32_t> un = s.unassigned;
  std::sort(un.begin(), un.end());
  for (const std::int32_t t : un) {
    const Task& task = p_.task(static_cast<std::size_t>(t));
    std::vector<std::size_t> alone{static_cast<std::size_t>(t)};
    if (task.sibling != kNone) {
      alone = task.type == TaskType::Pickup ? std::vector<std::size_t>{alone[0], task.sibling}
                                            : std::vector<std::size_t>{task.sibling, alone[0]};
    }
    std::optional<UnassignedReason> reason;
    for (std::size_t v = 0; v < p_.vehicles().size(); ++v) {
      const ScheduleResult r = schedule_route(p_, v, alone);
      if (r.feasible) {
        reason = UnassignedReason::NotRouted;
        break;
      }
      if (!reason) reason = r.violation;
    }
    unassigned.push_back({static_cast<std::size_t>(t), task.id, task.type,
                          reason.value_or(UnassignedReason::NotRouted)});
  }
  return make_solution(p_, std::move(routes), std::move(unassigned));
}

Solution Search::run() {
  std::mt19937_64 rng(options_.seed);
  // Construction: everything inserted into empty routes, then the batched descent.
  State current;
  current.routes.assign(packed_.vehicles, {});
  current.cost.assign(packed_.vehicles, 0);
  {
    const auto t0 = Clock::now();
    std::vector<std::int32_t> all(p_.tasks().size());
    std::iota(all.begin(), all.end(), 0);
    recreate(current, all, rng, 0.0);
    stats_.construction = seconds_since(t0);
  }
  {
    std::vector<State> one{current};
    local_search(one);
    current = std::move(one.front());
  }
  State best = current;
  const bool timed = options_.time_limit_s > 0.0;
  const std::uint64_t rounds = opts_.max_rounds;
  for (std::uint64_t round = 0; (timed || rounds > 0) && !expired() && (rounds == 0 || round < rounds); ++round) {
    // B children of the current solution, each ruined and recreated with its own generator.
    std::vector<State> children(std::max(1u, opts_.batch), current);
    const auto t0 = Clock::now();
    for (std::size_t b = 0; b < children.size(); ++b) {
      std::mt19937_64 child_rng(options_.seed * 0x9E3779B97F4A7C15ull + round * 1000003ull + b);
      ruin(children[b], child_rng);
    }
    stats_.host += seconds_since(t0);
    local_search(children);
    ++stats_.rounds;
    std::size_t pick = 0;
    for (std::size_t b = 1; b < children.size(); ++b)
      if (key(children[b], options_.objective) < key(children[pick], options_.objective)) pick = b;
    // Acceptance: better than the current, or within a threshold of the best that shrinks to 0.
    const double progress = timed ? std::min(1.0, seconds_since(start_) / options_.time_limit_s)
                                  : static_cast<double>(round) / static_cast<double>(rounds);
    const auto kc = key(children[pick], options_.objective);
    const auto kb = key(best, options_.objective);
    const double allowed = static_cast<double>(std::get<2>(kb)) * 0.01 * (1.0 - progress);
    const bool accept = kc < key(current, options_.objective) ||
                        (std::get<0>(kc) == std::get<0>(kb) && std::get<1>(kc) <= std::get<1>(kb) &&
                         static_cast<double>(std::get<2>(kc)) <= static_cast<double>(std::get<2>(kb)) + allowed);
    if (accept) current = children[pick];
    if (key(current, options_.objective) < kb) best = current;
    if (options_.on_progress) {
      Progress pr;
      pr.elapsed_s = seconds_since(start_);
      pr.fraction = progress;
      pr.best_cost = best.total();
      pr.best_routes = best.used();
      pr.unassigned = best.unassigned.size();
      options_.on_progress(pr);
    }
  }
  Solution out = finish(best);
  stats_.total = seconds_since(start_);
  return out;
}

}  // namespace

void descend(const Problem& problem, const PackedProblem& packed, MoveEngine& engine,
             std::vector<RouteSet>& solutions, std::vector<std::vector<Cost>>& costs,
             const BatchedSearchOptions& options, SearchStats& stats, const std::function<bool()>& expired) {
  Descent d(problem, packed, engine, options, stats, expired);
  d.run(solutions, costs);
}

Solution batched_search(const Problem& problem, const SolveOptions& options, MoveEngine& engine,
                        const BatchedSearchOptions& search, SearchStats* stats) {
  SearchStats local;
  SearchStats& st = stats != nullptr ? *stats : local;
  Search s(problem, options, engine, search, st);
  return s.run();
}

}  // namespace routesolve::cuda::search
