#pragma once
// One solution of the batched search as the host keeps it (State: routes, their verified
// costs, the unassigned tasks), how it is ranked (routesolve::Score, the one objective of every
// backend), and the schedule_route helpers the search verifies with.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <numeric>
#include <vector>

#include "routesolve/timing.hpp"
#include "routesolve/hd/score.hpp"
#include "routesolve/solution.hpp"
#include "search_engine.hpp"

namespace routesolve::cuda::batched {


/// One solution of the search: the task order per vehicle, its verified costs, the unassigned.
struct State {
  RouteSet routes;
  std::vector<Cost> cost;  // per route, from schedule_route (fixed cost included)
  std::vector<std::int32_t> unassigned;  // both halves of an unassigned shipment
  [[nodiscard]] Cost total() const { return std::accumulate(cost.begin(), cost.end(), Cost{0}); }
  [[nodiscard]] std::size_t used() const {
    return static_cast<std::size_t>(std::count_if(routes.begin(), routes.end(), [](const auto& r) { return !r.empty(); }));
  }
};

/// The objective terms of a state: priority and count of the unassigned jobs and shipments (a
/// shipment counts once, by its pickup), used routes, cost. Rank with routesolve::better().
inline Score score(const Problem& p, const State& s) {
  Score out;
  for (const std::int32_t t : s.unassigned) {
    const Task& task = p.task(static_cast<std::size_t>(t));
    if (task.type == TaskType::Delivery) continue;  // counted with its pickup
    out.priority_lost += task.priority;
    ++out.unassigned;
  }
  out.routes = static_cast<std::int64_t>(s.used());
  out.cost = s.total();
  return out;
}

inline std::vector<std::size_t> as_tasks(const std::vector<std::int32_t>& seq) {
  return {seq.begin(), seq.end()};
}

/// schedule_route's cost of a task sequence on vehicle v (0 for an empty one); *feasible tells.
inline Cost schedule_cost(const Problem& p, std::size_t v, const std::vector<std::int32_t>& seq, bool* feasible) {
  if (seq.empty()) {
    *feasible = true;
    return 0;
  }
  const ScheduleResult r = schedule_route(p, v, as_tasks(seq));
  *feasible = r.feasible;
  return r.feasible ? r.route.cost : 0;
}

}  // namespace routesolve::cuda::batched
