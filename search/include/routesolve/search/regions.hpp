#pragma once
// Disjoint regions of one solution for chains that search it at the same time: each region is
// a set of tours near each other with about the same number of tasks, plus a share of the empty
// vehicles and of the unassigned tasks. The chains' changes, each inside its own region, put
// together make one solution again (parallel_search.hpp).

#include <cstddef>
#include <vector>

#include "routesolve/problem.hpp"
#include "routesolve/search/tour_plan.hpp"

namespace routesolve::search {

struct Regions {
  std::vector<std::size_t> owner;           ///< region of every vehicle
  std::vector<std::vector<char>> vehicles;  ///< per region: its vehicles
  std::vector<std::vector<char>> tasks;     ///< per region: the unassigned tasks it may insert
};

/// Splits `plan` into `count` regions, or returns no region (empty) when it has fewer than two
/// used tours per region. The used tours are ordered by a nearest-neighbour chain over their
/// middle visits (travel cost between them, both ways), starting at the `start`-th used tour
/// (mod their number: a different start moves the borders), and cut into `count` runs of about
/// equal task counts; empty vehicles and unassigned tasks are dealt out in turn.
Regions split_regions(const Problem& problem, const TourPlan& plan, std::size_t count,
                      std::size_t start);

}  // namespace routesolve::search
