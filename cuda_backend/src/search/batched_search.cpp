// The batched search (see batched_search.hpp). Host work: insertion (priced with the same
// O(1) functors on a one-solution batch), ruin, move selection and verification.

#include "batched_search.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <numeric>
#include <random>
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
        const ds::Priced pr = ds::price_route(view_, one_view_, x, spec);
        if (pr.feasible) found.push_back({pr.cost - old, v, q1 - first, q2 - first});
      }
    }
  }
  std::sort(found.begin(), found.end(), [](const Option& a, const Option& b) {
    return std::tie(a.delta, a.v, a.q1, a.q2) < std::tie(b.delta, b.v, b.q1, b.q2);
  });
  for (std::size_t i = 0; i < found.size() && i < 4; ++i) {
    const Option& o = found[i];
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
  std::vector<char> active(batch.size(), 1);
  std::vector<Move> best;
  HostPrefix prefix;
  for (std::uint64_t round = 0; round < 10000; ++round) {
    std::vector<std::size_t> ids;
    std::vector<const RouteSet*> sols;
    for (std::size_t i = 0; i < batch.size(); ++i)
      if (active[i]) {
        ids.push_back(i);
        sols.push_back(&batch[i].routes);
      }
    if (ids.empty() || expired()) return;
    const auto t0 = Clock::now();
    const PackedBatch packed = pack_batch(packed_, sols);
    stats_.engine.pack += seconds_since(t0);
    engine_.evaluate(packed, best, stats_.engine);
    ++stats_.ls_rounds;

    const auto t1 = Clock::now();
    const BatchView bv = packed.view(packed.arena.bytes.data());
    build_prefix_host(view_, bv, packed.routes, prefix, 1);  // for make_specs' shipment counts
    const std::uint32_t tasks = packed_.tasks, vehicles = packed_.vehicles;
    for (std::size_t s = 0; s < ids.size(); ++s) {
      State& st = batch[ids[s]];
      std::vector<Move> cand;
      for (std::uint32_t u = 0; u < tasks; ++u) {
        const Move& m = best[s * tasks + u];
        if (m.delta < 0 && m.delta != ds::kNoMove) cand.push_back(m);
      }
      std::sort(cand.begin(), cand.end(), [](const Move& a, const Move& b) {
        return std::tie(a.delta, a.u, a.v, a.type) < std::tie(b.delta, b.u, b.v, b.type);
      });
      std::vector<char> used(vehicles, 0);
      std::size_t applied = 0;
      for (const Move& m : cand) {
        ds::RouteSpec spec[2];
        const std::uint32_t n = ds::make_specs(view_, bv, prefix.view, static_cast<std::uint32_t>(s), m.u, m.v, m.type, spec);
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
          new_cost[i] = schedule_cost(sp.veh, seqs[i], &ok);
          delta += new_cost[i] - st.cost[sp.veh];
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
          st.routes[spec[i].veh] = std::move(seqs[i]);
          st.cost[spec[i].veh] = new_cost[i];
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

Solution batched_search(const Problem& problem, const SolveOptions& options, MoveEngine& engine,
                        const BatchedSearchOptions& search, SearchStats* stats) {
  SearchStats local;
  SearchStats& st = stats != nullptr ? *stats : local;
  Search s(problem, options, engine, search, st);
  return s.run();
}

}  // namespace routesolve::cuda::search
