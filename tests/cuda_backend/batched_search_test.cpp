// The batched descent and search (cuda_backend/src/search): moves applied in the engine equal
// the host reference's, cuda-host solutions pass the validator on the shared benchmark sets, and
// the device engine equals the host twin exactly (skipped without a device).

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

namespace routesolve::cuda::search {
namespace {

namespace ds = detail::search;

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

TEST(BatchedSearch, ParseAndSolveThroughTheApi) {
  EXPECT_EQ(parse_backend("cuda-host"), BackendKind::CudaHost);
  EXPECT_EQ(to_string(BackendKind::CudaHost), "cuda-host");
  const auto p = random_instance(11, 25, InstanceKind{true, true});
  SolveOptions options;
  options.backend = BackendKind::CudaHost;
  options.time_limit_s = 0.2;
  const Solution s = solve(*p, options);
  EXPECT_EQ(s.backend, "cuda-host");
  const ValidationReport report = validate(*p, s);
  EXPECT_TRUE(report.ok()) << report.to_text();
  for (const char* stage : {"construction", "h2d", "kernel", "d2h", "host_search"})
    EXPECT_TRUE(std::any_of(s.profile.begin(), s.profile.end(), [&](const StageTime& t) { return t.stage == stage; }))
        << stage;
}

TEST(BatchedSearch, DeterministicForASeedAndRounds) {
  const auto p = random_instance(12, 30, InstanceKind{false, true});
  SolveOptions options;
  options.seed = 5;
  BatchedSearchOptions search;
  search.max_rounds = 3;
  search.batch = 4;
  auto e1 = make_host_engine(1);
  auto e2 = make_host_engine(2);
  const Solution a = batched_search(*p, options, *e1, search);
  const Solution b = batched_search(*p, options, *e2, search);
  EXPECT_EQ(a.summary.cost, b.summary.cost);
  ASSERT_EQ(a.routes.size(), b.routes.size());
  for (std::size_t r = 0; r < a.routes.size(); ++r) EXPECT_EQ(a.routes[r].steps.size(), b.routes[r].steps.size());
  EXPECT_TRUE(validate(*p, a).ok());
}

/// Every instance file of a folder (with the given extension), sorted.
std::vector<std::filesystem::path> files(const std::filesystem::path& dir, const std::string& ext,
                                         const std::string& prefix = "") {
  std::vector<std::filesystem::path> out;
  if (!std::filesystem::exists(dir)) return out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ext && e.path().filename().string().rfind(prefix, 0) == 0)
      out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

/// expect_moves: the batched descent applies moves (on PDPTW: pair relocates); serve_all: every
/// task is routed (the CPU backend serves every Li & Lim request).
void solve_and_validate_all(const std::vector<std::filesystem::path>& paths, bool expect_moves = true,
                            bool serve_all = false) {
  SearchStats total;
  for (const auto& path : paths) {
    const auto p = Problem::create(io::read_problem(path));
    SolveOptions options;
    options.seed = 1;
    BatchedSearchOptions search;
    search.max_rounds = 1;  // construction, descent, one round of 8 ruin-and-recreate children
    auto engine = make_host_engine(2);
    SearchStats stats;
    const Solution s = batched_search(*p, options, *engine, search, &stats);
    const ValidationReport report = validate(*p, s);
    EXPECT_TRUE(report.ok()) << path << "\n" << report.to_text();
    EXPECT_EQ(stats.mismatched, 0u) << path;
    if (serve_all) {
      EXPECT_TRUE(s.unassigned.empty()) << path << ": " << s.unassigned.size() << " unassigned";
    }
    total.applied += stats.applied;
  }
  if (expect_moves) {
    EXPECT_GT(total.applied, 0u);
  }
}

TEST(BatchedSearchDatasets, AugeratValid) {
  const auto dir = test::datasets_dir() / "cvrp" / "augerat";
  const auto paths = files(dir, ".vrp");
  if (paths.empty()) GTEST_SKIP() << "no Augerat instances under " << dir;
  solve_and_validate_all(paths);
}

TEST(BatchedSearchDatasets, SolomonValid) {
  const auto dir = test::datasets_dir() / "vrptw" / "solomon";
  const auto paths = files(dir, ".txt");
  if (paths.empty()) GTEST_SKIP() << "no Solomon instances under " << dir;
  solve_and_validate_all(paths);
}

TEST(BatchedSearchDatasets, LiLim100Valid) {
  const auto dir = test::datasets_dir() / "pdptw" / "li_lim";
  std::vector<std::filesystem::path> paths;
  for (const auto& p : files(dir, ".txt"))
    if (p.parent_path() == dir && p.filename().string().find('_') == std::string::npos) paths.push_back(p);
  if (paths.empty()) GTEST_SKIP() << "no Li & Lim 100-customer instances under " << dir;
  solve_and_validate_all(paths, true, true);
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

TEST(BatchedMovesDevice, CudaSearchEqualsCudaHostSearch) {
  SKIP_WITHOUT_DEVICE();
  const auto p = random_instance(21, 40, InstanceKind{true, true});
  SolveOptions options;
  options.seed = 9;
  BatchedSearchOptions search;
  search.max_rounds = 3;
  auto host = make_host_engine(2);
  auto device = make_device_engine(TransferMode::Pinned);
  const Solution a = batched_search(*p, options, *host, search);
  const Solution b = batched_search(*p, options, *device, search);
  EXPECT_EQ(a.summary.cost, b.summary.cost);
  ASSERT_EQ(a.routes.size(), b.routes.size());
  for (std::size_t r = 0; r < a.routes.size(); ++r) {
    ASSERT_EQ(a.routes[r].steps.size(), b.routes[r].steps.size());
    for (std::size_t i = 0; i < a.routes[r].steps.size(); ++i) EXPECT_EQ(a.routes[r].steps[i].task, b.routes[r].steps[i].task);
  }
  EXPECT_TRUE(validate(*p, b).ok());
}

}  // namespace
}  // namespace routesolve::cuda::search
