// The search driver, shared by the backends (each brings its insertion engine). Top loop:
//   1. pre-check every task alone (reasons for the hopeless ones);
//   2. construction by regret insertion, higher priorities first (above kRegretTasks tasks: the
//      recreate's greedy insertion over the nearest tours);
//   3. metaheuristic: ruin and recreate with simulated annealing (SISR) in chains (one per
//      thread, or many in lockstep on the threads), the recreate's positions priced by the
//      engine (insertion_engine.hpp), chains on disjoint regions of one solution in the cost
//      phase (parallel_search.hpp); a fleet minimisation phase first with
//      vehicles-then-cost (see annealing_search.hpp, parallel_search.hpp);
//   4. exactness: every route confirmed by core's schedule_route (a route the segment model
//      accepted wrongly, e.g. because of breaks or several time windows, loses tasks until it
//      is feasible), then the unrouted tasks get one more exact regret insertion and a reason;
//   5. the solution assembled by core's make_solution.
// Problems the segment model does not cover (more than kMaxSegmentDims capacity dimensions) get
// the descent of the previous solver (relocate / swap / 2-opt / 2-opt*) instead of step 3.

#include "routesolve/search/solve.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <random>

#include "routesolve/search/local_search.hpp"
#include "routesolve/search/locality.hpp"
#include "routesolve/search/neighbours.hpp"
#include "routesolve/search/precheck.hpp"
#include "routesolve/search/regret_insertion.hpp"
#include "routesolve/search/reloads.hpp"
#include "routesolve/error.hpp"
#include "routesolve/search/search_control.hpp"
#include "routesolve/search/parallel_search.hpp"
#include "routesolve/search/search_state.hpp"
#include "routesolve/search/savings.hpp"
#include "routesolve/search/segments.hpp"
#include "routesolve/search/blink_insertion.hpp"
#include "routesolve/search/descent.hpp"
#include "routesolve/search/working_solution.hpp"
#include "routesolve/search/vehicle_classes.hpp"

namespace routesolve::search {

namespace {

constexpr std::size_t kNeighbours = 30;
constexpr std::size_t kTimePartners = 5;        // descent partners added by time-window correlation
constexpr std::size_t kAdjacency = 100;         // string removal looks this far around its seed
// Above this many tasks the construction is the recreate's greedy insertion over the nearest
// tours (O(tasks x near tours x tour length)), not regret insertion over every route (which
// rescans every pending task after each insertion: 40 s at 5,000 tasks and 500 vehicles).
constexpr std::size_t kRegretTasks = 1500;
constexpr std::size_t kDefaultIterations = 1000;  // per thread, when there is no time limit
// From this many locations the search runs on a copy of the problem with its locations in
// locality order (locality.hpp): the same decisions, so the same routes at fixed work. User CPU
// seconds at fixed work and seed, before -> after: Gehring & Homberger 1000 -13%, CVRPLIB X-n979
// -10%, X-n783 and X-n655 -5 to -10%, a generated 10,000-customer CVRP -24%, the 5,000-stop road
// scenario -35%; within the noise at 200 and 400 locations (a 32-bit table of 400 x 400 is 640
// KB, inside a core's L2). Not above 1 GiB of copied tables (16,384 locations in 32 bits): at
// 30,000 customers the 3.6 GB copy took 24 s (most of it the kernel providing fresh pages on
// this virtual machine) against 1.1 s gained per 3,000 iterations.
constexpr std::size_t kLocalityLocations = 500;
constexpr std::uint64_t kLocalityMaxBytes = std::uint64_t{1} << 30;

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
      std::erase_if(tasks, [&](std::size_t x) { return x == drop || x == problem.task(drop).sibling; });
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
  p.fraction = options.time_limit_s > 0 ? std::min(1.0, p.elapsed_s / options.time_limit_s) : fraction;
  p.best_cost = state.total_cost();
  p.best_routes = state.used_routes();
  std::size_t unassigned = unassigned_fixed;
  for (std::size_t t = 0; t < state.problem().tasks().size(); ++t)
    if (!state.assigned(t) && t < state.problem().routable_tasks() && state.problem().task(t).type != TaskType::Delivery)
      ++unassigned;
  p.unassigned = unassigned;
  options.on_progress(p);
}

/// Checkpoints of one solve (SolveOptions::on_checkpoint): the fixed fields, the score of a plan
/// with the hopeless tasks counted in, and the time of the last one on the deadline's clock.
class Checkpointer {
 public:
  Checkpointer(const Problem& problem, const SolveOptions& options, const std::vector<std::size_t>& hopeless)
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
  void write(const TourPlan& plan, const Score& score, std::size_t iterations, const Deadline& deadline,
             double spent_before) {
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

/// The score of a search state (the descent path, without a segment model), hopeless tasks not
/// counted: like WorkingSolution::score.
Score state_score(const SearchState& state, const std::vector<std::size_t>& insertable) {
  Score s;
  for (std::size_t t : insertable)
    if (!state.assigned(t)) {
      ++s.unassigned;
      s.priority_lost += state.problem().task(t).priority;
    }
  s.routes = state.used_routes();
  s.cost = state.total_cost();
  return s;
}

}  // namespace

unsigned chain_count(const SolveOptions& options, const Engine& engine) {
  if (options.chains > 0) return options.chains;
  if (engine.chains > 0) return engine.chains;
  return std::max(1u, options.threads);
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
Solution solve_on(const Problem& problem, const Problem& user, const SolveOptions& options, const Engine& engine) {
  // Resuming: the budget left is the time limit minus what the earlier runs spent (a deadline
  // that is already over when nothing is left: Deadline(0) would mean no limit).
  const SolveCheckpoint* resume = options.resume.get();
  const double spent_before = resume ? resume->elapsed_s : 0.0;
  const double time_left =
      options.time_limit_s > 0 ? std::max(1e-9, options.time_limit_s - spent_before - options.time_used_s) : 0.0;
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

  // ---- 2. construction (or the checkpoint's plan) ---------------------------------------------
  if (resume) {
    // solve() checked the plan against this problem (check_checkpoint); tasks the precheck
    // calls hopeless cannot be on it, since the run that wrote it never routed them.
    state.load(resume->routes);
  } else if (model.supported() && insertable.size() > kRegretTasks) {
    // Tasks the greedy insertion leaves out get their reason from the exact repair (step 4).
    adjacency.emplace(problem, kAdjacency);
    WorkingSolution greedy(model, insertable);
    std::mt19937_64 rng(options.seed);
    const std::unique_ptr<InsertionEngine> segments = make_segment_engine();
    // It always completes (seconds at 30,000 tasks; a solution with every task placed comes
    // first); the stop flag is polled every 64 insertions. The tasks go in farthest from the
    // depots first, so that routes are seeded far out, where new routes take the larger classes
    // first, and the construction works inwards with the smaller ones: which class serves which
    // distance is what the search's local steps change most slowly. At 5,000 stops and 500 trucks
    // of two sizes, where the depot legs are 81% of the cost (docs/BENCHMARKS.md, "Routes seeded
    // far out"): the construction 411,201 -> 355,959, the 60 s search 3.0-3.7% cheaper side by
    // side (seeds 1-4). Up to kRegretTasks the regret insertion stays: the search, with more
    // steps per task there, finds the structure by itself.
    BlinkInsertion(*adjacency, classes, 0.0)
        .apply(greedy, insertable, rng, greedy.vehicle_count(), *segments, &unless_stopped,
               BlinkInsertion::Order::FarthestFirst);
    state.load(greedy.plan());
  } else {
    RegretInsertion construction(state, classes, deadline, 3);
    for (const auto& [t, reason] : construction.run(insertable)) reasons[t] = reason;
  }
  const double construction_s = deadline.elapsed();
  report(options, deadline, state, hopeless, 0.5);
  // Fraction of the budget and iterations the earlier runs used (annealing schedule, fixed work).
  const std::size_t iteration_budget = options.iterations > 0 ? options.iterations : kDefaultIterations;
  const double fraction_done =
      !resume ? 0.0
      : options.time_limit_s > 0
          ? std::min(1.0, spent_before / options.time_limit_s)
          : std::min(1.0, static_cast<double>(resume->iterations) /
                              static_cast<double>(iteration_budget * chain_count(options, engine)));
  const std::size_t iterations_done = resume ? static_cast<std::size_t>(resume->iterations) : 0;

  // ---- 3. metaheuristic ----------------------------------------------------------------------
  std::uint64_t iterations = 0;  // of the metaheuristic, earlier runs included when resuming
  const double search_limit = time_left > 0 ? std::max(0.0, 0.99 * time_left - 0.02) : 0.0;
  if (!model.supported()) {
    std::mt19937_64 rng(options.seed);
    const Neighbours neighbours(problem, kNeighbours);
    LocalSearch search(state, neighbours, classes, options.objective, deadline, rng, insertable);
    if (checkpoints.enabled() && !resume)
      checkpoints.write(state.plan(), state_score(state, insertable), iterations_done, deadline, spent_before);
    std::size_t passes = 0;
    search.run([&] {
      report(options, deadline, state, hopeless, 0.75);
      ++passes;
      if (checkpoints.enabled() && deadline.elapsed() - checkpoints.last() >= checkpoints.every())
        checkpoints.write(state.plan(), state_score(state, insertable), iterations_done + passes, deadline,
                          spent_before);
    });
    for (const auto& [t, reason] : search.left_out()) reasons[t] = reason;
  } else if (!deadline.expired() && !insertable.empty()) {
    if (!adjacency) adjacency.emplace(problem, kAdjacency);
    // Entry into the search's representation (WorkingSolution, loaded from a plan).
    TourPlan start = state.plan();
    // Savings, where it fits, when it beats regret insertion (not when resuming: the
    // checkpoint's plan is the start).
    if (resume) {
    } else if (const auto savings = savings_plan(model, classes, *adjacency, insertable, deadline)) {
      WorkingSolution a(model, insertable), b(model, insertable);
      a.load(start);
      b.load(*savings);
      if (better(b.score(), a.score(), options.objective)) start = *savings;
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
    const double per_visit = static_cast<double>(start_cost) / static_cast<double>(std::max<std::size_t>(1, routed));
    AnnealingSearch::Parameters parameters;
    // The start temperature is one visit's cost on CVRP and three with time windows, cooling to
    // a thousandth of it. With windows, against one visit, at equal CPU time (seeds 1-2): the
    // generated 5,000-stop, 500-truck scenario at 60 s 359,357 -> 353,896 (-1.5%), Gehring &
    // Homberger 1000 at 30 s -0.7% (R1) to +0.1% (C2), the 200-customer ones at 30 s -0.2% (RC1)
    // to 0.0%; `benchmarks/quality` side by side, Solomon 0.27% -> 0.13% and Li & Lim 1.26% ->
    // 0.86% mean gap. On CVRPLIB X (10 s, all 50, side by side) it was worse, 0.95% -> 1.06%,
    // most on few long routes (X-n367-k17 0.82% -> 3.79%), hence windows only. Colder was worse
    // everywhere (0.3 of a visit: 5,000 x 500 365,422, R2_10_1 +6%; on X at 300k iterations
    // 0.94% mean gap against 0.85% at 1.0); 10 visits was no better than 3.
    const double hot = model.windowed() ? 3.0 : 1.0;
    parameters.start_temperature = std::max(1e-3, hot * per_visit);
    parameters.end_temperature = std::max(1e-4, 0.001 * hot * per_visit);
    // Long budgets: cycles of 10,000 iterations per task (on the X instances n = 100..800 a
    // 10 s budget on one core stays inside the first cycle), later ones from 0.3 of one visit's
    // cost, restarting from the best or one of 4 elite cycle ends (see annealing_search.hpp for
    // what was measured).
    parameters.cycle_per_task = 10000.0;
    parameters.restart_temperature = 0.3 / hot;
    parameters.elite_pool = 4;
    // Long tours (time windows with long horizons) are rarely emptied or opened by a ruin of
    // about ten tasks: a fifth of the steps seed a new route with a removed task (Gehring &
    // Homberger R2_10_1, distance only, 300,000 iterations, seeds 1-2: 3.8% -> 2.0% above the
    // best known, 30 -> 35 routes; short-tour classes R1, RC1 were slightly worse with it).
    parameters.open_route = 0.2;
    parameters.open_route_min_length = 15.0;
    // With time windows, the descent on a new best runs at most once per 0.05 x tasks steps
    // (every new best on CVRP, where it pays). Gehring & Homberger, distance only, the same CPU
    // time per run (30 s at 1,000 customers, 15 s at 200), seeds 1-2, mean cost against every
    // new best: R2_10_1 -3.0% (29-30 routes instead of 25-27), RC2_10_1 -0.5%, R1_10_1 -0.3%, R1_2_1, RC1_2_1 and
    // R2_2_1 -0.1%. On CVRPLIB X (10 s, n = 101..783) the same spacing was worse on X-n308
    // (1.40-1.91% -> 2.05-3.18%), hence not there.
    parameters.descent_spacing = model.windowed() ? 0.05 : 0.0;
    // Up to 300 tasks the last tenth of the budget brings every step to a local optimum before
    // its acceptance (about 50 times fewer steps there); up to 600 tasks without shipments the
    // second half does when the budget allows the annealing enough steps first (CVRP: always;
    // time windows: 2,000 projected iterations per task). The annealing finds the basin, then
    // compares local optima, as an iterated local search does. `benchmarks/quality` side by side
    // (10 s, seed 1), from half the budget against the last tenth (n <= 300) or never (above):
    // CVRPLIB X n <= 300 0.66% -> 0.44% mean gap (15 better, 6 worse), n = 301..600 0.98% ->
    // 0.78%, 601..1000 level (1.49%); Solomon 0.14% -> 0.11%, with the fleet phase 0.17% ->
    // 0.16%; Gehring & Homberger 200 distance only at 30 s, seeds 1-4, -0.09 point of mean gap,
    // the 400s -0.3% (seed 1). Worse with shipments (Li & Lim 0.93% -> 1.20%: lrc203, lc109) and
    // on the generated 500-stop, 50-truck scenario at 10 s (about 1,100 iterations per task:
    // +0.6%, seeds 1-6), hence the conditions. The last tenth at every size was worse on the
    // 5,000-stop scenario (+0.1% / +0.5%, 60 s, seeds 1-2); the descent on every step of the whole
    // budget was worse from about 700 tasks (X-n783 +0.6%, R1_10_1 +2.0%, the 5,000-stop scenario
    // +4%) and with shipments (Li & Lim 0.91% -> 2.46%) (docs/BENCHMARKS.md has the runs).
    parameters.descent_every_step_from = insertable.size() <= 300 ? 0.9 : 1.0;
    if (problem.spec().shipments.empty() && insertable.size() <= 600) {
      parameters.early_descent_from = 0.5;
      parameters.early_descent_per_task = model.windowed() ? 2000.0 : 1.0;
    }
    // Short budgets on CVRP-like problems: with few iterations per task the start temperature
    // takes most of the budget to undo what the construction (savings there) found: 16,000
    // generated customers at 60 s (about 40 iterations per task) were back below the savings
    // start only after 68 s of a 120 s run. The temperatures are scaled by the iterations per task
    // over max(250, tasks / 10), down to a tenth. Side by side against the full temperature
    // (docs/BENCHMARKS.md, "Short budgets at scale"): generated 6,000 to 16,000 customers at 60 s
    // -0.4% to -0.6%; 10,000 at 300 s (about 376 per task) half the temperature -0.3%. On CVRPLIB
    // X at 10 s (300 to 500 per task from 600 customers) a threshold of 750 lost 0.3 point of mean
    // gap, hence 250 up to 2,500 tasks. Time windows keep their heat (colder was worse at 5,000 x
    // 500 with about 340 per task).
    // Short budgets with time windows keep their start temperature but end warmer: below 3,000
    // projected iterations per task the end temperature is raised by 3,000 / (iterations per
    // task), at most ten times. Side by side with the thousandth of the start (docs/BENCHMARKS.md,
    // "A warmer end for short budgets with time windows"): the generated 5,000-stop, 500-truck
    // scenario at 60 s (about 300 iterations per task, ten times warmer) -0.4% to -0.6% over
    // seeds 1-8, the 500-stop, 50-truck one at 10 s (about 1,200, 2.5 times) -0.5% over seeds
    // 1-6. Warmer still did not help: ten times at 1,200 per task and thirty at 300 were level
    // with this rule, and 2.9 times at 3,400 per task (10-minute runs at 5,000 x 500) was 0.2%
    // to 0.4% worse, hence the threshold.
    if (model.windowed()) {
      parameters.hot_end_per_task = 3000.0;
      parameters.hot_end_max = 10.0;
    }
    if (!model.windowed())
      parameters.short_budget_per_task = std::max(250.0, static_cast<double>(insertable.size()) / 10.0);
    // Above 2,000 tasks a new best gets the descent around what its step rewired rather than
    // over everything changed since the last descent (whose scan grows with the instance): with
    // the colder start, 16,000 customers at 60 s made 2.5 times the iterations.
    parameters.local_descent_on_new_best = insertable.size() > 2000;
    // Without time windows the descent also exchanges strings of two jobs (HGS's and PyVRP's
    // (2, 1) and (2, 2) swaps). CVRPLIB X at 10 s, one thread, side by side with single swaps
    // (docs/BENCHMARKS.md, "Exchanges of strings in the descent"): mean gap 0.88% -> 0.78%
    // (seed 1) and 0.78% -> 0.74% (seed 2), better on 59 runs and worse on 37. With windows the
    // strings were level on Gehring & Homberger 200 and slightly worse on the 1,000-customer
    // instances and the 5,000-stop scenario (+0.1% to +0.4%, single runs), hence not there.
    parameters.granular.max_swap = model.windowed() ? 1 : 2;
    // A search whose best has not moved over a fifth of the cost phase restarts its cycle from
    // the best (or the elite pool) at once, where the pace gives at least 2,000 iterations per
    // task (AnnealingSearch::Parameters::stagnation): small instances that converge early (the
    // trace of Gehring & Homberger RC1_2_1 at 30 s showed no new best after 7.5 s) use the rest of
    // their budget. Side by side (docs/BENCHMARKS.md, "Restarts where the search stagnates"):
    // Gehring & Homberger 200, distance only, 30 s, RC1_2_1 mean 3,538.0 (eight runs without) ->
    // 3,532.6 (eight runs with); CVRPLIB X at 10 s, n <= 300, 0.53% -> 0.39% and 0.56% -> 0.49%
    // mean gap (two pairs of runs). Without
    // the pace condition the generated 500-stop, 50-truck scenario at 10 s (about 1,100 iterations
    // per task) lost 2.2%.
    parameters.stagnation = 0.2;
    parameters.stagnation_per_task = 2000.0;
    // With time windows the descent also tries, for each task, the 5 of its 100 nearest (beyond
    // the 20 it tries by travel cost) that best follow or precede it in time: the correlation of
    // HGS and PyVRP (travel cost plus 0.2 times the least wait and the least time warp). A tour
    // may go to a task far from its last stop on the way back, when that task's window opens
    // then: on Gehring & Homberger C1_2_1 the move from 2,701.4 to the best known 2,698.6 needs
    // such a pair (tasks 17 and 72, 110th and 43rd nearest to each other). Side by side with the
    // nearest 20 alone (docs/BENCHMARKS.md, "Descent partners that follow in time"), distance
    // only at 30 s: the six Gehring & Homberger *_2_1 instances over seeds 1-4 -18.4 in sum
    // (C1_2_1 2,698.6 on every seed against 2,701.4), the 1,000-customer ones (seed 1) -0.2%;
    // Solomon at 10 s 0.104% -> 0.098% mean gap. The generated 500-stop, 50-truck scenario at
    // 10 s +0.24% over seeds 1-24, within the spread of its runs. Replacing 5 of the 20 instead
    // of adding them misses the C1_2_1 move.
    std::optional<Neighbours> partners;
    if (model.windowed()) {
      partners.emplace(problem, *adjacency, parameters.granular.neighbours, kTimePartners);
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
    const std::size_t per_thread_budget = time_left > 0 && options.iterations == 0 ? 0 : iteration_budget;
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
    if (parameters.descent && (parameters.descent_spacing > 0.0 || parameters.local_descent_on_new_best)) {
      std::mt19937_64 rng(derive_seed(seed, iterations));
      GranularDescent(partners ? *partners : *adjacency, classes, parameters.granular)
          .run(polished, rng, options.objective, nullptr, &deadline);
    }
    for (std::size_t v = 0; v < polished.vehicle_count(); ++v) polish_tour(polished, v);
    if (problem.spec().balance > 0.0) {  // polishing prices cost alone: kept only when the objective agrees
      WorkingSolution unpolished(model, insertable);
      unpolished.load(best);
      if (better(unpolished.score(), polished.score(), options.objective)) polished.load(best);
    }
    reloads.run(polished, insertable.size());
    // Exit: back to the exact representation for step 4.
    state.load(polished.plan());
  }

  // ---- 4. exactness ------------------------------------------------------------------------
  std::vector<std::size_t> pending = make_routes_exact(state);
  for (std::size_t t : insertable)
    if (!state.assigned(t) && std::find(pending.begin(), pending.end(), t) == pending.end()) pending.push_back(t);
  if (!pending.empty()) {
    // Short, but the stop flag still rules.
    RegretInsertion repair(state, classes, unless_stopped, 3);
    for (const auto& [t, reason] : repair.run(pending)) reasons[t] = reason;
  }
  const double search_s = deadline.elapsed() - construction_s;

  // ---- 5. output ---------------------------------------------------------------------------
  std::vector<Route> routes;
  for (std::size_t v = 0; v < state.vehicle_count(); ++v) {
    const auto& tasks = state.route(v).tasks;
    if (tasks.empty()) continue;
    ScheduleResult result = schedule(user, v, tasks);
    if (!result.feasible)
      throw Error(ErrorCode::Internal, "cpu backend: route of vehicle " + std::to_string(user.vehicle(v).id) +
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
  // The copy counts against the time limit (0.2 s at 5,000 locations, 0.3 s at 10,000).
  const auto start = std::chrono::steady_clock::now();
  const ProblemPtr ordered = locality_ordered(problem, kLocalityLocations, kLocalityMaxBytes);
  if (!ordered) return solve_on(problem, problem, options, engine);
  const double ordering_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  SolveOptions rest = options;
  rest.time_used_s += ordering_s;
  Solution solution = solve_on(*ordered, problem, rest, engine);
  solution.profile.insert(solution.profile.begin(), {"locality_order", ordering_s});
  return solution;
}

}  // namespace routesolve::search
