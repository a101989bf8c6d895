#pragma once
// io-private: turns the raw arcs of any importer into a RoadNetwork (CSR, largest strongly
// connected component, compact node ids) and fills the report.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "routesolve/road_graph.hpp"

namespace routesolve::network {

/// One directed arc as read, before cleaning.
struct RawArc {
  NodeId tail = 0, head = 0;
  std::uint32_t duration = 0, length = 0;
};

/// Builds the network of `arcs` over nodes 0..node_count-1 (coords: one per node, or empty):
/// drops self loops, keeps the smallest key among parallel arcs, keeps the largest strongly
/// connected component (ties: the one holding the smallest node id), renumbers its nodes in
/// increasing old id, and sorts arcs by (tail, head). `started` is when the import began.
/// Throws invalid_input("<source>", ...) when no arc is left.
/// Throws Error(OutOfMemory) naming `source` when building a network of this size cannot fit in
/// the available memory (routesolve/memory_budget.hpp).
void check_network_memory(std::size_t node_count, std::size_t arc_count, const std::string& source);

RoadNetwork build_network(std::size_t node_count, std::vector<RawArc> arcs,
                          std::vector<Coordinates> coords, std::string source,
                          std::chrono::steady_clock::time_point started);

/// Strongly connected components of a CSR graph, iterative (no recursion): component id per
/// node, numbered 0..count-1. Returns the count.
std::size_t strongly_connected_components(const std::vector<std::uint32_t>& first_out,
                                          const std::vector<NodeId>& head,
                                          std::vector<std::uint32_t>& component);

}  // namespace routesolve::network
