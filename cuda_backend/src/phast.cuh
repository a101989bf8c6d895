#pragma once
// The PHAST/RPHAST downward sweep, written once for host and device: the restricted level CSR
// (RPHAST selection, nodes in sweep order) as a view, and the per-node (min,+) functor.
//
// Tile layout: D[node * width + column], node-major rows of `width` contiguous 64-bit keys, so
// the threads of a warp (consecutive columns) read and write contiguous memory, and the host
// loop's inner column loop vectorises. Local node 0 is the highest-ranked selected node; every
// arc comes from a node of an earlier (higher) level, so the nodes of one level segment are
// independent: one kernel launch (device) or one loop (host) per level.
//
// Keys are the 64-bit PathKey: the (min,+) step is a 64-bit add + compare + min. Hopper's fused
// __viaddmin_s32 (add then min on 32-bit lanes) would need 32-bit keys, which would lose the
// length tie-break that makes durations AND distances exact; it is not used here.

#include <cstdint>

#include "device_span.cuh"

namespace routesolve::cuda::detail {

using Key = std::uint64_t;
inline constexpr Key kNoKey = ~Key{0};

/// min(best, from + w), where an unreachable `from` (or an overflowing sum) stays unreachable.
RS_HD inline Key relax(Key best, Key from, Key w) noexcept {
  Key sum = from + w;
  sum = sum < from ? kNoKey : sum;
  return sum < best ? sum : best;
}

/// The restricted downward graph in sweep order: the arcs into local node v come from the
/// higher-level nodes tail[first_in[v] .. first_in[v+1]).
struct SweepGraphView {
  DeviceSpan<const std::uint32_t> first_in;  ///< nodes + 1 entries
  DeviceSpan<const std::uint32_t> tail;      ///< local index of each arc's tail
  DeviceSpan<const Key> weight;              ///< key of each arc
};

/// One upward-search result: D[node][column] starts at key.
struct Seed {
  std::uint32_t node = 0;
  std::uint32_t column = 0;
  Key key = kNoKey;
};

/// Relaxes the arcs into a node over a tile of columns.
struct RelaxNode {
  SweepGraphView graph;
  Key* tile = nullptr;
  std::uint32_t width = 0;

  /// One column (one GPU thread): the minimum kept in a register.
  RS_HD void operator()(std::uint32_t node, std::uint32_t column) const noexcept {
    Key* row = tile + static_cast<std::uint64_t>(node) * width;
    Key best = row[column];
    for (std::uint32_t a = graph.first_in[node]; a < graph.first_in[node + 1]; ++a)
      best = relax(best, tile[static_cast<std::uint64_t>(graph.tail[a]) * width + column], graph.weight[a]);
    row[column] = best;
  }

  /// Every column of the node (host loop): arcs outer, columns inner, so that the column loop
  /// is a contiguous, vectorisable (min,+) over two rows.
  RS_HD void row(std::uint32_t node) const noexcept {
    Key* __restrict__ dst = tile + static_cast<std::uint64_t>(node) * width;
    for (std::uint32_t a = graph.first_in[node]; a < graph.first_in[node + 1]; ++a) {
      const Key* __restrict__ src = tile + static_cast<std::uint64_t>(graph.tail[a]) * width;
      const Key w = graph.weight[a];
      for (std::uint32_t c = 0; c < width; ++c) dst[c] = relax(dst[c], src[c], w);
    }
  }
};

}  // namespace routesolve::cuda::detail
