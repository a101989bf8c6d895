// The search driver, shared by the backends (each brings its insertion engine). Top loop:
//   1. pre-check every task alone (reasons for the hopeless ones);
//   2. construction by regret insertion, higher priorities first (for large instances: the
//      recreate's greedy insertion over the nearest tours), into the caller's starting routes
//      when it gives some (SolveOptions::start_routes);
//   3. metaheuristic: ruin and recreate with simulated annealing (SISR) in chains (one per
//      thread, or many in lockstep on the threads), the recreate's positions priced by the
//      engine (insertion_engine.hpp), chains on disjoint regions of one solution in the cost
//      phase (parallel_search.hpp); a fleet minimisation phase first with
//      vehicles-then-cost (see annealing_search.hpp, parallel_search.hpp);
//   4. exactness: every route confirmed by core's schedule_route (a route the segment model
//      accepted wrongly, e.g. because of breaks or several time windows, loses tasks until it
//      is feasible), then the unrouted tasks get one more exact regret insertion and a reason;
//   5. each route scheduled once with the reported timeline, the solution assembled by core's
//      make_solution.
// Problems the segment model does not cover (more than kMaxDims capacity dimensions) get a ruin
// and recreate of exact regret insertions on the exact representation instead of step 3
// (exact_search.hpp; docs/ARCHITECTURE.md says why that representation stays).

#include "routesolve/search/solve.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <random>

#include "routesolve/error.hpp"
#include "routesolve/search/blink_insertion.hpp"
#include "routesolve/search/descent.hpp"
#include "routesolve/search/exact_search.hpp"
#include "routesolve/search/locality.hpp"
#include "routesolve/search/neighbours.hpp"
#include "routesolve/search/parallel_search.hpp"
#include "routesolve/search/precheck.hpp"
#include "routesolve/search/regret_insertion.hpp"
#include "routesolve/search/reloads.hpp"
#include "routesolve/search/savings.hpp"
#include "routesolve/search/search_control.hpp"
#include "routesolve/search/search_state.hpp"
#include "routesolve/search/segments.hpp"
#include "routesolve/search/tuning.hpp"
#include "routesolve/search/vehicle_classes.hpp"
#include "routesolve/search/working_solution.hpp"

namespace routesolve::search {

namespace {

// From this many locations the search runs on a copy of the problem in locality order
// (locality.hpp): the same routes at fixed work, less CPU time on tables beyond a core's L2,
// within the noise at 400 locations; not above 1 GiB of copied tables, whose pages
// cost more than the cache saves (docs/EXPERIMENTS.md, "Locality order").
constexpr std::size_t kLocalityLocations = 500;
constexpr std::uint64_t kLocalityMaxBytes = std::uint64_t{1} << 30;

/// The caller's starting routes as a plan of `problem`: tasks the pre-check calls hopeless leave
/// (with their shipment sibling), and a route that is then infeasible is cut from its end until
/// schedule_route accepts it (dispatch hands in routes it checked whole, so this rarely cuts).
TourPlan start_plan(const Problem& problem, const std::vector<std::vector<std::size_t>>& routes,
                    const std::vector<std::optional<UnassignedReason>>& verdict) {
  TourPlan plan(problem.vehicles().size());
  std::vector<char> taken(problem.tasks().size(), 0);
  for (std::size_t v = 0; v < routes.size() && v < plan.size(); ++v) {
    std::vector<std::size_t> tasks;
    for (std::size_t t : routes[v]) {
      if (t >= problem.routable_tasks() || taken[t]) continue;
      const std::size_t key =
          problem.task(t).type == TaskType::Delivery ? problem.task(t).sibling : t;
      if (verdict[key]) continue;
      tasks.push_back(t);
    }
    std::erase_if(tasks, [&](std::size_t t) {  // shipments whole
      const std::size_t sib = problem.task(t).sibling;
      return sib != kNone && std::find(tasks.begin(), tasks.end(), sib) == tasks.end();
    });
    while (!tasks.empty() && !schedule(problem, v, tasks).feasible) {
      const std::size_t last = tasks.back();
      std::erase_if(tasks,
                    [&](std::size_t t) { return t == last || t == problem.task(last).sibling; });
    }
    for (std::size_t t : tasks) taken[t] = 1;
    plan[v] = std::move(tasks);
  }
  return plan;
}

/// Removes tasks from routes that schedule_route rejects until each is feasible (the segment
/// model relaxes breaks and multiple time windows); returns the tasks taken out.
std::vector<std::size_t> make_routes_exact(SearchState& state) {
  const Problem& problem = state.problem();
  std::vector<std::size_t> out;
  for (std::size_t v = 0; v < state.vehicle_count(); ++v) {
    std::vector<std::size_t> tasks = state.route(v).tasks;
    if (tasks.empty() || schedule(problem, v, tasks).feasible) continue;
    while (!tasks.empty() && !schedule(problem, v, tasks).feasible) {
      // Drop the task (with its sibling) whose removal leaves the cheapest route.
      std::size_t drop = kNone;
      Cost best = kInfiniteCost;
      bool best_feasible = false;
      for (std::size_t t : tasks) {
        if (problem.task(t).type == TaskType::Delivery) continue;
        std::vector<std::size_t> rest;
        for (std::size_t x : tasks)
          if (x != t && x != problem.task(t).sibling) rest.push_back(x);
        const bool feasible = schedule(problem, v, rest).feasible;
        const Cost c = sequence_travel_cost(problem, v, rest);
        if ((feasible && !best_feasible) || (feasible == best_feasible && c < best)) {
          drop = t;
          best = c;
          best_feasible = feasible;
        }
      }
      if (drop == kNone) break;
      out.push_back(drop);
      std::erase_if(tasks,
                    [&](std::size_t x) { return x == drop || x == problem.task(drop).sibling; });
    }
    state.set_route(v, tasks);
  }
  return out;
}

void report(const SolveOptions& options, const Deadline& deadline, const SearchState& state,
            std::size_t unassigned_fixed, double fraction) {
  if (!options.on_progress) return;
  Progress p;
  p.elapsed_s = deadline.elapsed();
  p.fraction =
      options.time_limit_s > 0 ? std::min(1.0, p.elapsed_s / options.time_limit_s) : fraction;
  p.best_cost = state.total_cost();
  p.best_routes = state.used_routes();
  std::size_t unassigned = unassigned_fixed;
  for (std::size_t t = 0; t < state.problem().tasks().size(); ++t)
    if (!state.assigned(t) && t < state.problem().routable_tasks() &&
        state.problem().task(t).type != TaskType::Delivery)
      ++unassigned;
  p.unassigned = unassigned;
  options.on_progress(p);
}

/// Checkpoints of one solve (SolveOptions::on_checkpoint): the fixed fields, the score of a plan
/// with the hopeless tasks counted in, and the time of the last one on the deadline's clock.
class Checkpointer {
 public:
  Checkpointer(const Problem& problem, const SolveOptions& options,
               const std::vector<std::size_t>& hopeless)
      : problem_(problem), options_(options) {
    if (!options.on_checkpoint) return;
    base_.fingerprint = options.resume ? options.resume->fingerprint : problem_fingerprint(problem);
    base_.seed = options.seed;
    base_.threads = std::max(1u, options.threads);
    base_.objective = options.objective;
    base_.time_limit_s = options.time_limit_s;
    for (std::size_t t : hopeless) {
      ++hopeless_score_.unassigned;
      hopeless_score_.priority_lost += problem.task(t).priority;
    }
  }
  [[nodiscard]] bool enabled() const { return static_cast<bool>(options_.on_checkpoint); }
  [[nodiscard]] double every() const { return options_.checkpoint_every_s; }
  [[nodiscard]] double last() const { return last_s_; }

  /// Sends a checkpoint of `plan` (scored `score` by the search, hopeless tasks not counted).
  void write(const TourPlan& plan, const Score& score, std::size_t iterations,
             const Deadline& deadline, double spent_before) {
    if (!enabled()) return;
    SolveCheckpoint c = base_;
    c.elapsed_s = spent_before + deadline.elapsed();
    c.iterations = iterations;
    c.score.priority_lost = hopeless_score_.priority_lost + score.priority_lost;
    c.score.unassigned = hopeless_score_.unassigned + score.unassigned;
    c.score.routes = score.routes;
    c.score.cost = score.cost;
    c.routes = plan;
    c.routes.resize(problem_.vehicles().size());
    std::vector<char> routed(problem_.tasks().size(), 0);
    for (const auto& route : plan)
      for (std::size_t t : route) routed[t] = 1;
    for (std::size_t t = 0; t < problem_.routable_tasks(); ++t)
      if (!routed[t] && problem_.task(t).type != TaskType::Delivery) c.unassigned.push_back(t);
    options_.on_checkpoint(c);
    last_s_ = deadline.elapsed();
  }

 private:
  const Problem& problem_;
  const SolveOptions& options_;
  SolveCheckpoint base_;
  CheckpointScore hopeless_score_;
  double last_s_ = 0.0;
};

}  // namespace

unsigned chain_count(const SolveOptions& options, const Engine& engine) {
  if (options.chains > 0) return options.chains;
  if (engine.chains > 0) return engine.chains;
  return std::max(1u, options.threads);
}

std::uint64_t fixed_work(const SolveOptions& options, const Engine& engine) {
  const std::uint64_t per_chain = options.iterations > 0 ? options.iterations : kDefaultIterations;
  return per_chain * chain_count(options, engine);
}

ParallelSearch::Chains chains_of(const SolveOptions& options, const Engine& engine) {
  ParallelSearch::Chains c;
  c.count = chain_count(options, engine);
  c.workers = std::max(1u, options.threads);
  // One chain per thread unless the engine batches or there are more chains than threads.
  c.lockstep = engine.lockstep || c.count != c.workers;
  return c;
}

/// The search on `problem` (the user's, or a copy with its locations renumbered for the cache:
/// the same tasks and vehicles, every arc the same value); checkpoints and the solution are the
/// user's problem's.
Solution solve_on(const Problem& problem, const Problem& user, const SolveOptions& options,
                  const Engine& engine) {
  // Resuming: the budget left is the time limit minus what the earlier runs spent (a deadline
  // that is already over when nothing is left: Deadline(0) would mean no limit).
  const SolveCheckpoint* resume = options.resume.get();
  const double spent_before = resume ? resume->elapsed_s : 0.0;
  const double time_left =
      options.time_limit_s > 0
          ? std::max(1e-9, options.time_limit_s - spent_before - options.time_used_s)
          : 0.0;
  Deadline deadline(time_left, options.stop);
  const Deadline unless_stopped(0.0, options.stop);
  const VehicleClasses classes(problem);
  SearchState state(problem);

  // ---- 1. pre-check ------------------------------------------------------------------------
  const auto verdict = precheck_tasks(problem, classes);
  std::vector<std::size_t> insertable;
  std::map<std::size_t, UnassignedReason> reasons;  // task -> reason, for the unrouted
  std::vector<std::size_t> hopeless_tasks;
  for (std::size_t t = 0; t < problem.routable_tasks(); ++t) {  // reloads are the search's to place
    if (problem.task(t).type == TaskType::Delivery) continue;
    if (verdict[t]) {
      reasons[t] = *verdict[t];
      hopeless_tasks.push_back(t);
    } else {
      insertable.push_back(t);
    }
  }
  const std::size_t hopeless = hopeless_tasks.size();
  Checkpointer checkpoints(user, options, hopeless_tasks);
  const SegmentModel model(problem);
  std::optional<Neighbours> adjacency;  // the search's (and a large construction's) nearest tasks
  const InstanceTraits traits{insertable.size(), model.windowed(),
                              !problem.spec().shipments.empty()};

  // ---- 2. construction (or the checkpoint's plan, or the caller's starting solution) ----------
  const bool started =
      !resume && std::any_of(options.start_routes.begin(), options.start_routes.end(),
                             [](const std::vector<std::size_t>& r) { return !r.empty(); });
  if (resume) {
    // solve() checked the plan against this problem (check_checkpoint); tasks the precheck
    // calls hopeless cannot be on it, since the run that wrote it never routed them.
    state.load(resume->routes);
  } else if (started) {
    // VROOM's steps in solving mode: the caller's routes, then the construction's insertion of
    // the other tasks into them; the search goes on from there.
    state.load(start_plan(problem, options.start_routes, verdict));
    std::vector<std::size_t> others;
    for (std::size_t t : insertable)
      if (!state.assigned(t)) others.push_back(t);
    if (model.supported() && construction_for(traits) == Construction::NearestTours) {
      adjacency.emplace(problem, kAdjacency);
      WorkingSolution greedy(model, insertable);
      greedy.load(state.plan());
      std::mt19937_64 rng(options.seed);
      const std::unique_ptr<InsertionEngine> segments = make_segment_engine();
      BlinkInsertion(*adjacency, classes, 0.0)
          .apply(greedy, others, rng, greedy.vehicle_count(), *segments, &unless_stopped,
                 BlinkInsertion::Order::FarthestFirst);
      state.load(greedy.plan());
    } else {
      RegretInsertion construction(state, classes, deadline, 3);
      for (const auto& [t, reason] : construction.run(others)) reasons[t] = reason;
    }
  } else if (model.supported() && construction_for(traits) == Construction::NearestTours) {
    // Tasks the greedy insertion leaves out get their reason from the exact repair (step 4).
    adjacency.emplace(problem, kAdjacency);
    WorkingSolution greedy(model, insertable);
    std::mt19937_64 rng(options.seed);
    const std::unique_ptr<InsertionEngine> segments = make_segment_engine();
    // It always completes (a solution with every task placed comes first); the stop flag is
    // polled every 64 insertions. Farthest from the depots first: routes are seeded far out, where
    // new routes take the larger classes, since which class serves which distance is what the
    // search's local steps change most slowly (docs/EXPERIMENTS.md, "Routes seeded far out").
    BlinkInsertion(*adjacency, classes, 0.0)
        .apply(greedy, insertable, rng, greedy.vehicle_count(), *segments, &unless_stopped,
               BlinkInsertion::Order::FarthestFirst);
    state.load(greedy.plan());
  } else {
    RegretInsertion construction(state, classes, deadline, 3);
    for (const auto& [t, reason] : construction.run(insertable)) reasons[t] = reason;
  }
  // A starting solution (with the construction's insertions) is the floor of the result, as in
  // VROOM, whose search only descends from it: the relaxed model's moves may cost tasks at the
  // exactness step (breaks, second windows), and the result must not be worse than the start.
  const TourPlan started_plan = started ? state.plan() : TourPlan{};
  const double construction_s = deadline.elapsed();
  report(options, deadline, state, hopeless, 0.5);
  // Fraction of the budget and iterations the earlier runs used (annealing schedule, fixed work).
  const std::size_t iteration_budget =
      options.iterations > 0 ? options.iterations : kDefaultIterations;
  const double fraction_done =
      !resume ? 0.0
      : options.time_limit_s > 0
          ? std::min(1.0, spent_before / options.time_limit_s)
          : std::min(1.0, static_cast<double>(resume->iterations) /
                              static_cast<double>(fixed_work(options, engine)));
  const std::size_t iterations_done = resume ? static_cast<std::size_t>(resume->iterations) : 0;

  // ---- 3. metaheuristic ----------------------------------------------------------------------
  std::uint64_t iterations = 0;  // of the metaheuristic, earlier runs included when resuming
  const double search_limit = time_left > 0 ? std::max(0.0, 0.99 * time_left - 0.02) : 0.0;
  if (!model.supported()) {
    const std::uint64_t seed = resume ? derive_seed(options.seed, iterations_done) : options.seed;
    std::mt19937_64 rng(seed);
    const Neighbours neighbours(problem, kFallbackNeighbours);
    // The annealing's temperatures, scaled by the cost of one visit as in step 3.
    const double per_visit = static_cast<double>(state.total_cost()) /
                             static_cast<double>(std::max<std::size_t>(1, state.assigned_count()));
    const AnnealingSearch::Parameters heat = search_parameters(traits, per_visit);
    ExactSearch search(state, neighbours, classes, options.objective, deadline, rng, insertable,
                       {heat.start_temperature, heat.end_temperature});
    if (checkpoints.enabled() && !resume)
      checkpoints.write(state.plan(), state_score(state, insertable), iterations_done, deadline,
                        spent_before);
    // Without a time limit, the fixed work; with one, an optional cap (0: none).
    const std::size_t budget =
        time_left > 0 && options.iterations == 0 ? 0 : iteration_budget * kExactStepsPerIteration;
    const std::size_t steps_left = budget - std::min(budget, iterations_done);
    std::size_t steps = 0;
    const double per_step = 0.45 / static_cast<double>(std::max<std::size_t>(1, steps_left));
    if (budget == 0 || steps_left > 0)
      search.run(steps_left, [&] {
        ++steps;
        if (steps % 32 == 0)
          report(options, deadline, state, hopeless, 0.5 + per_step * static_cast<double>(steps));
        if (checkpoints.enabled() && deadline.elapsed() - checkpoints.last() >= checkpoints.every())
          checkpoints.write(state.plan(), state_score(state, insertable), iterations_done + steps,
                            deadline, spent_before);
      });
    iterations = iterations_done + steps;
    for (const auto& [t, reason] : search.left_out()) reasons[t] = reason;
  } else if (!deadline.expired() && !insertable.empty()) {
    if (!adjacency) adjacency.emplace(problem, kAdjacency);
    // Entry into the search's representation (WorkingSolution, loaded from a plan).
    TourPlan start = state.plan();
    // Savings, where it fits, when it beats regret insertion (not when resuming or given a
    // starting solution: that plan is the start).
    if (resume || started) {
    } else if (const auto savings =
                   savings_plan(model, classes, *adjacency, insertable, deadline)) {
      WorkingSolution a(model, insertable), b(model, insertable);
      a.load(start);
      b.load(*savings);
      if (better(b.score(), a.score(), options.objective)) start = *savings;
    }
    // Where the segments relax, the search walks feasible plans only (AnnealingSearch::
    // touched_tours_feasible): a start they accepted wrongly loses tasks first, which the
    // search then inserts again.
    if (!model.exact()) {
      SearchState exact(problem);
      exact.load(start);
      make_routes_exact(exact);
      start = exact.plan();
    }
    const ReloadRepair reloads(problem);
    if (reloads.active()) {  // multi-trip: the tasks capacity left out, with reloads
      WorkingSolution with_reloads(model, insertable);
      with_reloads.load(start);
      reloads.run(with_reloads, insertable.size());
      start = with_reloads.plan();
    }
    // Temperatures scale with the cost of one visit in the starting solution.
    std::size_t routed = 0;
    Cost start_cost = 0;
    for (std::size_t v = 0; v < start.size(); ++v) {
      routed += start[v].size();
      start_cost += route_cost(problem, v, start[v]);
    }
    const double per_visit =
        static_cast<double>(start_cost) / static_cast<double>(std::max<std::size_t>(1, routed));
    AnnealingSearch::Parameters parameters = search_parameters(traits, per_visit);
    std::optional<Neighbours> partners;
    if (const std::size_t extra = time_partners_for(traits); extra > 0) {
      partners.emplace(problem, *adjacency, parameters.granular.neighbours, extra);
      parameters.granular.neighbours = partners->size();
      parameters.partners = &*partners;
    }
    // A resumed run draws other random numbers than the run it continues (same seed, other stream).
    const std::uint64_t seed = resume ? derive_seed(options.seed, iterations_done) : options.seed;
    ParallelSearch search(model, *adjacency, classes, insertable, options.objective, seed,
                          chains_of(options, engine), parameters, *engine.insertion);
    if (checkpoints.enabled()) {
      if (!resume) {  // the construction's plan: a first checkpoint before the long search
        WorkingSolution constructed(model, insertable);
        constructed.load(start);
        checkpoints.write(start, constructed.score(), 0, deadline, spent_before);
      }
      search.set_checkpoint(
          [&](const TourPlan& plan, const Score& score, std::size_t iterations) {
            checkpoints.write(plan, score, iterations, deadline, spent_before);
          },
          checkpoints.every(), checkpoints.last());
    }
    search.resume_from(fraction_done, iterations_done);
    const std::size_t threads = chain_count(options, engine);
    // Without a time limit, the fixed work; with one, an optional cap (0: none).
    const std::size_t per_thread_budget =
        time_left > 0 && options.iterations == 0 ? 0 : iteration_budget;
    const std::size_t iterations_left =
        per_thread_budget - std::min(per_thread_budget, iterations_done / threads);
    const TourPlan best = search.run(start, deadline, search_limit, iterations_left,
                                     [&](const Score& score, double fraction) {
                                       if (!options.on_progress) return;
                                       Progress p;
                                       p.elapsed_s = deadline.elapsed();
                                       p.fraction = fraction;
                                       p.best_cost = score.cost;
                                       p.best_routes = score.routes;
                                       p.unassigned = score.unassigned + hopeless;
                                       options.on_progress(p);
                                     });
    iterations = search.iterations();
    // Intra-route 2-opt / or-opt on the best solution's tours.
    WorkingSolution polished(model, insertable);
    polished.load(best);
    // A best found between two spaced descents, or given only the descent around its step, has
    // not had a full one: the returned plan does (within what is left of the time limit).
    if (parameters.descent &&
        (parameters.descent_spacing > 0.0 || parameters.local_descent_on_new_best ||
         parameters.descent_around_every_step)) {
      std::mt19937_64 rng(derive_seed(seed, iterations));
      GranularDescent(partners ? *partners : *adjacency, classes, parameters.granular)
          .run(polished, rng, options.objective, nullptr, &deadline);
    }
    for (std::size_t v = 0; v < polished.vehicle_count(); ++v) polish_tour(polished, v);
    if (problem.spec().balance >
        0.0) {  // polishing prices cost alone: kept only when the objective agrees
      WorkingSolution unpolished(model, insertable);
      unpolished.load(best);
      if (better(unpolished.score(), polished.score(), options.objective)) polished.load(best);
    }
    reloads.run(polished, insertable.size());
    // The polish is priced by the segments: where they relax, it stands only if the schedule
    // accepts every tour (else the search's best, which it does).
    TourPlan result = polished.plan();
    if (!model.exact())
      for (std::size_t v = 0; v < result.size(); ++v)
        if (!route_feasible(problem, v, result[v])) {
          result = best;
          break;
        }
    // Exit: back to the exact representation for step 4.
    state.load(result);
  }

  // ---- 4. exactness ------------------------------------------------------------------------
  std::vector<std::size_t> pending = make_routes_exact(state);
  for (std::size_t t : insertable)
    if (!state.assigned(t) && std::find(pending.begin(), pending.end(), t) == pending.end())
      pending.push_back(t);
  if (!pending.empty()) {
    // Short, but the stop flag still rules.
    RegretInsertion repair(state, classes, unless_stopped, 3);
    for (const auto& [t, reason] : repair.run(pending)) reasons[t] = reason;
  }
  if (started) {
    SearchState floor(problem);
    floor.load(started_plan);
    (void)make_routes_exact(floor);  // the blink construction's routes are the relaxed model's
    if (better(state_score(floor, insertable), state_score(state, insertable), options.objective))
      state.load(floor.plan());
  }
  const double search_s = deadline.elapsed() - construction_s;

  // ---- 5. output ---------------------------------------------------------------------------
  std::vector<Route> routes;
  for (std::size_t v = 0; v < state.vehicle_count(); ++v) {
    const auto& tasks = state.route(v).tasks;
    if (tasks.empty()) continue;
    ScheduleResult result = schedule_route(
        user, v, tasks, chosen_timeline(user, options));  // the output's one schedule
    if (!result.feasible)
      throw Error(ErrorCode::Internal, "cpu backend: route of vehicle " +
                                           std::to_string(user.vehicle(v).id) +
                                           " is infeasible for schedule_route");
    routes.push_back(std::move(result.route));
  }
  std::vector<Unassigned> unassigned;
  for (std::size_t t = 0; t < problem.routable_tasks(); ++t) {
    if (state.assigned(t)) continue;
    const Task& task = problem.task(t);
    const std::size_t key = task.type == TaskType::Delivery ? task.sibling : t;
    const auto it = reasons.find(key);
    Unassigned u;
    u.task = t;
    u.id = task.id;
    u.type = task.type;
    u.reason = it != reasons.end() ? it->second : UnassignedReason::NotRouted;
    unassigned.push_back(u);
  }
  Solution solution = make_solution(user, std::move(routes), std::move(unassigned));
  solution.profile = {{"construction", construction_s}, {"local_search", search_s}};
  solution.backend = engine.backend;
  solution.iterations = iterations;
  report(options, deadline, state, hopeless, 1.0);
  return solution;
}

Solution solve(const Problem& problem, const SolveOptions& options, const Engine& engine) {
  // The copy counts against the time limit (its cost: docs/EXPERIMENTS.md, "Locality order").
  const auto start = std::chrono::steady_clock::now();
  const ProblemPtr ordered = locality_ordered(problem, kLocalityLocations, kLocalityMaxBytes);
  if (!ordered) return solve_on(problem, problem, options, engine);
  const double ordering_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  SolveOptions rest = options;
  rest.time_used_s += ordering_s;
  Solution solution = solve_on(*ordered, problem, rest, engine);
  solution.profile.insert(solution.profile.begin(), {"locality_order", ordering_s});
  return solution;
}

}  // namespace routesolve::search
