// The decomposed solve over ranks (decompose.hpp): the first search on every rank, then rounds
// of groups of nearby routes improved as subproblems and merged.

#include "routesolve/distributed/decompose.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <string>

#include "routesolve/distributed/world.hpp"
#include "routesolve/error.hpp"
#include "routesolve/solve.hpp"

namespace routesolve::distributed {
namespace {

// Plans and scores travel as flat arrays of 64-bit words.
void put(std::string& out, std::uint64_t v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}
std::uint64_t take(const std::string& in, std::size_t& at) {
  std::uint64_t v = 0;
  if (at + sizeof v > in.size()) throw Error(ErrorCode::Internal, "decompose: short message");
  std::memcpy(&v, in.data() + at, sizeof v);
  at += sizeof v;
  return v;
}
void put_plan(std::string& out, const Plan& plan) {
  put(out, plan.size());
  for (const auto& r : plan) {
    put(out, r.size());
    for (std::size_t t : r) put(out, t);
  }
}
Plan take_plan(const std::string& in, std::size_t& at) {
  Plan plan(take(in, at));
  for (auto& r : plan) {
    r.resize(take(in, at));
    for (auto& t : r) t = take(in, at);
  }
  return plan;
}
void put_score(std::string& out, const CheckpointScore& s) {
  put(out, static_cast<std::uint64_t>(s.priority_lost));
  put(out, s.unassigned);
  put(out, s.routes);
  put(out, static_cast<std::uint64_t>(s.cost));
}
CheckpointScore take_score(const std::string& in, std::size_t& at) {
  CheckpointScore s;
  s.priority_lost = static_cast<std::int64_t>(take(in, at));
  s.unassigned = take(in, at);
  s.routes = take(in, at);
  s.cost = static_cast<Cost>(take(in, at));
  return s;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// One group improved: the sub solve resumed from the group's routes. Returns the group's new
/// routes (vehicle -> tasks) in the whole problem's indices.
std::vector<std::pair<std::size_t, std::vector<std::size_t>>> improve_group(
    std::uint64_t& iterations, const Problem& problem, const Plan& plan,
    const std::vector<std::size_t>& vehicles, const std::vector<std::size_t>& extra,
    const SolveOptions& options, std::uint64_t seed, double time_limit, double warm_fraction) {
  const Subproblem sp = make_subproblem(problem, plan, vehicles, extra);
  const Problem& sub = *sp.problem;
  std::vector<std::size_t> sub_of(problem.tasks().size(), kNone);
  for (std::size_t st = 0; st < sp.task_of.size(); ++st) sub_of[sp.task_of[st]] = st;
  SolveOptions so = options;
  so.seed = seed;
  // The warm plan counts as warm_fraction of the budget already spent: the search gets time_limit.
  so.time_limit_s = time_limit > 0 ? time_limit / (1.0 - warm_fraction) : 0.0;
  so.time_used_s = 0.0;
  so.on_progress = {};
  so.on_checkpoint = {};
  so.backend = options.backend == BackendKind::Auto ? BackendKind::Cpu : options.backend;
  auto cp = std::make_shared<SolveCheckpoint>();
  cp->fingerprint = problem_fingerprint(sub);
  cp->seed = seed;
  cp->threads = std::max(1u, so.threads);
  cp->objective = so.objective;
  cp->time_limit_s = so.time_limit_s;
  cp->routes.resize(sub.vehicles().size());
  std::vector<char> placed(sub.tasks().size(), 0);
  for (std::size_t sv = 0; sv < sp.vehicle_of.size(); ++sv)
    for (std::size_t t : plan[sp.vehicle_of[sv]]) {
      cp->routes[sv].push_back(sub_of[t]);
      placed[sub_of[t]] = 1;
    }
  for (std::size_t st = 0; st < sub.tasks().size(); ++st)
    if (!placed[st] && sub.task(st).type != TaskType::Delivery) cp->unassigned.push_back(st);
  if (so.time_limit_s > 0) {
    cp->elapsed_s = warm_fraction * so.time_limit_s;
  } else {
    const double per_chain = static_cast<double>(so.iterations > 0 ? so.iterations : 1000);
    const double chains = static_cast<double>(std::max(1u, so.chains > 0 ? so.chains : so.threads));
    cp->iterations = static_cast<std::uint64_t>(warm_fraction * per_chain * chains);
  }
  so.resume = cp;
  const Solution s = solve(sub, so);
  iterations += s.iterations > cp->iterations ? s.iterations - cp->iterations : 0;
  std::vector<std::pair<std::size_t, std::vector<std::size_t>>> out;
  for (std::size_t sv = 0; sv < sp.vehicle_of.size(); ++sv)
    out.emplace_back(sp.vehicle_of[sv], std::vector<std::size_t>{});
  for (const Route& r : s.routes)
    for (const Step& st : r.steps)
      if (st.task != kNone) out[r.vehicle].second.push_back(sp.task_of[st.task]);
  return out;
}

/// The unassigned tasks (jobs, pickups) of a plan, each given to its nearest group by the
/// group's first route's first task (matrix durations), else to group 0.
std::vector<std::vector<std::size_t>> spread_unassigned(
    const Problem& problem, const Plan& plan, const std::vector<std::vector<std::size_t>>& groups) {
  std::vector<char> routed(problem.tasks().size(), 0);
  for (const auto& r : plan)
    for (std::size_t t : r) routed[t] = 1;
  std::vector<std::vector<std::size_t>> extra(groups.size());
  const TravelView travel = problem.travel(0);
  for (std::size_t t = 0; t < problem.tasks().size(); ++t) {
    if (routed[t] || problem.task(t).type == TaskType::Delivery) continue;
    std::size_t best = 0;
    std::int64_t best_d = -1;
    for (std::size_t g = 0; g < groups.size(); ++g)
      for (std::size_t v : groups[g])
        if (!plan[v].empty()) {
          const std::int64_t d =
              travel.duration(problem.task(t).location, problem.task(plan[v].front()).location);
          if (best_d < 0 || d < best_d) best_d = d, best = g;
        }
    extra[best].push_back(t);
  }
  return extra;
}

}  // namespace

Solution decompose_solve(const Problem& problem, const SolveOptions& options,
                         const DecomposeOptions& d) {
  if (problem.has_steps())
    throw Error(ErrorCode::Unsupported, "--decompose: vehicles with given steps are not supported");
  const auto t0 = std::chrono::steady_clock::now();
  const bool timed = options.time_limit_s > 0;
  const double budget = timed ? std::max(0.0, options.time_limit_s - options.time_used_s) : 0.0;

  // 1. The whole problem on every rank, each from its own seed; the best plan (lowest rank on
  // ties).
  SolveOptions first = options;
  first.seed = options.seed + static_cast<std::uint64_t>(rank());
  if (timed) {
    first.time_limit_s = options.time_used_s + d.first_share * budget;
  }
  if (rank() != 0) first.on_progress = {};
  const Solution initial = solve(problem, first);
  idle_barrier();
  Plan plan = plan_of(problem, initial);
  CheckpointScore score = plan_score(problem, plan);
  {
    std::string mine;
    put_score(mine, score);
    put_plan(mine, plan);
    const auto all = gather(mine);
    std::string best;
    if (rank() == 0) {
      CheckpointScore top;
      for (std::size_t r = 0; r < all.size(); ++r) {
        std::size_t at = 0;
        const CheckpointScore s = take_score(all[r], at);
        if (r == 0 || better(s, top, options.objective)) top = s, best = all[r];
      }
    }
    broadcast(best);
    std::size_t at = 0;
    score = take_score(best, at);
    plan = take_plan(best, at);
  }
  const CheckpointScore first_score = score;
  const double first_seconds = seconds_since(t0);
  std::uint64_t done_tasks = 0;
  for (const Task& t : problem.tasks()) done_tasks += t.type != TaskType::Delivery;

  // 2. Rounds: groups of nearby routes, each rank improving its share, merged and broadcast.
  const std::size_t groups_wanted = std::max<std::size_t>(
      static_cast<std::size_t>(size()), (done_tasks + d.tasks_per_group - 1) / d.tasks_per_group);
  std::uint64_t sub_iterations = 0;
  for (unsigned round = 0; round < d.rounds; ++round) {
    if (options.stop != nullptr && options.stop->load()) break;
    const auto ranks = static_cast<std::size_t>(size());
    std::size_t groups_now = groups_wanted;
    double slice = 0.0;
    if (timed) {
      // A reserve for the merge, the last polish and writing the output.
      const double per_round =
          0.85 * std::max(0.0, budget - max_all(seconds_since(t0))) / (d.rounds - round);
      // Fewer, larger groups when the time is short: each of a rank's groups gets at least a
      // second where it can (a subproblem's solve has a fixed cost: its problem, fingerprint,
      // neighbours). `per_round` is the same on every rank, and so are the groups.
      const std::size_t per_rank = std::clamp<std::size_t>(
          static_cast<std::size_t>(per_round / 1.0), 1, (groups_wanted + ranks - 1) / ranks);
      groups_now = std::min(groups_wanted, per_rank * ranks);
      slice = per_round / static_cast<double>(per_rank);
      if (slice < 0.25) break;
    }
    const auto groups = group_routes(problem, plan, groups_now, round);
    const auto extra = spread_unassigned(problem, plan, groups);
    std::string mine;
    for (std::size_t g = static_cast<std::size_t>(rank()); g < groups.size();
         g += static_cast<std::size_t>(size())) {
      const std::uint64_t seed = options.seed * 1000003u + round * 1009u + g;
      const auto routes = improve_group(sub_iterations, problem, plan, groups[g], extra[g], options,
                                        seed, slice, d.warm_fraction);
      put(mine, routes.size());
      for (const auto& [v, tasks] : routes) {
        put(mine, v);
        put(mine, tasks.size());
        for (std::size_t t : tasks) put(mine, t);
      }
    }
    idle_barrier();  // groups finish unevenly; wait without spinning
    const auto all = gather(mine);
    std::string merged;
    if (rank() == 0) {
      Plan next = plan;
      for (const std::string& part : all) {
        std::size_t at = 0;
        while (at < part.size()) {
          const std::size_t count = take(part, at);
          for (std::size_t i = 0; i < count; ++i) {
            const std::size_t v = take(part, at);
            next[v].resize(take(part, at));
            for (auto& t : next[v]) t = take(part, at);
          }
        }
      }
      const CheckpointScore s = plan_score(problem, next);
      // Each group's solve returns no worse than its routes and the terms add up; the check
      // keeps the promise whatever happens.
      if (!better(score, s, options.objective)) plan = std::move(next), score = s;
      put_score(merged, score);
      put_plan(merged, plan);
    }
    broadcast(merged);
    std::size_t at = 0;
    score = take_score(merged, at);
    plan = take_plan(merged, at);
  }
  // Iterations of every rank: the first searches and the subproblems'.
  const auto total_iterations = static_cast<std::uint64_t>(
      sum_all(static_cast<std::int64_t>(initial.iterations + sub_iterations)));
  if (rank() != 0) return {};

  const double rounds_seconds = seconds_since(t0) - first_seconds;
  const auto t_last = std::chrono::steady_clock::now();
  // 3. The merged plan as a full solution, on rank 0: each route scheduled by core, the tasks
  //    left out with the reason the first search gave them (else "not routed").
  std::vector<Route> routes;
  std::vector<char> routed(problem.tasks().size(), 0);
  for (std::size_t v = 0; v < plan.size(); ++v) {
    if (plan[v].empty()) continue;
    ScheduleResult r = schedule_route(problem, v, plan[v], chosen_timeline(problem, options));
    if (!r.feasible)
      throw Error(ErrorCode::Internal,
                  "decompose: the merged route of vehicle " + std::to_string(v) + " is infeasible");
    routes.push_back(std::move(r.route));
    for (std::size_t t : plan[v]) routed[t] = 1;
  }
  std::vector<UnassignedReason> reason(problem.tasks().size(), UnassignedReason::NotRouted);
  for (const Unassigned& u : initial.unassigned) reason[u.task] = u.reason;
  std::vector<Unassigned> unassigned;
  for (std::size_t t = 0; t < problem.tasks().size(); ++t) {
    if (routed[t]) continue;
    const Task& task = problem.task(t);
    unassigned.push_back({t, task.id, task.type, reason[t]});
  }
  Solution out = make_solution(problem, std::move(routes), std::move(unassigned));
  out.backend = initial.backend;
  out.fallback = initial.fallback;
  // The stages of the decomposition, for --profile.
  out.profile = {{"decompose_first_search", first_seconds},
                 {"decompose_rounds", rounds_seconds},
                 {"decompose_solution", seconds_since(t_last)}};
  if (better(first_score, plan_score(problem, plan_of(problem, out)), options.objective))
    out = initial;
  out.iterations = total_iterations;
  return out;
}

}  // namespace routesolve::distributed
