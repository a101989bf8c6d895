// PHAST/RPHAST matrices: cuda-host equals an independent plain Dijkstra exactly (durations and
// distances) on random graphs, grids and rome99; the device equals cuda-host exactly in both
// transfer modes (skipped without a device); errors name the field.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "road_graph_fixture.hpp"
#include "routesolve/contraction_hierarchy.hpp"
#include "routesolve/cuda/cuda_backend.hpp"
#include "routesolve/cuda/matrix_engine.hpp"
#include "routesolve/error.hpp"
#include "test_support.hpp"

namespace routesolve::cuda {
namespace {

#define REQUIRE_CUDA_DEVICE()                                                                   \
  do {                                                                                          \
    if (!device_available()) GTEST_SKIP() << "no CUDA device: " << device_unavailable_reason(); \
  } while (0)

PhastOptions host_options(unsigned width, unsigned threads) {
  PhastOptions o;
  o.device = MatrixDevice::Host;
  o.tile_width = width;
  o.threads = threads;
  return o;
}

TEST(PhastHost, RandomGraphsEqualDijkstra) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const std::size_t n = 30 + seed * 20;  // up to ~830 nodes (random graphs have no hierarchy)
    const RoadGraph g = test::random_graph(n, 1.2 + 0.5 * static_cast<double>(seed % 3),
                                           seed % 4 == 0 ? 2 : 300, seed);
    const ContractionHierarchy ch = build_contraction_hierarchy(g);
    const auto sources = test::random_nodes(n, 5 + seed % 70, seed * 3);
    const auto targets = test::random_nodes(n, 3 + seed % 90, seed * 5);
    const NodeMatrices expected = test::reference_matrices(g, sources, targets);
    const unsigned width = 8u << (seed % 4);  // 8, 16, 32, 64
    PhastMatrixEngine engine(g, ch, host_options(width, 1 + seed % 2));
    MatrixProfile profile;
    const NodeMatrices got = engine.compute(sources, targets, &profile);
    ASSERT_EQ(test::first_difference(got, expected), "") << "seed " << seed << ", n " << n;
    EXPECT_EQ(profile.relaxations, profile.selected_arcs * sources.size());
  }
}

TEST(PhastHost, WidthsThatLeaveIdleThreadsEqualDijkstra) {
  // 256 / width nodes per sweep block: 24, 40 and 200 leave threads without a cell, 256 has one
  // node per block; source counts leave the last tile partial.
  const RoadGraph g = test::random_graph(700, 1.6, 400, 77);
  const ContractionHierarchy ch = build_contraction_hierarchy(g);
  const auto targets = test::random_nodes(g.node_count(), 61, 8);
  for (const unsigned width : {24u, 40u, 200u, 256u}) {
    const auto sources = test::random_nodes(g.node_count(), 2 * width + 5, width);
    PhastMatrixEngine engine(g, ch, host_options(width, 2));
    EXPECT_EQ(test::first_difference(engine.compute(sources, targets),
                                     test::reference_matrices(g, sources, targets)),
              "")
        << "width " << width;
  }
}

TEST(PhastHost, LargerRandomGraphAllPairsOfSample) {
  const RoadGraph g = test::random_graph(2000, 1.8, 1000, 2024);
  const ContractionHierarchy ch = build_contraction_hierarchy(g);
  const auto sources = test::random_nodes(g.node_count(), 150, 1);
  const auto targets = test::random_nodes(g.node_count(), 400, 2);
  PhastMatrixEngine engine(g, ch, host_options(32, 2));
  EXPECT_EQ(test::first_difference(engine.compute(sources, targets),
                                   test::reference_matrices(g, sources, targets)),
            "");
}

TEST(PhastHost, GridsEqualDijkstraAndHaveUnreachablePairs) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const RoadGraph g = test::grid_graph(80, 60, seed);
    const ContractionHierarchy ch = build_contraction_hierarchy(g);
    const auto sources = test::random_nodes(g.node_count(), 100, seed);
    const auto targets = test::random_nodes(g.node_count(), 120, seed + 100);
    PhastMatrixEngine engine(g, ch, host_options(0, 2));
    const NodeMatrices expected = test::reference_matrices(g, sources, targets);
    EXPECT_EQ(test::first_difference(engine.compute(sources, targets), expected), "");
    std::size_t unreachable = 0;
    for (const std::int64_t d : expected.durations) unreachable += d == kUnreachable ? 1 : 0;
    if (seed == 1) RecordProperty("unreachable", static_cast<int>(unreachable));
  }
}

TEST(PhastHost, SelectionIsReusedForTheSameTargets) {
  const RoadGraph g = test::grid_graph(30, 30, 9);
  const ContractionHierarchy ch = build_contraction_hierarchy(g);
  PhastMatrixEngine engine(g, ch, host_options(16, 2));
  const auto targets = test::random_nodes(g.node_count(), 50, 1);
  MatrixProfile first, second, third;
  const auto s1 = test::random_nodes(g.node_count(), 37, 2);
  const auto s2 = test::random_nodes(g.node_count(), 70, 3);
  EXPECT_EQ(test::first_difference(engine.compute(s1, targets, &first),
                                   test::reference_matrices(g, s1, targets)),
            "");
  EXPECT_EQ(test::first_difference(engine.compute(s2, targets, &second),
                                   test::reference_matrices(g, s2, targets)),
            "");
  EXPECT_FALSE(first.selection_reused);
  EXPECT_TRUE(second.selection_reused);
  const auto t2 = test::random_nodes(g.node_count(), 20, 4);
  EXPECT_EQ(
      test::first_difference(engine.compute(s2, t2, &third), test::reference_matrices(g, s2, t2)),
      "");
  EXPECT_FALSE(third.selection_reused);
  EXPECT_FALSE(format_profile(third).empty());
}

TEST(PhastHost, EmptyQueries) {
  const RoadGraph g = test::grid_graph(5, 5, 1);
  const ContractionHierarchy ch = build_contraction_hierarchy(g);
  PhastMatrixEngine engine(g, ch);
  const NodeMatrices a = engine.compute({}, {1, 2});
  EXPECT_EQ(a.rows, 0u);
  EXPECT_EQ(a.cols, 2u);
  const NodeMatrices b = engine.compute({1, 2}, {});
  EXPECT_EQ(b.rows, 2u);
  EXPECT_TRUE(b.durations.empty());
}

TEST(PhastHost, ErrorsNameTheField) {
  const RoadGraph g = test::grid_graph(5, 5, 1);
  const ContractionHierarchy ch = build_contraction_hierarchy(g);
  PhastMatrixEngine engine(g, ch);
  try {
    (void)engine.compute({0, 99}, {1});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidInput);
    EXPECT_NE(std::string(e.what()).find("sources[1]"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)engine.compute({0}, {25}), Error);
  // A hierarchy of another graph is refused.
  const RoadGraph other = test::grid_graph(5, 5, 2);
  EXPECT_THROW(PhastMatrixEngine(other, ch), Error);
  EXPECT_THROW(PhastMatrixEngine(g, ch, host_options(12, 1)), Error);
}

TEST(PhastHost, Rome99EqualsDijkstra) {
  ROUTESOLVE_REQUIRE_DATASET("roads/dimacs/rome99.gr");
  const RoadGraph g = test::read_dimacs_for_test(test::datasets_dir() / "roads/dimacs/rome99.gr");
  const ContractionHierarchy ch = build_contraction_hierarchy(g);
  const auto sources = test::random_nodes(g.node_count(), 300, 5);
  const auto targets = test::random_nodes(g.node_count(), 500, 6);
  PhastMatrixEngine engine(g, ch, host_options(0, 2));
  EXPECT_EQ(test::first_difference(engine.compute(sources, targets),
                                   test::reference_matrices(g, sources, targets)),
            "");
}

TEST(PhastSplit, TileSharesCoverEveryTileOnceInOrder) {
  for (std::size_t tiles = 0; tiles <= 13; ++tiles)
    for (std::size_t devices = 1; devices <= 5; ++devices) {
      std::size_t next = 0;
      for (std::size_t d = 0; d < devices; ++d) {
        const auto [first, last] = tile_share(tiles, devices, d);
        EXPECT_EQ(first, next) << tiles << " tiles, device " << d << " of " << devices;
        EXPECT_LE(last - first, tiles / devices + 1);
        EXPECT_GE(last - first, tiles / devices);
        next = last;
      }
      EXPECT_EQ(next, tiles);
    }
}

TEST(PhastSplit, SourceTilesSplitOverVirtualDevicesEqualOneDevice) {
  // The split of the multi-device engine on the host twin: every virtual device sweeps its
  // share of the source tiles on its own thread; the matrices equal one device's and Dijkstra's.
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const RoadGraph g =
        seed % 2 == 0 ? test::grid_graph(30, 20, seed) : test::random_graph(600, 1.6, 300, seed);
    const ContractionHierarchy ch = build_contraction_hierarchy(g);
    const auto sources =
        test::random_nodes(g.node_count(), 70 + seed * 13, seed);  // partial last tile
    const auto targets = test::random_nodes(g.node_count(), 90, seed + 20);
    PhastMatrixEngine one(g, ch, host_options(16, 1));
    const NodeMatrices expected = one.compute(sources, targets);
    ASSERT_EQ(test::first_difference(expected, test::reference_matrices(g, sources, targets)), "");
    for (const std::vector<int>& devices : {std::vector<int>{0, 1}, std::vector<int>{0, 1, 2},
                                            std::vector<int>{3, 1, 0, 2, 4, 5, 6, 7, 8}}) {
      PhastOptions o = host_options(16, 4);
      o.device_indices = devices;
      PhastMatrixEngine split(g, ch, o);
      MatrixProfile p;
      EXPECT_EQ(test::first_difference(split.compute(sources, targets, &p), expected), "")
          << "seed " << seed << ", " << devices.size() << " virtual devices";
      EXPECT_NE(p.device.find("split over " + std::to_string(devices.size()) + " virtual devices"),
                std::string::npos)
          << p.device;
      EXPECT_EQ(p.h2d, 0.0);  // the host twin moves nothing: unpacking is not a transfer
      EXPECT_EQ(p.d2h, 0.0);
      EXPECT_EQ(test::first_difference(split.compute(sources, targets, &p), expected), "")
          << "second call";
    }
  }
}

TEST(PhastDevice, SeveralDevicesEqualTheHostTwin) {
  REQUIRE_CUDA_DEVICE();
  const RoadGraph g = test::random_graph(1500, 1.8, 300, 9);
  const ContractionHierarchy ch = build_contraction_hierarchy(g);
  const auto sources = test::random_nodes(g.node_count(), 700, 1);
  const auto targets = test::random_nodes(g.node_count(), 300, 2);
  PhastMatrixEngine host(g, ch, host_options(0, 2));
  const NodeMatrices expected = host.compute(sources, targets);
  // Every usable device, and device 0 listed twice (two threads, two engines on one device).
  std::vector<int> all;
  for (const DeviceInfo& d : devices()) all.push_back(d.index);
  for (const std::vector<int>& list : {all, std::vector<int>{all.front(), all.front()}}) {
    PhastOptions o;
    o.device = MatrixDevice::Cuda;
    o.device_indices = list;
    PhastMatrixEngine split(g, ch, o);
    EXPECT_EQ(test::first_difference(split.compute(sources, targets), expected), "")
        << list.size() << " devices";
  }
}

TEST(PhastDevice, ThrowsDeviceErrorWithoutDevice) {
  if (device_available()) GTEST_SKIP() << "a CUDA device is present";
  const RoadGraph g = test::grid_graph(5, 5, 1);
  const ContractionHierarchy ch = build_contraction_hierarchy(g);
  PhastOptions o;
  o.device = MatrixDevice::Cuda;
  try {
    PhastMatrixEngine engine(g, ch, o);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Device) << e.what();
    EXPECT_NE(std::string(e.what()).find(device_unavailable_reason()), std::string::npos)
        << e.what();
  }
}

TEST(PhastDevice, EqualsHostTwinInBothTransferModes) {
  REQUIRE_CUDA_DEVICE();
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const RoadGraph g =
        seed % 2 == 0 ? test::grid_graph(80, 50, seed) : test::random_graph(1500, 1.8, 300, seed);
    const ContractionHierarchy ch = build_contraction_hierarchy(g);
    const auto sources = test::random_nodes(g.node_count(), 300 + seed * 7, seed);
    const auto targets = test::random_nodes(g.node_count(), 200 + seed * 11, seed + 50);
    PhastMatrixEngine host(g, ch, host_options(0, 2));
    const NodeMatrices expected = host.compute(sources, targets);
    for (const TransferMode mode : {TransferMode::Pinned, TransferMode::Naive})
      for (const unsigned width : {32u, 64u, 256u}) {
        PhastOptions o;
        o.device = MatrixDevice::Cuda;
        o.transfer = mode;
        o.tile_width = width;
        PhastMatrixEngine device(g, ch, o);
        MatrixProfile p;
        EXPECT_EQ(test::first_difference(device.compute(sources, targets, &p), expected), "")
            << "seed " << seed << ", width " << width << ", "
            << (mode == TransferMode::Naive ? "naive" : "pinned");
        EXPECT_EQ(test::first_difference(device.compute(sources, targets, &p), expected), "")
            << "second call";
        EXPECT_TRUE(p.selection_reused);
      }
  }
}

}  // namespace
}  // namespace routesolve::cuda
