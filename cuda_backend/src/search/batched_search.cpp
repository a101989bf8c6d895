// The batched search (see batched_search.hpp): construction, rounds of B ruined-and-recreated
// children improved together by the batched descent, acceptance, and the final solution.

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "routesolve/error.hpp"
#include "search.hpp"

namespace routesolve::cuda::search {

void Search::local_search(std::vector<State>& batch) {
  std::vector<RouteSet> routes;
  std::vector<std::vector<Cost>> costs;
  for (State& st : batch) {
    routes.push_back(std::move(st.routes));
    costs.push_back(std::move(st.cost));
  }
  const std::uint64_t mismatched = stats_.mismatched;
  descend(p_, packed_, *engine_, routes, costs, opts_, stats_, [this] { return expired(); });
  if (stats_.mismatched > mismatched && opts_.fallback_engine && !fallback_) {
    // A result of the engine did not check out (it was not taken): the engine is not trusted
    // for the rest of the search. The batch is descended again on the fallback engine.
    stats_.fallback = std::to_string(stats_.mismatched - mismatched) + " result(s) of the " + engine_->name() +
                      " move engine did not match the host check; the search continued on the host engine";
    fallback_ = opts_.fallback_engine();
    fallback_->set_problem(packed_);
    engine_ = fallback_.get();
    descend(p_, packed_, *engine_, routes, costs, opts_, stats_, [this] { return expired(); });
  }
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
    // Ranking: routesolve::better (priority lost, unassigned, routes under vehicles-then-cost,
    // cost), the order of every backend.
    const Objective objective = options_.objective;
    std::size_t pick = 0;
    for (std::size_t b = 1; b < children.size(); ++b)
      if (better(score(p_, children[b]), score(p_, children[pick]), objective)) pick = b;
    // Acceptance: better than the current, or within a threshold of the best that shrinks to 0
    // (same priority and unassigned, no more routes under vehicles-then-cost).
    const double progress = timed ? std::min(1.0, seconds_since(start_) / options_.time_limit_s)
                                  : static_cast<double>(round) / static_cast<double>(rounds);
    const Score kc = score(p_, children[pick]);
    const Score kb = score(p_, best);
    const double allowed = static_cast<double>(kb.cost) * 0.01 * (1.0 - progress);
    const bool within = kc.priority_lost == kb.priority_lost && kc.unassigned == kb.unassigned &&
                        (objective != Objective::VehiclesThenCost || kc.routes <= kb.routes) &&
                        static_cast<double>(kc.cost) <= static_cast<double>(kb.cost) + allowed;
    const bool accept = better(kc, score(p_, current), objective) || within;
    if (accept) current = children[pick];
    if (better(score(p_, current), kb, objective)) best = current;
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


Solution batched_search(const Problem& problem, const SolveOptions& options, MoveEngine& engine,
                        const BatchedSearchOptions& search, SearchStats* stats) {
  SearchStats local;
  SearchStats& st = stats != nullptr ? *stats : local;
  Search s(problem, options, engine, search, st);
  return s.run();
}

}  // namespace routesolve::cuda::search
