// The host twins walk the kernels' launch grids: the launch-shape helpers (the launchers use the
// same ones) cover every item with the fewest blocks, every thread mapping writes each output
// element exactly once, and the host twin of each kernel, driven piece by piece, equals a plain
// reference (Dijkstra, recomputation) exactly. Sizes exercise partial blocks, several tiles,
// several levels and empty routes; widths that do not divide the block leave idle threads.

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
        seeds.push_back({static_cast<std::uint32_t>(c / w), static_cast<std::uint32_t>(c % w), c * 7 + 1});
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
          ASSERT_EQ(out[j * w + c], std::uint64_t{target_local[j]} * w + c) << "target " << j << ", column " << c;
    }
}

/// The tile pipeline of the host twin, piece by piece (what the device runs per tile), against
/// Dijkstra's keys for every (target, column).
void expect_tile_equals_dijkstra(const RoadGraph& g, const ContractionHierarchy& ch, const std::vector<NodeId>& sources,
                                 const std::vector<NodeId>& targets, std::uint32_t width) {
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
    sweep_levels(relax_node, sel.level_first.data(), sel.levels());
    gather_targets(tile.data(), width, sel.target_local, out.data());
    for (std::size_t c = 0; c < columns; ++c) {
      const std::vector<PathKey> dist = routesolve::test::dijkstra(g, sources[first + c]);
      for (std::size_t j = 0; j < targets.size(); ++j)
        ASSERT_EQ(out[j * width + c], dist[targets[j]])
            << "source " << sources[first + c] << ", target " << targets[j] << ", width " << width;
    }
    for (std::size_t c = columns; c < width; ++c)  // unused columns stay unreachable
      for (std::size_t j = 0; j < targets.size(); ++j) ASSERT_EQ(out[j * width + c], kNoKey);
  }
}

TEST(PhastHostTwin, TilePipelineEqualsDijkstra) {
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const std::size_t n = 50 + seed * 40;
    const RoadGraph g = seed % 3 == 0 ? routesolve::test::grid_graph(12 + seed, 9 + seed, seed)
                                      : routesolve::test::random_graph(n, 1.5, seed % 4 == 0 ? 3 : 500, seed);
    const ContractionHierarchy ch = build_contraction_hierarchy(g);
    ASSERT_GT(ch.level_count(), 2u);
    const auto sources = routesolve::test::random_nodes(g.node_count(), 3 + seed * 23, seed + 100);  // several tiles, the last partial
    const auto targets = routesolve::test::random_nodes(g.node_count(), 1 + seed * 17, seed + 200);
    SCOPED_TRACE("seed " + std::to_string(seed));
    expect_tile_equals_dijkstra(g, ch, sources, targets, kWidths[seed % kWidths.size()]);
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
