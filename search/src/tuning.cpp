// The search's tuning (tuning.hpp). Each constant says in a line why it has its value; the side
// by side runs behind each are in docs/EXPERIMENTS.md, "Search tuning", under the constant's name.

#include "routesolve/search/tuning.hpp"

#include <algorithm>

namespace routesolve::search {

namespace {

// ---- construction and neighbour lists ------------------------------------------------------
// Regret insertion rescans every pending task after each insertion (docs/EXPERIMENTS.md,
// kRegretTasks); above this the construction is the greedy insertion over the nearest tours.
constexpr std::size_t kRegretTasks = 1500;
// Partners the descent tries for each task by travel cost (GranularDescent's granularity).
constexpr std::size_t kDescentNeighbours = 20;
// With time windows, a tour may go to a task far away when its window opens: that many more
// partners, the best correlated in time among the kAdjacency nearest.
constexpr std::size_t kTimePartners = 5;

// ---- temperatures ----------------------------------------------------------------------------
// The start temperature in visits of the starting solution: one on CVRP, three with time windows
// (whose windows make more local optima to leave; on CVRP, three visits undo too much).
constexpr double kHeat = 1.0;
constexpr double kWindowedHeat = 3.0;
// The schedule cools to this share of its start temperature.
constexpr double kEndShare = 0.001;
// Floors in cost units, for starts whose visits cost next to nothing.
constexpr double kMinStartTemperature = 1e-3;
constexpr double kMinEndTemperature = 1e-4;
// Short budgets without windows: below this many iterations per task (or a tenth of the tasks,
// if more), the temperatures scale down with the pace, so the start is improved, not undone.
constexpr double kShortBudgetPace = 250.0;
constexpr double kShortBudgetTasksPerIteration = 10.0;
// Short budgets with windows keep their start temperature but end warmer, below this pace, by at
// most kHotEndMax: a schedule too short to settle spends its steps where they change routes.
constexpr double kHotEndPace = 3000.0;
constexpr double kHotEndMax = 10.0;

// ---- cycles and restarts ---------------------------------------------------------------------
// Long budgets cool in cycles of this many iterations per task (one cycle covers a 10 s budget
// on CVRPLIB X), so a long budget does not stretch one cooling until it stops paying.
constexpr double kCyclePerTask = 10000.0;
// Later cycles start from this share of one visit (of the start temperature on CVRP).
constexpr double kRestartVisits = 0.3;
// Distinct cycle ends a later cycle may restart from, besides the best.
constexpr std::size_t kElitePool = 4;
// A best that has not moved over this share of the cost phase starts a new cycle at once...
constexpr double kStagnation = 0.2;
// ...where the pace leaves enough steps per task for a restart to converge again.
constexpr double kStagnationPace = 2000.0;

// ---- ruin and recreate -----------------------------------------------------------------------
// Long tours are rarely emptied or opened by a ruin of ten tasks: this share of the steps seeds a
// new route with a removed task, where the used tours hold kOpenRouteMinLength tasks on average.
constexpr double kOpenRoute = 0.2;
constexpr double kOpenRouteMinLength = 15.0;
// SISR's blink rate: the recreate skips a position with this chance, so equal steps differ.
constexpr double kBlinkRate = 0.01;
// Tours the recreate prices for each task, the nearest to it: fewer miss good positions, more
// cost time that the steps need.
constexpr std::size_t kRecreateTours = 24;

// ---- when the descent runs -------------------------------------------------------------------
// With time windows, a new best gets the inter-route descent at most once per this many steps
// per task: early in a search nearly every step is a new best, and long tours make descents dear.
constexpr double kWindowedDescentSpacing = 0.05;
// Up to kLastTenthTasks tasks, the last tenth of the budget brings every step to a local optimum
// before its acceptance (an iterated local search at the end of the annealing).
constexpr std::size_t kLastTenthTasks = 300;
constexpr double kLastTenth = 0.9;
// Up to kEarlyDescentTasks tasks without shipments, the second half does, where the pace leaves
// the annealing kEarlyDescentWindowedPace steps per task first (CVRP: always).
constexpr std::size_t kEarlyDescentTasks = 600;
constexpr double kEarlyDescentFrom = 0.5;
constexpr double kEarlyDescentWindowedPace = 2000.0;
constexpr double kEarlyDescentPace = 1.0;
// Above kEarlyDescentTasks without windows or shipments, every step ends in a local optimum of
// what it touched (the descent around what it rewired, intra-route moves included): the annealing
// has too few steps per task there to find one by itself, and its cost follows the change.
// Otherwise (windows, shipments), above this a new best gets the descent around what its step
// rewired, not over everything changed since the last descent, whose scan grows with the instance.
constexpr std::size_t kLocalDescentTasks = 2000;
// Without windows the descent also exchanges strings of two jobs ((2, 1) and (2, 2) swaps).
constexpr std::size_t kStringSwap = 2;

}  // namespace

Construction construction_for(const InstanceTraits& instance) noexcept {
  return instance.tasks > kRegretTasks ? Construction::NearestTours : Construction::Regret;
}

std::size_t time_partners_for(const InstanceTraits& instance) noexcept {
  return instance.windows ? kTimePartners : 0;
}

AnnealingSearch::Parameters search_parameters(const InstanceTraits& instance, double visit_cost) {
  AnnealingSearch::Parameters p;
  const double heat = instance.windows ? kWindowedHeat : kHeat;
  p.start_temperature = std::max(kMinStartTemperature, heat * visit_cost);
  p.end_temperature = std::max(kMinEndTemperature, kEndShare * heat * visit_cost);
  if (instance.windows) {
    p.hot_end_per_task = kHotEndPace;
    p.hot_end_max = kHotEndMax;
  } else {
    p.short_budget_per_task = std::max(
        kShortBudgetPace, static_cast<double>(instance.tasks) / kShortBudgetTasksPerIteration);
  }

  p.cycle_per_task = kCyclePerTask;
  p.restart_temperature = kRestartVisits / heat;
  p.elite_pool = kElitePool;
  p.stagnation = kStagnation;
  p.stagnation_per_task = kStagnationPace;

  p.open_route = kOpenRoute;
  p.open_route_min_length = kOpenRouteMinLength;
  p.blink_rate = kBlinkRate;
  p.recreate_tours = kRecreateTours;

  p.descent_spacing = instance.windows ? kWindowedDescentSpacing : 0.0;
  p.descent_every_step_from = instance.tasks <= kLastTenthTasks ? kLastTenth : 1.0;
  if (!instance.shipments && instance.tasks <= kEarlyDescentTasks) {
    p.early_descent_from = kEarlyDescentFrom;
    p.early_descent_per_task = instance.windows ? kEarlyDescentWindowedPace : kEarlyDescentPace;
  } else if (!instance.shipments && !instance.windows) {
    p.descent_around_every_step = true;
    p.granular.intra_route = true;
  }
  p.local_descent_on_new_best = !p.descent_around_every_step && instance.tasks > kLocalDescentTasks;
  p.granular.neighbours = kDescentNeighbours;
  p.granular.max_swap = instance.windows ? 1 : kStringSwap;
  return p;
}

unsigned device_chains(std::size_t tasks, unsigned threads, unsigned multiprocessors) noexcept {
  const auto by_size = static_cast<unsigned>(tasks / kTasksPerDeviceChain);
  const unsigned most = kDeviceChainsPerMultiprocessor * std::max(1u, multiprocessors);
  return std::max(std::max(1u, threads), std::min(by_size, most));
}

}  // namespace routesolve::search
