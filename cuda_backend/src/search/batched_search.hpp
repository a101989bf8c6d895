#pragma once
// The batched search: construction by cheapest insertion, then rounds of B ruin-and-recreate
// children (host, cheap) improved together by the batched local search (one MoveEngine call
// per round prices every move of every child), keeping the best. Every applied move and every
// insertion is verified with schedule_route before it is accepted. Deterministic for a seed and
// a number of rounds (time limits make the number of rounds vary).

#include <cstdint>

#include "routesolve/solution.hpp"
#include "routesolve/solve.hpp"
#include "search_engine.hpp"

namespace routesolve::cuda::search {

struct BatchedSearchOptions {
  unsigned batch = 8;          ///< children per round (solutions per engine call)
  unsigned neighbours = 16;    ///< granular neighbourhood size K
  std::uint64_t max_rounds = 0;  ///< 0: until the time limit (time limit 0: construction + descent)
};

struct SearchStats {
  EngineTimes engine;
  double construction = 0.0, host = 0.0, total = 0.0;
  std::uint64_t rounds = 0, ls_rounds = 0, applied = 0, rejected = 0, mismatched = 0;
};

/// Solves with the given engine (host twin or device).
Solution batched_search(const Problem& problem, const SolveOptions& options, MoveEngine& engine,
                        const BatchedSearchOptions& search = {}, SearchStats* stats = nullptr);

}  // namespace routesolve::cuda::search
