#pragma once
// Pricing helpers shared by the inter-route operators on a WorkingSolution (relocate, swap,
// 2-opt*, SWAP*): arc costs with open routes, the neighbours of a position, tour costs as the
// solution counts them, and the exact settlement of a screened move from its two new tours.

#include <cstddef>

#include "routesolve/hd/score.hpp"
#include "routesolve/search/working_solution.hpp"

namespace routesolve::search::inter_route {

/// Arc cost, 0 when an end is missing (open routes), kUnreachable when there is no path.
inline Cost arc(const TravelView& tv, std::size_t a, std::size_t b) {
  if (a == kNone || b == kNone) return 0;
  const Cost c = tv.cost(a, b);
  return c >= kUnreachable ? kUnreachable : c;
}

/// Location of the node before tasks[i] (the start for i = 0) and after tasks[i] (the end).
inline std::size_t before_location(const WorkingSolution& s, std::size_t v, std::size_t i) {
  return i == 0 ? s.problem().vehicle(v).start : s.problem().task(s.tour(v).tasks[i - 1]).location;
}
inline std::size_t after_location(const WorkingSolution& s, std::size_t v, std::size_t i) {
  const auto& tasks = s.tour(v).tasks;
  return i + 1 >= tasks.size() ? s.problem().vehicle(v).end
                               : s.problem().task(tasks[i + 1]).location;
}

/// Cost of a whole route segment on vehicle v as WorkingSolution counts it.
inline Cost tour_cost(const WorkingSolution& s, std::size_t v, const RouteSegment& route) {
  return route.tasks == 0 ? 0 : route.cost + s.problem().fixed_cost(v);
}

/// Feasible, or an empty tour (which costs nothing and is never scheduled).
inline bool acceptable(const SegmentModel& m, std::size_t v, const RouteSegment& route) {
  return route.tasks == 0 || m.feasible(v, route);
}

/// Prices a screened move exactly from its two new tours (delta.cost; delta.routes is set by
/// the caller); true when it beats the bound.
inline bool settle(const WorkingSolution& s, std::size_t v1, const RouteSegment& r1, std::size_t v2,
                   const RouteSegment& r2, Objective objective, Score& delta, const Score& bound) {
  delta.cost = tour_cost(s, v1, r1) + tour_cost(s, v2, r2) - s.tour(v1).cost - s.tour(v2).cost;
  return better(delta, bound, objective);
}

inline bool is_job(const WorkingSolution& s, std::size_t t) {
  return s.problem().task(t).sibling == kNone;
}

/// Change of the number of used tours when two tours go from before1/before2 to after1/after2
/// tasks.
inline std::int64_t used_change(std::size_t before1, std::size_t after1, std::size_t before2,
                                std::size_t after2) {
  auto used = [](std::size_t n) -> std::int64_t { return n > 0 ? 1 : 0; };
  return used(after1) - used(before1) + used(after2) - used(before2);
}

/// Tasks of tour v from position `from` on keep their shipment partners in the same tail.
inline bool tail_keeps_pairs(const WorkingSolution& s, std::size_t v, std::size_t from) {
  const auto& tasks = s.tour(v).tasks;
  for (std::size_t k = from; k < tasks.size(); ++k) {
    const std::size_t sibling = s.problem().task(tasks[k]).sibling;
    if (sibling != kNone && s.position_of(sibling) < from) return false;
  }
  return true;
}

}  // namespace routesolve::search::inter_route
