#pragma once
// Locations renumbered for the cache. The search reads the travel matrices at pairs of places
// that are near each other (a task and the tours around it); when the matrix rows are in the
// input's order, each such read is a cache miss on a table of n x n entries (100 MB at 5,000
// locations). Renumbered so that near places get near indices, the reads of one step fall on a
// few cache lines of a few rows. The search then runs on a copy of the problem with its
// locations in that order: tasks and vehicles keep their indices and every arc its value, so a
// plan (task indices per vehicle) means the same in both, and the solution is written against
// the user's problem.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "routesolve/problem.hpp"

namespace routesolve::search {

/// The order of the locations: order[k] is the location that gets index k. The locations of
/// tasks and vehicles come first, along a Hilbert curve over their coordinates when every one
/// has coordinates, else along a nearest-neighbour chain of the first travel table's costs
/// (O(n^2)); unused locations follow in their order.
std::vector<std::size_t> locality_order(const Problem& problem);

/// A copy of `problem` with its locations in locality_order (Problem::relocated). Null when it
/// would not pay or cannot be made: fewer than `min_locations` locations, or a copy of the
/// matrices of more than `max_bytes` or more than half of the available memory
/// (memory_budget.hpp).
ProblemPtr locality_ordered(const Problem& problem, std::size_t min_locations,
                            std::uint64_t max_bytes);

}  // namespace routesolve::search
