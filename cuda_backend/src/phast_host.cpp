// Host half of the PHAST/RPHAST matrices (see phast_host.hpp): target selection, upward
// searches, result unpacking and the host twin's sweeps. Compiled like route_eval_host.cpp:
// g++, OpenMP, Thrust with the OpenMP device system, in every build.
//
// The host twin runs a tile exactly as the device does: fill with kNoKey, the seed kernel's
// grid, one sweep grid per level, the gather grid, then unpack_tile, every kernel through its
// body (phast.cuh) over its launch shape; the sweep and gather grids in lane groups of
// host_lanes(width) threads, whose column loops vectorise. It parallelises over tiles (each OpenMP
// thread sweeps its own tile of sources through all levels, walking the grids in order) rather
// than over the blocks of a level: on a few cores that avoids one barrier per level, and each
// thread's tile stays in its own cache.

#include "phast_host.hpp"

#include <omp.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/sort.h>
#include <thrust/system/omp/execution_policy.h>

#include <algorithm>
#include <chrono>
#include <functional>

#include "host_grid.hpp"
#include "routesolve/timing.hpp"
#include "routesolve/types.hpp"

namespace routesolve::cuda::detail {
namespace {

inline void store(NodeMatrices* m, std::size_t at, Key key) {
  if (key == kNoKey) {
    m->durations[at] = kUnreachable;
    m->distances[at] = kUnreachable;
  } else {
    m->durations[at] = static_cast<std::int64_t>(key_duration(key));
    m->distances[at] = static_cast<std::int64_t>(key_length(key));
  }
}

}  // namespace

Selection select_targets(const ContractionHierarchy& ch, const std::vector<NodeId>& targets) {
  const std::size_t n = ch.node_count();
  Selection s;
  s.targets = targets;
  // Every node from which a target is reachable downward: a search from the targets along the
  // reversed downward arcs (to higher ranks).
  std::vector<std::uint8_t> marked(n, 0);
  std::vector<std::uint32_t> stack, selected;
  for (const NodeId t : targets) {
    const std::uint32_t r = ch.rank[t];
    if (!marked[r]) {
      marked[r] = 1;
      stack.push_back(r);
    }
  }
  while (!stack.empty()) {
    const std::uint32_t r = stack.back();
    stack.pop_back();
    selected.push_back(r);
    for (std::uint32_t a = ch.down_first_in[r]; a < ch.down_first_in[r + 1]; ++a) {
      const std::uint32_t u = ch.down_tail[a];
      if (!marked[u]) {
        marked[u] = 1;
        stack.push_back(u);
      }
    }
  }
  // Sweep order: rank descending, which groups the levels top-down.
  thrust::sort(thrust::omp::par, selected.begin(), selected.end(),
               thrust::greater<std::uint32_t>());
  s.local_of_rank.assign(n, kNoNode);
  for (std::size_t i = 0; i < selected.size(); ++i)
    s.local_of_rank[selected[i]] = static_cast<std::uint32_t>(i);

  s.first_in.assign(selected.size() + 1, 0);
  for (std::size_t i = 0; i < selected.size(); ++i)
    s.first_in[i + 1] =
        s.first_in[i] + (ch.down_first_in[selected[i] + 1] - ch.down_first_in[selected[i]]);
  s.tail.resize(s.first_in.back());
  s.weight.resize(s.first_in.back());
  for (std::size_t i = 0; i < selected.size(); ++i) {
    std::uint32_t out = s.first_in[i];
    for (std::uint32_t a = ch.down_first_in[selected[i]]; a < ch.down_first_in[selected[i] + 1];
         ++a, ++out) {
      s.tail[out] = s.local_of_rank[ch.down_tail[a]];
      s.weight[out] = ch.down_weight[a];
    }
  }
  s.level_first.push_back(0);
  for (std::size_t i = 1; i < selected.size(); ++i)
    if (ch.level[selected[i]] != ch.level[selected[i - 1]])
      s.level_first.push_back(static_cast<std::uint32_t>(i));
  if (!selected.empty()) s.level_first.push_back(static_cast<std::uint32_t>(selected.size()));
  s.target_local.resize(targets.size());
  for (std::size_t j = 0; j < targets.size(); ++j)
    s.target_local[j] = s.local_of_rank[ch.rank[targets[j]]];
  return s;
}

UpwardSearch::UpwardSearch(std::size_t nodes) : dist_(nodes, kNoKey), stamp_(nodes, 0) {}

void UpwardSearch::seeds(const ContractionHierarchy& ch, const Selection& selection, NodeId source,
                         std::uint32_t column, std::vector<Seed>* out) {
  if (++current_ == 0) {  // stamps wrapped: start afresh
    std::fill(stamp_.begin(), stamp_.end(), 0);
    current_ = 1;
  }
  const auto dist = [this](std::uint32_t v) { return stamp_[v] == current_ ? dist_[v] : kNoKey; };
  heap_.clear();
  const std::uint32_t start = ch.rank[source];
  stamp_[start] = current_;
  dist_[start] = 0;
  heap_.push_back({0, start});
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), std::greater<>{});
    const auto [d, u] = heap_.back();
    heap_.pop_back();
    if (d != dist_[u]) continue;
    if (selection.local_of_rank[u] != kNoNode)
      out->push_back({selection.local_of_rank[u], column, d});
    for (std::uint32_t a = ch.up_first_out[u]; a < ch.up_first_out[u + 1]; ++a) {
      const std::uint32_t x = ch.up_head[a];
      const Key nd = saturating_add(d, ch.up_weight[a]);
      ++relaxations;
      if (nd < dist(x)) {
        stamp_[x] = current_;
        dist_[x] = nd;
        heap_.push_back({nd, x});
        std::push_heap(heap_.begin(), heap_.end(), std::greater<>{});
      }
    }
  }
}

void unpack_tile(const Key* tile_out, std::size_t width, std::size_t columns,
                 std::size_t first_source, NodeMatrices* matrices) {
  // kBlock columns (one cache line of a result row) at a time: each line of the result tile is
  // read once, and kBlock matrix rows are written front to back side by side.
  constexpr std::size_t kBlock = 8;
  const std::size_t targets = matrices->cols;
  for (std::size_t c0 = 0; c0 < columns; c0 += kBlock) {
    const std::size_t c1 = std::min(columns, c0 + kBlock);
    for (std::size_t j = 0; j < targets; ++j)
      for (std::size_t c = c0; c < c1; ++c)
        store(matrices, (first_source + c) * targets + j, tile_out[j * width + c]);
  }
}

void seed_tile(const std::vector<Seed>& seeds, Key* tile, std::uint32_t width) {
  const DeviceSpan<const Seed> view{seeds.data(), seeds.size()};
  run_grid(seed_grid(seeds.size()), [&](std::uint32_t t, std::uint32_t b, std::uint32_t dim) {
    seed_thread(t, b, dim, view, tile, width);
  });
}

std::uint32_t host_lanes(std::uint32_t width) noexcept {
  std::uint32_t lanes = 1;
  while (lanes < kMaxHostLanes && width % (2 * lanes) == 0) lanes *= 2;
  return lanes;
}

namespace {

/// The sweep kernel's grid for each level, levels top-down: every block, in steps of L threads,
/// through sweep_lanes<L>.
template <std::uint32_t L>
inline void sweep_levels_in(const RelaxNode& relax_node, const std::uint32_t* level_first,
                            std::size_t levels) {
  for (std::size_t l = 0; l < levels; ++l) {
    const std::uint32_t first = level_first[l];
    const std::uint32_t count = level_first[l + 1] - first;
    const Grid grid = sweep_grid(count, relax_node.width);
    for (std::uint32_t b = 0; b < grid.blocks; ++b)
      for (std::uint32_t t = 0; t < grid.threads; t += L)
        sweep_lanes<L>(t, b, grid.threads, relax_node, first, count);
  }
}

// The level loop is cloned per instruction set and the clone chosen at load time: AVX-512 has
// an unsigned 64-bit compare and min, AVX2 only a signed 64-bit compare (the unsigned one costs
// two sign flips), the default x86-64 target (SSE2) no 64-bit vector compare at all. `flatten`
// inlines the lane bodies into each clone, so that their column loops are compiled for its
// instruction set. Without unroll-and-jam (-O3 jams two iterations of the arc loop, after
// which GCC 12 vectorises the second copy's column loop into scalar loads and inserts) the
// column loop is plain vector (min,+) on the N keys of the group.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define ROUTESOLVE_SWEEP_CLONES                                        \
  __attribute__((target_clones("avx512f", "avx2", "default"), flatten, \
                 optimize("no-loop-unroll-and-jam")))
#else
#define ROUTESOLVE_SWEEP_CLONES
#endif

ROUTESOLVE_SWEEP_CLONES void sweep_levels_cloned(const RelaxNode& relax_node,
                                                 const std::uint32_t* level_first,
                                                 std::size_t levels, std::uint32_t lanes) {
  switch (lanes) {
    case 8:
      return sweep_levels_in<8>(relax_node, level_first, levels);
    case 16:
      return sweep_levels_in<16>(relax_node, level_first, levels);
    case 32:
      return sweep_levels_in<32>(relax_node, level_first, levels);
    case 64:
      return sweep_levels_in<64>(relax_node, level_first, levels);
    default:
      return sweep_levels_in<1>(relax_node, level_first, levels);
  }
}

#undef ROUTESOLVE_SWEEP_CLONES

template <std::uint32_t L>
void gather_targets_in(const Key* tile, std::uint32_t width,
                       DeviceSpan<const std::uint32_t> targets, Key* out) {
  const Grid grid = gather_grid(targets.size(), width);
  for (std::uint32_t b = 0; b < grid.blocks; ++b)
    for (std::uint32_t t = 0; t < grid.threads; t += L)
      gather_lanes<L>(t, b, grid.threads, tile, width, targets, out);
}

}  // namespace

void sweep_levels(const RelaxNode& relax_node, const std::uint32_t* level_first, std::size_t levels,
                  std::uint32_t lanes) {
  sweep_levels_cloned(relax_node, level_first, levels, lanes);
}

void sweep_levels(const RelaxNode& relax_node, const std::uint32_t* level_first,
                  std::size_t levels) {
  sweep_levels(relax_node, level_first, levels, host_lanes(relax_node.width));
}

void gather_targets(const Key* tile, std::uint32_t width,
                    const std::vector<std::uint32_t>& target_local, Key* out, std::uint32_t lanes) {
  const DeviceSpan<const std::uint32_t> targets{target_local.data(), target_local.size()};
  switch (lanes) {
    case 8:
      return gather_targets_in<8>(tile, width, targets, out);
    case 16:
      return gather_targets_in<16>(tile, width, targets, out);
    case 32:
      return gather_targets_in<32>(tile, width, targets, out);
    case 64:
      return gather_targets_in<64>(tile, width, targets, out);
    default:
      return gather_targets_in<1>(tile, width, targets, out);
  }
}

void gather_targets(const Key* tile, std::uint32_t width,
                    const std::vector<std::uint32_t>& target_local, Key* out) {
  gather_targets(tile, width, target_local, out, host_lanes(width));
}

void host_sweeps(const ContractionHierarchy& ch, const Selection& selection,
                 const std::vector<NodeId>& sources, unsigned width, unsigned threads,
                 NodeMatrices* matrices, HostStageTimes* times) {
  const std::size_t tiles = (sources.size() + width - 1) / width;
  const std::size_t nodes = selection.nodes();
  const std::size_t targets = selection.target_local.size();
  double upward = 0.0, sweep = 0.0, unpack = 0.0;
  std::uint64_t upward_relaxations = 0;
  const int team =
      static_cast<int>(std::max<std::size_t>(1, std::min<std::size_t>(threads, tiles)));
#pragma omp parallel num_threads(team) reduction(+ : upward, sweep, unpack, upward_relaxations)
  {
    UpwardSearch search(ch.node_count());
    std::vector<Key> tile(nodes * width), out(targets * width);
    std::vector<Seed> seeds;
    const RelaxNode relax_node{selection.view(), tile.data(), width};
#pragma omp for schedule(dynamic, 1)
    for (std::size_t t = 0; t < tiles; ++t) {
      const std::size_t first = t * width;
      const std::size_t columns = std::min<std::size_t>(width, sources.size() - first);
      auto at = Clock::now();
      seeds.clear();
      for (std::size_t c = 0; c < columns; ++c)
        search.seeds(ch, selection, sources[first + c], static_cast<std::uint32_t>(c), &seeds);
      upward += seconds_since(at);

      at = Clock::now();
      std::fill(tile.begin(), tile.end(), kNoKey);
      seed_tile(seeds, tile.data(), width);
      sweep_levels(relax_node, selection.level_first.data(), selection.levels());
      gather_targets(tile.data(), width, selection.target_local, out.data());
      sweep += seconds_since(at);

      at = Clock::now();
      unpack_tile(out.data(), width, columns, first, matrices);
      unpack += seconds_since(at);
    }
    upward_relaxations += search.relaxations;
  }
  if (times != nullptr) *times = HostStageTimes{upward, sweep, unpack, upward_relaxations};
}

}  // namespace routesolve::cuda::detail
