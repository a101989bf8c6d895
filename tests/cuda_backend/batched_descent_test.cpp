// The batched descent (cuda_backend/src/search): moves applied in the engine equal the host
// reference's, and the device move engine equals the host twin exactly (skipped without a
// device). The search on the batched insertion engine: insertion_engine_test.cpp.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "batched_fixture.hpp"
#include "routesolve/cuda/search_backend.hpp"
#include "routesolve/cuda/cuda_backend.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/formats.hpp"
#include "routesolve/solve.hpp"
#include "routesolve/validator.hpp"
#include "test_support.hpp"

namespace routesolve::cuda::batched {
namespace {

namespace ds = detail::batched;

/// The moves applied inside the engine (TakeBody + WriteBody, the kernel bodies the device
/// runs, here through the host twin) give exactly the solutions of the host reference, which
/// applies each selected move on the host after schedule_route; the result is a local optimum.
TEST(BatchedDescent, EngineApplicationEqualsHostApplication) {
  std::uint64_t applied = 0, rounds = 0, pair_instances = 0, break_moves = 0;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const InstanceKind kind{seed % 3 == 0, seed % 2 == 0, seed % 5 == 0};
    const auto p = random_instance(seed, 15 + seed % 20, kind);
    std::mt19937_64 rng(seed * 11);
    std::vector<RouteSet> start;
    for (int s = 0; s < 4; ++s) start.push_back(random_solution(*p, rng));
    const PackedProblem packed = pack_problem(*p, 8);
    auto host_engine = make_host_engine(1);
    auto twin_engine = make_host_engine(1 + seed % 2);
    const Descended ref = run_descent(*p, packed, *host_engine, start, ApplyMode::Host, false);
    const Descended got = run_descent(*p, packed, *twin_engine, start, ApplyMode::Engine, true);
    ASSERT_EQ(ref.routes, got.routes) << "seed " << seed;
    ASSERT_EQ(ref.costs, got.costs) << "seed " << seed;
    EXPECT_EQ(ref.stats.rejected, 0u) << "seed " << seed;
    EXPECT_EQ(ref.stats.mismatched, 0u) << "seed " << seed;
    EXPECT_EQ(got.stats.mismatched, 0u) << "seed " << seed;
    EXPECT_EQ(ref.stats.applied, got.stats.applied) << "seed " << seed;
    EXPECT_EQ(ref.stats.break_applied, got.stats.break_applied) << "seed " << seed;
    applied += got.stats.applied;
    rounds += got.stats.engine.rounds;
    break_moves += got.stats.break_applied;
    for (std::size_t s = 0; s < start.size(); ++s) {
      ASSERT_TRUE(all_feasible(*p, got.routes[s]));
      EXPECT_LE(plain_cost(*p, got.routes[s]), plain_cost(*p, start[s]));
    }
    if (!kind.breaks) {
      // A local optimum: no improving batched move is left in any solution.
      std::vector<const RouteSet*> ptrs;
      for (const auto& rs : got.routes) ptrs.push_back(&rs);
      const PackedBatch after = pack_batch(packed, ptrs);
      std::vector<Move> best;
      EngineTimes times;
      twin_engine->evaluate(after, best, times);
      for (const Move& m : best) ASSERT_EQ(m.delta, ds::kNoMove) << "seed " << seed << " u " << m.u << " type " << m.type;
    }
    if (kind.shipments) ++pair_instances;
  }
  EXPECT_GT(applied, 500u);
  EXPECT_GT(rounds, 100u);
  EXPECT_GT(pair_instances, 10u);
  EXPECT_GT(break_moves, 0u);
}

// ---- device ----------------------------------------------------------------------------

#define SKIP_WITHOUT_DEVICE()                                                   \
  do {                                                                          \
    if (!device_available()) {                                                  \
      GTEST_SKIP() << "no CUDA device: " << device_unavailable_reason();        \
    }                                                                           \
  } while (false)

TEST(BatchedMovesDevice, EngineEqualsHostTwinExactly) {
  SKIP_WITHOUT_DEVICE();
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const auto p = random_instance(seed, 20 + seed, InstanceKind{seed % 3 == 0, seed % 2 == 0});
    std::mt19937_64 rng(seed);
    std::vector<RouteSet> sols;
    for (int s = 0; s < 6; ++s) sols.push_back(random_solution(*p, rng));
    std::vector<const RouteSet*> ptrs;
    for (const auto& s : sols) ptrs.push_back(&s);
    const PackedProblem packed = pack_problem(*p, 10);
    const PackedBatch batch = pack_batch(packed, ptrs);
    for (const TransferMode mode : {TransferMode::Pinned, TransferMode::Naive}) {
      auto host = make_host_engine(2);
      auto device = make_device_engine(mode);
      host->set_problem(packed);
      device->set_problem(packed);
      std::vector<Move> a, b;
      EngineTimes ta, tb;
      host->evaluate(batch, a, ta);
      device->evaluate(batch, b, tb);
      ASSERT_EQ(a.size(), b.size());
      for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].delta, b[i].delta) << i;
        EXPECT_EQ(a[i].u, b[i].u) << i;
        EXPECT_EQ(a[i].v, b[i].v) << i;
        EXPECT_EQ(a[i].type, b[i].type) << i;
      }
      if (mode == TransferMode::Pinned) {
        EXPECT_EQ(tb.h2d_copies, 2u);  // problem once, batch once
      }
    }
  }
}

TEST(BatchedMovesDevice, DeviceDescentEqualsHostTwin) {
  SKIP_WITHOUT_DEVICE();
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const auto p = random_instance(seed, 25 + seed, InstanceKind{seed % 3 == 0, seed % 2 == 0, seed % 4 == 0});
    std::mt19937_64 rng(seed);
    std::vector<RouteSet> start;
    for (int s = 0; s < 6; ++s) start.push_back(random_solution(*p, rng));
    const PackedProblem packed = pack_problem(*p, 10);
    for (const TransferMode mode : {TransferMode::Pinned, TransferMode::Naive}) {
      auto twin = make_host_engine(2);
      auto device = make_device_engine(mode);
      const Descended a = run_descent(*p, packed, *twin, start, ApplyMode::Engine, false);
      const Descended b = run_descent(*p, packed, *device, start, ApplyMode::Engine, seed % 2 == 0);
      ASSERT_EQ(a.routes, b.routes) << "seed " << seed;
      ASSERT_EQ(a.costs, b.costs) << "seed " << seed;
      EXPECT_EQ(a.stats.applied, b.stats.applied);
      EXPECT_EQ(b.stats.mismatched, 0u);
      EXPECT_EQ(a.stats.engine.rounds, b.stats.engine.rounds);
    }
  }
}

}  // namespace
}  // namespace routesolve::cuda::batched
