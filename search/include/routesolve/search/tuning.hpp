#pragma once
// The search's tuning in one place: what an instance is (its tasks, time windows, shipments) maps
// to the construction, the neighbour lists and the parameters of the annealing search. Rules on
// the budget (iterations per task) are parameters too: the search applies them once it has
// measured its pace. Every constant has a name and a line saying why; the runs behind them are in
// docs/EXPERIMENTS.md ("Search tuning"), today's figures in docs/BENCHMARKS.md.

#include <cstddef>

#include "routesolve/search/annealing_search.hpp"

namespace routesolve::search {

/// What the tuning looks at.
struct InstanceTraits {
  std::size_t tasks = 0;  ///< insertable tasks (jobs and shipment pickups the search places)
  bool windows = false;   ///< the segment model has time windows (SegmentModel::windowed)
  bool shipments = false;
};

/// How the first solution is built.
enum class Construction {
  Regret,       ///< regret-3 insertion over every route (then savings where it is cheaper)
  NearestTours  ///< the recreate's greedy insertion over the nearest tours, farthest tasks first
};

/// Work per chain when the solve has no time limit and no iteration count.
inline constexpr std::size_t kDefaultIterations = 1000;
/// Tasks a device chain's region needs: two tours or more (the cost phase's regions).
inline constexpr std::size_t kTasksPerDeviceChain = 25;
/// Device chains per multiprocessor at most: enough blocks in flight to hide a round's latency.
inline constexpr unsigned kDeviceChainsPerMultiprocessor = 4;

/// Chains the device engine runs in lockstep: one per kTasksPerDeviceChain tasks, at most
/// kDeviceChainsPerMultiprocessor per multiprocessor, never fewer than the threads. The cuda
/// backend runs that many and the auto policy prices that many.
[[nodiscard]] unsigned device_chains(std::size_t tasks, unsigned threads,
                                     unsigned multiprocessors) noexcept;
/// Nearest tasks the ruin and the recreate look at (and the descent's pool of time partners).
inline constexpr std::size_t kAdjacency = 100;
/// Nearest tasks of the exact search (problems beyond the segment model's kMaxDims dimensions).
inline constexpr std::size_t kFallbackNeighbours = 30;
/// Tasks an exact search step removes, at most: SISR's mean string removal (c-bar = 10).
inline constexpr std::size_t kExactRuinTasks = 10;
/// Exact search steps per iteration of the fixed work: a step has no descent, so that many take
/// about the CPU time of one SISR iteration at 400 tasks (docs/EXPERIMENTS.md, "Exact search").
inline constexpr std::size_t kExactStepsPerIteration = 16;

/// Where the segment model relaxes (breaks, several windows) and the recreate's cheapest
/// position fails core's schedule: the cheapest positions by travel that are tried exactly
/// instead, at most (each check replays the tour; 8 missed positions that 32 find, trying every
/// position found little more: docs/EXPERIMENTS.md, "Exact checks where the segments relax").
inline constexpr std::size_t kExactInsertionChecks = 32;

/// The construction for an instance.
[[nodiscard]] Construction construction_for(const InstanceTraits& instance) noexcept;

/// Descent partners added to each task's nearest by time-window correlation (0: none).
[[nodiscard]] std::size_t time_partners_for(const InstanceTraits& instance) noexcept;

/// The annealing search's parameters for an instance, whose starting solution costs `visit_cost`
/// per routed task (the unit of the temperatures).
[[nodiscard]] AnnealingSearch::Parameters search_parameters(const InstanceTraits& instance,
                                                            double visit_cost);

}  // namespace routesolve::search
