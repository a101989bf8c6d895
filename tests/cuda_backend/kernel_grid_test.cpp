// The host twins walk the kernels' launch grids: the launch-shape helpers (the launchers use the
// same ones) cover every item with the fewest blocks, every thread mapping writes each output
// element exactly once, and the host twin of each kernel, driven piece by piece, equals a plain
// reference (Dijkstra, recomputation) exactly. Sizes exercise partial blocks, several tiles,
// several levels and empty routes; widths that do not divide the block leave idle threads. The
// sweep and gather bodies also run in lane groups of L threads (the host twin's walk): L = 1
// (the device), L dividing the width (whole groups), and L that does not (groups that cross a
// row, the block's idle tail or the block's end, which run lane by lane).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "launch_grid.cuh"
#include "phast.cuh"
#include "phast_host.hpp"
#include "road_graph_fixture.hpp"
#include "route_batch_fixture.hpp"
#include "route_eval.cuh"
#include "route_eval_host.hpp"
#include "routesolve/contraction_hierarchy.hpp"
#include "warp_sum.cuh"

namespace routesolve::cuda::detail {
namespace {

const std::vector<std::uint64_t> kCounts{0, 1, 7, 8, 9, 31, 32, 33, 255, 256, 257, 1000, 4097};
const std::vector<std::uint32_t> kWidths{8, 16, 24, 32, 40, 64, 128, 200, 256};

/// The fewest blocks of `per_block` that cover `items`.
void expect_tight(const Grid& grid, std::uint64_t items, std::uint64_t per_block) {
  EXPECT_GE(std::uint64_t{grid.blocks} * per_block, items) << items << " items";
  if (grid.blocks > 0) {
    EXPECT_LT(std::uint64_t{grid.blocks - 1} * per_block, items) << items << " items";
  }
}

TEST(LaunchShape, EveryKernelCoversItsItemsWithTheFewestBlocks) {
  for (const std::uint64_t n : kCounts) {
    EXPECT_EQ(seed_grid(n).threads, kPhastBlock);
    expect_tight(seed_grid(n), n, kPhastBlock);
    EXPECT_EQ(route_eval_grid(n).threads, kRouteEvalBlock);
    expect_tight(route_eval_grid(n), n, kRouteEvalBlock / kWarp);  // one warp per route
    for (const std::uint32_t w : kWidths) {
      const Grid sweep = sweep_grid(static_cast<std::uint32_t>(n), w);
      EXPECT_EQ(sweep.threads, kPhastBlock);
      expect_tight(sweep, n, kPhastBlock / w);  // whole nodes per block
      expect_tight(gather_grid(n, w), n * w, kPhastBlock);
    }
  }
}

TEST(LaunchShape, SweepMappingWritesEveryCellOnce) {
  for (const std::uint64_t n : kCounts)
    for (const std::uint32_t w : kWidths) {
      const auto count = static_cast<std::uint32_t>(n);
      const Grid grid = sweep_grid(count, w);
      std::vector<int> writes(std::size_t{count} * w, 0);
      for (std::uint32_t b = 0; b < grid.blocks; ++b)
        for (std::uint32_t t = 0; t < grid.threads; ++t) {
          const SweepCell cell = sweep_cell(t, b, grid.threads, w, count);
          if (!cell.active) continue;
          ASSERT_LT(cell.local, count);
          ASSERT_LT(cell.column, w);
          ++writes[std::size_t{cell.local} * w + cell.column];
        }
      for (std::size_t i = 0; i < writes.size(); ++i)
        ASSERT_EQ(writes[i], 1) << "count " << count << ", width " << w << ", cell " << i;
    }
}

/// Stands in for RelaxNode: counts the writes of each cell and the group sizes it was called with.
struct CellRecorder {
  std::uint32_t width = 0;
  std::uint32_t first = 0, count = 0;
  std::vector<int>* writes = nullptr;
  std::vector<std::uint32_t>* group_sizes = nullptr;

  template <std::uint32_t N>
  void lanes(std::uint32_t node, std::uint32_t column) const {
    ASSERT_GE(node, first);
    ASSERT_LT(node - first, count);
    ASSERT_LE(column + N, width);
    for (std::uint32_t i = 0; i < N; ++i)
      ++(*writes)[std::size_t{node - first} * width + column + i];
    group_sizes->push_back(N);
  }
};

/// Walks the sweep grid of `count` nodes in steps of L threads through sweep_lanes<L>; every
/// cell is written once, by a whole group of L or by a single lane. Returns the group sizes.
template <std::uint32_t L>
std::vector<std::uint32_t> expect_sweep_groups_write_every_cell_once(std::uint32_t count,
                                                                     std::uint32_t width) {
  constexpr std::uint32_t kFirst = 5;  // the level's first local node
  const Grid grid = sweep_grid(count, width);
  std::vector<int> writes(std::size_t{count} * width, 0);
  std::vector<std::uint32_t> sizes;
  const CellRecorder recorder{width, kFirst, count, &writes, &sizes};
  for (std::uint32_t b = 0; b < grid.blocks; ++b)
    for (std::uint32_t t = 0; t < grid.threads; t += L)
      sweep_lanes<L>(t, b, grid.threads, recorder, kFirst, count);
  EXPECT_EQ(
      std::count_if(sizes.begin(), sizes.end(), [](std::uint32_t n) { return n != L && n != 1; }),
      0);
  const auto wrong = std::find_if(writes.begin(), writes.end(), [](int w) { return w != 1; });
  EXPECT_TRUE(wrong == writes.end()) << "L " << L << ", count " << count << ", width " << width
                                     << ": cell " << (wrong - writes.begin()) << " written "
                                     << (wrong == writes.end() ? 1 : *wrong) << " times";
  return sizes;
}

TEST(LaunchShape, SweepLaneGroupsWriteEveryCellOnce) {
  for (const std::uint64_t n : kCounts)
    for (const std::uint32_t w : kWidths) {
      const auto count = static_cast<std::uint32_t>(n);
      const auto one = expect_sweep_groups_write_every_cell_once<1>(count, w);
      EXPECT_EQ(one.size(), std::size_t{count} * w);
      // L dividing the width: whole groups only, width / L per node.
      const auto eight = expect_sweep_groups_write_every_cell_once<8>(count, w);
      EXPECT_EQ(eight.size(), std::size_t{count} * w / 8);
      for (const std::uint32_t size : eight) EXPECT_EQ(size, 8u);
      // L not dividing the width (16 for 24, 40, 200; 64 for all but 64's multiples) or the
      // block (3): the groups crossing a row or the block's end run lane by lane.
      expect_sweep_groups_write_every_cell_once<16>(count, w);
      expect_sweep_groups_write_every_cell_once<32>(count, w);
      expect_sweep_groups_write_every_cell_once<64>(count, w);
      expect_sweep_groups_write_every_cell_once<3>(count, w);
    }
  // Partial groups do occur: width 24 with L = 16 is one group per row, the rest lane by lane.
  const auto sizes = expect_sweep_groups_write_every_cell_once<16>(20, 24);
  EXPECT_EQ(std::count(sizes.begin(), sizes.end(), 16u), 20);
  EXPECT_EQ(std::count(sizes.begin(), sizes.end(), 1u), 20 * 8);
}

/// Walks the gather grid in steps of L threads through gather_lanes<L> into a poisoned output
/// with a guard past its end: every key lands in place, nothing past the end is written.
template <std::uint32_t L>
void expect_gather_groups_copy_every_key(const std::vector<Key>& tile, std::uint32_t width,
                                         const std::vector<std::uint32_t>& target_local) {
  const Grid grid = gather_grid(target_local.size(), width);
  const std::size_t size = target_local.size() * width;
  std::vector<Key> out(size + L + kPhastBlock, kNoKey);
  const DeviceSpan<const std::uint32_t> targets{target_local.data(), target_local.size()};
  for (std::uint32_t b = 0; b < grid.blocks; ++b)
    for (std::uint32_t t = 0; t < grid.threads; t += L)
      gather_lanes<L>(t, b, grid.threads, tile.data(), width, targets, out.data());
  for (std::size_t j = 0; j < target_local.size(); ++j)
    for (std::uint32_t c = 0; c < width; ++c)
      ASSERT_EQ(out[j * width + c], tile[std::size_t{target_local[j]} * width + c])
          << "L " << L << ", width " << width << ", target " << j << ", column " << c;
  for (std::size_t i = size; i < out.size(); ++i)
    ASSERT_EQ(out[i], kNoKey) << "L " << L << ", width " << width;
}

TEST(LaunchShape, GatherLaneGroupsCopyEveryKeyInPlace) {
  std::mt19937_64 rng(5);
  for (const std::uint32_t w : kWidths)
    for (const std::uint64_t n : {0, 1, 37, 300}) {
      const std::uint32_t nodes = 50;
      std::vector<Key> tile(std::size_t{nodes} * w);
      for (std::size_t i = 0; i < tile.size(); ++i) tile[i] = i * 3 + 1;
      std::vector<std::uint32_t> target_local(n);
      for (std::uint32_t& t : target_local) t = static_cast<std::uint32_t>(rng() % nodes);
      expect_gather_groups_copy_every_key<1>(tile, w, target_local);
      expect_gather_groups_copy_every_key<8>(tile, w, target_local);
      expect_gather_groups_copy_every_key<16>(tile, w, target_local);
      expect_gather_groups_copy_every_key<64>(tile, w, target_local);
      expect_gather_groups_copy_every_key<3>(tile, w, target_local);  // groups cross blocks
    }
}

TEST(LaunchShape, HostLanesDivideTheWidth) {
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> expected{
      {1, 1}, {8, 8}, {12, 4}, {16, 16}, {24, 8}, {32, 32}, {40, 8}, {64, 32}, {200, 8}, {256, 32}};
  for (const auto& [width, lanes] : expected)
    EXPECT_EQ(host_lanes(width), lanes) << "width " << width;
  for (std::uint32_t width = 1; width <= 256; ++width) {
    const std::uint32_t lanes = host_lanes(width);
    EXPECT_EQ(width % lanes, 0u) << width;
    EXPECT_LE(lanes, kMaxHostLanes);
  }
}

TEST(LaunchShape, RouteMappingHasOneWarpAndOneWriterPerRoute) {
  for (const std::uint64_t routes : kCounts) {
    const Grid grid = route_eval_grid(routes);
    std::vector<int> writers(routes, 0), lanes(routes, 0);
    for (std::uint32_t b = 0; b < grid.blocks; ++b)
      for (std::uint32_t t = 0; t < grid.threads; ++t) {
        const RouteLane at = route_lane(t, b, grid.threads);
        ASSERT_LT(at.lane, kWarp);
        if (at.route >= routes) continue;
        ++lanes[at.route];
        if (at.lane == 0) ++writers[at.route];
      }
    for (std::uint64_t r = 0; r < routes; ++r) {
      ASSERT_EQ(writers[r], 1) << "route " << r << " of " << routes;
      ASSERT_EQ(lanes[r], static_cast<int>(kWarp)) << "route " << r << " of " << routes;
    }
  }
}

TEST(WarpSum, HostTreeLeavesTheWarpSumInLaneZero) {
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<std::int64_t> value(-1000000, 1000000);
  for (int round = 0; round < 50; ++round) {
    RouteTotals lanes[kWarp];
    RouteTotals expected{};
    for (RouteTotals& lane : lanes) {
      lane = RouteTotals{value(rng), value(rng), value(rng)};
      expected = expected + lane;
    }
    warp_sum_lanes(lanes);
    EXPECT_EQ(lanes[0], expected);
  }
}

TEST(SeedAndGather, HostTwinsWriteEveryElementOnce) {
  std::mt19937_64 rng(11);
  for (const std::uint32_t w : kWidths)
    for (const std::uint64_t n : {0, 1, 37, 300, 1000}) {
      // Seeds: distinct cells of a tile of n / 3 + 1 nodes, in random order.
      const std::uint32_t nodes = static_cast<std::uint32_t>(n / 3 + 1);
      std::vector<std::uint64_t> cells(std::size_t{nodes} * w);
      for (std::size_t i = 0; i < cells.size(); ++i) cells[i] = i;
      std::shuffle(cells.begin(), cells.end(), rng);
      cells.resize(std::min<std::size_t>(n, cells.size()));
      std::vector<Seed> seeds;
      for (const std::uint64_t c : cells)
        seeds.push_back(
            {static_cast<std::uint32_t>(c / w), static_cast<std::uint32_t>(c % w), c * 7 + 1});
      std::vector<Key> tile(std::size_t{nodes} * w, kNoKey);
      seed_tile(seeds, tile.data(), w);
      std::size_t written = 0;
      for (std::size_t i = 0; i < tile.size(); ++i)
        if (tile[i] != kNoKey) {
          ASSERT_EQ(tile[i], i * 7 + 1);
          ++written;
        }
      EXPECT_EQ(written, seeds.size());

      // Gather: n targets (repeats allowed) into a poisoned output.
      std::vector<std::uint32_t> target_local(n);
      for (std::uint32_t& t : target_local) t = static_cast<std::uint32_t>(rng() % nodes);
      for (std::size_t i = 0; i < tile.size(); ++i) tile[i] = i;
      std::vector<Key> out(n * w, kNoKey);
      gather_targets(tile.data(), w, target_local, out.data());
      for (std::size_t j = 0; j < n; ++j)
        for (std::uint32_t c = 0; c < w; ++c)
          ASSERT_EQ(out[j * w + c], std::uint64_t{target_local[j]} * w + c)
              << "target " << j << ", column " << c;
    }
}

/// The tile pipeline of the host twin, piece by piece (what the device runs per tile), sweep and
/// gather in lane groups of `lanes`, against Dijkstra's keys for every (target, column).
void expect_tile_equals_dijkstra(const RoadGraph& g, const ContractionHierarchy& ch,
                                 const std::vector<NodeId>& sources,
                                 const std::vector<NodeId>& targets, std::uint32_t width,
                                 std::uint32_t lanes) {
  const Selection sel = select_targets(ch, targets);
  UpwardSearch search(ch.node_count());
  std::vector<Key> tile(sel.nodes() * width), out(targets.size() * width, 0);
  const RelaxNode relax_node{sel.view(), tile.data(), width};
  for (std::size_t first = 0; first < sources.size(); first += width) {
    const std::size_t columns = std::min<std::size_t>(width, sources.size() - first);
    std::vector<Seed> seeds;
    for (std::size_t c = 0; c < columns; ++c)
      search.seeds(ch, sel, sources[first + c], static_cast<std::uint32_t>(c), &seeds);
    std::fill(tile.begin(), tile.end(), kNoKey);
    seed_tile(seeds, tile.data(), width);
    sweep_levels(relax_node, sel.level_first.data(), sel.levels(), lanes);
    gather_targets(tile.data(), width, sel.target_local, out.data(), lanes);
    for (std::size_t c = 0; c < columns; ++c) {
      const std::vector<PathKey> dist = routesolve::test::dijkstra(g, sources[first + c]);
      for (std::size_t j = 0; j < targets.size(); ++j)
        ASSERT_EQ(out[j * width + c], dist[targets[j]])
            << "source " << sources[first + c] << ", target " << targets[j] << ", width " << width
            << ", lanes " << lanes;
    }
    for (std::size_t c = columns; c < width; ++c)  // unused columns stay unreachable
      for (std::size_t j = 0; j < targets.size(); ++j) ASSERT_EQ(out[j * width + c], kNoKey);
  }
}

TEST(PhastHostTwin, TilePipelineEqualsDijkstra) {
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const std::size_t n = 50 + seed * 40;
    const RoadGraph g = seed % 3 == 0
                            ? routesolve::test::grid_graph(12 + seed, 9 + seed, seed)
                            : routesolve::test::random_graph(n, 1.5, seed % 4 == 0 ? 3 : 500, seed);
    const ContractionHierarchy ch = build_contraction_hierarchy(g);
    ASSERT_GT(ch.level_count(), 2u);
    const auto sources = routesolve::test::random_nodes(
        g.node_count(), 3 + seed * 23, seed + 100);  // several tiles, the last partial
    const auto targets = routesolve::test::random_nodes(g.node_count(), 1 + seed * 17, seed + 200);
    SCOPED_TRACE("seed " + std::to_string(seed));
    const std::uint32_t width = kWidths[seed % kWidths.size()];
    // The device's one lane, the host's default, and 32 and 64 (partial groups for 24, 40, 200).
    for (const std::uint32_t lanes : {1u, host_lanes(width), 32u, 64u})
      expect_tile_equals_dijkstra(g, ch, sources, targets, width, lanes);
  }
}

TEST(RouteEvalHostTwin, GridWritesEveryRouteOnceAndEqualsRecomputation) {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    test::RandomBatchOptions o;
    o.locations = 1 + seed % 13;
    o.travel_count = 1 + seed % 3;
    o.routes = seed * 3 % 41;          // partial blocks of 8 routes, and none
    o.max_visits = 1 + seed * 5 % 90;  // routes longer than a warp
    const test::OwnedBatch b = test::random_batch(seed, o);
    std::vector<RouteTotals> out(b.batch.size(), RouteTotals{-7, -7, -7});
    evaluate_routes_grid(host_view(b.batch), {out.data(), out.size()});
    EXPECT_EQ(out, test::reference_totals(b.batch)) << "seed " << seed;
  }
}

}  // namespace
}  // namespace routesolve::cuda::detail
