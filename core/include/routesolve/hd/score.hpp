#pragma once
// The objective, once: how every backend ranks two solutions (or a solution change).
//
// Lexicographic, in this order:
//   1. priority lost: the sum of the priorities of the tasks left unassigned (lower is better);
//   2. tasks left unassigned (fewer is better);
//   3. routes, under Objective::VehiclesThenCost only (fewer is better);
//   4. cost in internal cost units, fixed costs included (lower is better);
//   5. routes, as the last tie-break under either objective (fewer is better).
// A Score is either the value of a solution or the change a move makes (a delta: the same order
// applies to differences, and `improves(d)` is `better(d, Score{})`).

#include <cstdint>

#include "routesolve/hd/host_device.hpp"

namespace routesolve {

enum class Objective {
  Cost,              ///< minimise total cost (VROOM's model)
  VehiclesThenCost,  ///< fewest routes first, then cost
};

struct Score {
  std::int64_t priority_lost = 0;  ///< sum of priorities of the unassigned tasks
  std::int64_t unassigned = 0;     ///< unassigned tasks (a shipment counts once)
  std::int64_t routes = 0;         ///< non-empty routes
  std::int64_t cost = 0;           ///< internal cost units, fixed costs included

  RS_HD friend constexpr Score operator-(const Score& a, const Score& b) noexcept {
    return Score{a.priority_lost - b.priority_lost, a.unassigned - b.unassigned,
                 a.routes - b.routes, a.cost - b.cost};
  }
  RS_HD friend constexpr Score operator+(const Score& a, const Score& b) noexcept {
    return Score{a.priority_lost + b.priority_lost, a.unassigned + b.unassigned,
                 a.routes + b.routes, a.cost + b.cost};
  }
  RS_HD friend constexpr bool operator==(const Score& a, const Score& b) noexcept {
    return a.priority_lost == b.priority_lost && a.unassigned == b.unassigned &&
           a.routes == b.routes && a.cost == b.cost;
  }
};

/// True when a is strictly better than b under the objective (the order above).
RS_HD constexpr bool better(const Score& a, const Score& b, Objective objective) noexcept {
  if (a.priority_lost != b.priority_lost) return a.priority_lost < b.priority_lost;
  if (a.unassigned != b.unassigned) return a.unassigned < b.unassigned;
  if (objective == Objective::VehiclesThenCost && a.routes != b.routes) return a.routes < b.routes;
  if (a.cost != b.cost) return a.cost < b.cost;
  return a.routes < b.routes;
}

/// True when a change `delta` makes a solution strictly better.
RS_HD constexpr bool improves(const Score& delta, Objective objective) noexcept {
  return better(delta, Score{}, objective);
}

/// True when a and b tie on every criterion ranked before cost.
RS_HD constexpr bool same_rank(const Score& a, const Score& b, Objective objective) noexcept {
  return a.priority_lost == b.priority_lost && a.unassigned == b.unassigned &&
         (objective != Objective::VehiclesThenCost || a.routes == b.routes);
}

}  // namespace routesolve
