#pragma once
// The plain form of a CPU-backend solution: one task sequence per vehicle. It is what crosses
// between the backend's two solution types (SearchState at entry and exit: exact construction,
// exactness repair, output; WorkingSolution inside the metaheuristic) and what the search keeps
// as snapshots (best plans, thread exchange, checkpoints).

#include <cstddef>
#include <vector>

namespace routesolve::search {

/// Task sequences of every vehicle.
using TourPlan = std::vector<std::vector<std::size_t>>;

}  // namespace routesolve::search
