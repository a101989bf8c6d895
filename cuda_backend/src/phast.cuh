#pragma once
// The PHAST/RPHAST downward sweep, written once for host and device: the restricted level CSR
// (RPHAST selection, nodes in sweep order) as a view, the per-node (min,+) functor, and the
// bodies of the three kernels (seed, per-level sweep, gather) with their launch shapes.
// phast.cu wraps each body in a one-line kernel; the host twin (phast_host.cpp) walks the same
// grids through the same bodies, so CI exercises the kernels' indexing without a GPU.
//
// The sweep and gather bodies serve a lane group: L consecutive threads of a block. A kernel
// runs them with L = 1 (one thread, one cell). The host twin walks each block in steps of L
// threads (a power of two that divides the tile width): every group then covers L consecutive
// columns of one node, and its inner loop over them is a contiguous, independent (min,+) that
// the compiler vectorises. A group that crosses a node's row or the block's end (only when L
// does not divide the width) runs lane by lane through the L = 1 path.
//
// Tile layout: D[node * width + column], node-major rows of `width` contiguous 64-bit keys, so
// the threads of a warp (consecutive columns) read and write contiguous memory. Local node 0 is
// the highest-ranked selected node; every arc comes from a node of an earlier (higher) level, so
// the nodes of one level segment are independent: one launch per level.
//
// Keys are the 64-bit PathKey: the (min,+) step is a 64-bit add + compare + min. Hopper's fused
// __viaddmin_s32 (add then min on 32-bit lanes) would need 32-bit keys, which would lose the
// length tie-break that makes durations AND distances exact; it is not used here.

#include <cstdint>

#include "device_span.cuh"
#include "launch_grid.cuh"

namespace routesolve::cuda::detail {

using Key = std::uint64_t;
inline constexpr Key kNoKey = ~Key{0};

/// Threads per block of every PHAST kernel.
inline constexpr std::uint32_t kPhastBlock = 256;

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

/// Relaxes the arcs into one node for N consecutive columns of the tile (the cells of N
/// threads): the N minima kept in registers, arcs outer, columns inner. N = 1 is one GPU thread.
struct RelaxNode {
  SweepGraphView graph;
  Key* tile = nullptr;
  std::uint32_t width = 0;

  template <std::uint32_t N>
  RS_HD void lanes(std::uint32_t node, std::uint32_t column) const noexcept {
    Key* row = tile + static_cast<std::uint64_t>(node) * width + column;
    Key best[N];
    for (std::uint32_t i = 0; i < N; ++i) best[i] = row[i];
    for (std::uint32_t a = graph.first_in[node]; a < graph.first_in[node + 1]; ++a) {
      const Key* src = tile + static_cast<std::uint64_t>(graph.tail[a]) * width + column;
      const Key w = graph.weight[a];
      for (std::uint32_t i = 0; i < N; ++i) best[i] = relax(best[i], src[i], w);
    }
    for (std::uint32_t i = 0; i < N; ++i) row[i] = best[i];
  }
};

// ---- Launch shapes (used by the launchers and by the host twin) -----------------------------

/// Seed: one thread per seed.
RS_HD constexpr Grid seed_grid(std::uint64_t seeds) noexcept {
  return linear_grid(seeds, kPhastBlock);
}

/// Sweep of one level of `count` nodes: a block holds block_dim / width nodes x width columns.
RS_HD constexpr Grid sweep_grid(std::uint32_t count, std::uint32_t width) noexcept {
  return Grid{blocks_for(count, kPhastBlock / width), kPhastBlock};
}

/// Gather: one thread per (target, column).
RS_HD constexpr Grid gather_grid(std::uint64_t targets, std::uint32_t width) noexcept {
  return linear_grid(targets * width, kPhastBlock);
}

// ---- Thread mappings ------------------------------------------------------------------------

/// The (level-local node, column) a sweep thread owns; inactive past the level's end, and for the
/// block_dim % width threads left over when width does not divide the block.
struct SweepCell {
  std::uint32_t local = 0;
  std::uint32_t column = 0;
  bool active = false;
};

RS_HD inline SweepCell sweep_cell(std::uint32_t thread, std::uint32_t block,
                                  std::uint32_t block_dim, std::uint32_t width,
                                  std::uint32_t count) noexcept {
  const std::uint32_t nodes_per_block = block_dim / width;
  const std::uint32_t slot = thread / width;
  const std::uint32_t local = block * nodes_per_block + slot;
  return SweepCell{local, thread % width, slot < nodes_per_block && local < count};
}

// ---- Kernel bodies --------------------------------------------------------------------------

/// tile[seed.node * width + seed.column] = seed.key for the thread's seed.
RS_HD inline void seed_thread(std::uint32_t thread, std::uint32_t block, std::uint32_t block_dim,
                              DeviceSpan<const Seed> seeds, Key* tile,
                              std::uint32_t width) noexcept {
  const std::uint64_t i = global_thread(thread, block, block_dim);
  if (i >= seeds.size()) return;
  const Seed s = seeds[i];
  tile[static_cast<std::uint64_t>(s.node) * width + s.column] = s.key;
}

/// The sweep body of the threads [thread, thread + L) of a block, over the level's local nodes
/// [first, first + count): when their cells are L consecutive columns of one node (the first
/// lane's column + L stays in the row: the lanes share its node and its activity), one
/// `relax_node.lanes<L>` call; otherwise each lane in the block on its own. `Relax` is RelaxNode
/// (tests pass a recorder with the same `width` and `lanes<N>(node, column)`).
template <std::uint32_t L, typename Relax>
RS_HD inline void sweep_lanes(std::uint32_t thread, std::uint32_t block, std::uint32_t block_dim,
                              const Relax& relax_node, std::uint32_t first,
                              std::uint32_t count) noexcept {
  static_assert(L >= 1, "a lane group has at least one thread");
  const SweepCell cell = sweep_cell(thread, block, block_dim, relax_node.width, count);
  if (cell.column + L <= relax_node.width) {  // always so for L = 1
    if (cell.active) relax_node.template lanes<L>(first + cell.local, cell.column);
    return;
  }
  if constexpr (L > 1) {
    for (std::uint32_t i = 0; i < L && thread + i < block_dim; ++i)
      sweep_lanes<1>(thread + i, block, block_dim, relax_node, first, count);
  }
}

/// The gather body of the threads [thread, thread + L) of a block: global thread i writes
/// out[i] = tile[target_local[i / width] * width + i % width] (out: the target rows, contiguous).
/// A group inside one target row and the block copies its L keys in one loop; otherwise each
/// lane on its own.
template <std::uint32_t L>
RS_HD inline void gather_lanes(std::uint32_t thread, std::uint32_t block, std::uint32_t block_dim,
                               const Key* tile, std::uint32_t width,
                               DeviceSpan<const std::uint32_t> target_local, Key* out) noexcept {
  static_assert(L >= 1, "a lane group has at least one thread");
  const std::uint64_t i = global_thread(thread, block, block_dim);
  if (i >= target_local.size() * width) return;
  const std::uint64_t j = i / width;
  const std::uint64_t c = i % width;
  if (c + L <= width && thread + L <= block_dim) {  // always so for L = 1
    const Key* src = tile + static_cast<std::uint64_t>(target_local[j]) * width + c;
    for (std::uint32_t l = 0; l < L; ++l) out[i + l] = src[l];
    return;
  }
  if constexpr (L > 1) {
    for (std::uint32_t l = 0; l < L && thread + l < block_dim; ++l)
      gather_lanes<1>(thread + l, block, block_dim, tile, width, target_local, out);
  }
}

}  // namespace routesolve::cuda::detail
