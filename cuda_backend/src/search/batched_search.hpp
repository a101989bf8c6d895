#pragma once
// The batched descent: B solutions improved together by rounds of batched move evaluation
// (every (customer, neighbour, move type) of every solution priced at once), selection of
// non-overlapping improving moves and their application. It is the batched counterpart of the
// granular descent; the search driver (search/solve.hpp) does not call it, since its decisions
// must equal the CPU operators'. The moves benchmark and the device self-test use it.
//
// The descent (descend) runs inside the engine by default (ApplyMode::Engine): the batch
// is loaded once, every round prices, selects and applies the moves where the engine runs (the
// device for `cuda`), and the result comes back once. Verification, always on: every route of
// a descent's result that changed is scheduled with schedule_route when it comes back, and a
// solution whose routes are not all feasible or whose cost is not its start cost plus the
// applied deltas is not taken (its routes before the descent are kept; stats.mismatched counts
// it, a pricing bug). With a fallback engine (BatchedSearchOptions::fallback_engine), the first
// mismatch switches the rest of the search to it (and the batch is descended again there);
// stats.fallback says why. verify_rounds (debug, tests) checks after every round and throws.
// ApplyMode::Host is the reference: the best moves come back every round and the host applies
// them, each checked with schedule_route first. Every insertion is verified with schedule_route.
// Routes of vehicles with breaks: excluded from the batched moves; after each descent a host
// pass prices the moves touching them without breaks (exact cost, necessary feasibility) and
// applies those schedule_route accepts (then descends again).

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "routesolve/solution.hpp"
#include "routesolve/backend.hpp"
#include "search_engine.hpp"

namespace routesolve::cuda::batched {

/// Where the moves selected in a round are applied.
enum class ApplyMode {
  Engine,  ///< in the engine (device SoA for `cuda`, the same functors on the host for cuda-host)
  Host,    ///< the reference: on the host, each move checked with schedule_route first
};

struct BatchedSearchOptions {
  unsigned batch = 8;          ///< children per round (solutions per engine call)
  unsigned neighbours = 16;    ///< granular neighbourhood size K
  std::uint64_t max_rounds = 0;  ///< 0: until the time limit (time limit 0: construction + descent)
  ApplyMode apply = ApplyMode::Engine;
  bool verify_rounds = false;  ///< debug: check every engine round with schedule_route (throws)
  /// The engine to continue on after the first mismatch (the host twin for the device engine);
  /// empty: keep the engine (mismatches are still counted, and never applied).
  std::function<std::unique_ptr<MoveEngine>()> fallback_engine;
};

struct SearchStats {
  EngineTimes engine;
  double construction = 0.0, host = 0.0, total = 0.0;
  std::uint64_t rounds = 0, ls_rounds = 0, applied = 0, rejected = 0, mismatched = 0;
  std::uint64_t break_applied = 0, break_rejected = 0;  ///< host pass over routes with breaks
  /// Why the search left its engine for the fallback engine (empty: it did not).
  std::string fallback;
};

/// The local search alone: improves every solution of `solutions` (one RouteSet per solution,
/// `costs[s][v]` the schedule_route cost of route v, kept up to date) until no improving move
/// applies or `expired` says stop. The search's descent; exposed for tests and benchmarks.
void descend(const Problem& problem, const PackedProblem& packed, MoveEngine& engine,
             std::vector<RouteSet>& solutions, std::vector<std::vector<Cost>>& costs,
             const BatchedSearchOptions& options, SearchStats& stats,
             const std::function<bool()>& expired = {});

}  // namespace routesolve::cuda::batched
