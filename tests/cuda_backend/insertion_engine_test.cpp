// One search, two engines: the search driver makes the same decisions on the CPU's segment
// engine and on the batched insertion engine (host twin here; the device engine equals the host
// twin, skipped without a device), one chain or several in lockstep, on random instances with
// time windows, shipments, breaks, priorities and several vehicle types, and on the shared
// benchmark sets.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "insertion/batched_solve.hpp"
#include "random_instances.hpp"
#include "routesolve/cuda/cuda_backend.hpp"
#include "routesolve/io/formats.hpp"
#include "routesolve/search/blink_insertion.hpp"
#include "routesolve/search/neighbours.hpp"
#include "routesolve/search/segments.hpp"
#include "routesolve/search/vehicle_classes.hpp"
#include "routesolve/solve.hpp"
#include "routesolve/validator.hpp"
#include "test_support.hpp"

namespace routesolve::cuda::insertion {
namespace {

using test::InstanceKind;
using test::random_instance;
using test::routes_of;

Solution solve_on(const Problem& p, BackendKind backend, unsigned threads, std::uint64_t iterations,
                  std::uint64_t seed, Objective objective) {
  SolveOptions options;
  options.backend = backend;
  options.threads = threads;
  options.iterations = iterations;
  options.seed = seed;
  options.objective = objective;
  return solve(p, options);
}

void expect_same_decisions(const Problem& p, unsigned threads, std::uint64_t iterations,
                           std::uint64_t seed, Objective objective, const std::string& what) {
  const Solution a = solve_on(p, BackendKind::Cpu, threads, iterations, seed, objective);
  const Solution b = solve_on(p, BackendKind::CudaHost, threads, iterations, seed, objective);
  EXPECT_EQ(a.backend, "cpu");
  EXPECT_EQ(b.backend, "cuda-host");
  EXPECT_EQ(routes_of(a), routes_of(b)) << what;
  EXPECT_EQ(a.summary.cost, b.summary.cost) << what;
  EXPECT_EQ(a.unassigned.size(), b.unassigned.size()) << what;
  EXPECT_EQ(a.iterations, b.iterations) << what;
  const ValidationReport ra = validate(p, a), rb = validate(p, b);
  EXPECT_TRUE(ra.ok()) << what << "\n" << ra.to_text();
  EXPECT_TRUE(rb.ok()) << what << "\n" << rb.to_text();
}

TEST(EngineParity, OneChainMakesTheSameDecisionsOnBothEngines) {
  for (std::uint64_t seed = 1; seed <= 16; ++seed) {
    const InstanceKind kind{seed % 2 == 0, seed % 3 != 0, seed % 4 == 0, seed % 3 == 0};
    const auto p = random_instance(seed, 20 + seed % 25, kind);
    const Objective objective = seed % 5 == 0 ? Objective::VehiclesThenCost : Objective::Cost;
    expect_same_decisions(*p, 1, 60, seed, objective, "seed " + std::to_string(seed));
  }
}

TEST(EngineParity, ChainsInLockstepMakeTheDecisionsOfChainsOnThreads) {
  for (std::uint64_t seed = 30; seed <= 35; ++seed) {
    const InstanceKind kind{seed % 2 == 0, true, seed % 3 == 0, true};
    const auto p = random_instance(seed, 30, kind);
    // 150 iterations: three epochs, so the chains exchange their best twice.
    expect_same_decisions(*p, 3, 150, seed, Objective::Cost,
                          "seed " + std::to_string(seed) + ", 3 chains");
  }
}

TEST(EngineParity, ChainsOnRegionsMakeTheSameDecisionsOnBothEngines) {
  // Enough tours for regions: the chains search disjoint parts of one solution in the cost phase.
  const auto path = test::datasets_dir() / "cvrp" / "x" / "X-n101-k25.vrp";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "dataset not found: " << path;
  const auto p = Problem::create(io::read_problem(path));
  for (const unsigned chains : {2u, 4u})
    expect_same_decisions(*p, chains, 200, 3, Objective::Cost, "X-n101-k25");
}

TEST(EngineParity, ResultsDependOnTheChainsNotOnTheThreads) {
  const auto path = test::datasets_dir() / "cvrp" / "x" / "X-n101-k25.vrp";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "dataset not found: " << path;
  const auto p = Problem::create(io::read_problem(path));
  auto run = [&](BackendKind backend, unsigned threads) {
    SolveOptions options;
    options.backend = backend;
    options.threads = threads;
    options.chains = 4;
    options.iterations = 150;
    options.seed = 8;
    return solve(*p, options);
  };
  const Solution reference = run(BackendKind::Cpu, 4);  // one chain per thread
  for (const auto& [backend, threads] :
       {std::pair{BackendKind::Cpu, 2u}, std::pair{BackendKind::Cpu, 1u},
        std::pair{BackendKind::CudaHost, 1u}, std::pair{BackendKind::CudaHost, 3u}}) {
    const Solution s = run(backend, threads);  // four chains in lockstep on the threads
    EXPECT_EQ(routes_of(s), routes_of(reference)) << s.backend << " on " << threads << " thread(s)";
    EXPECT_EQ(s.summary.cost, reference.summary.cost);
  }
}

TEST(EngineParity, HostTwinEqualsTheSegmentEngineOnMixedBatches) {
  std::uint64_t found = 0, pairs = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const auto p =
        random_instance(seed, 25, InstanceKind{seed % 2 == 0, true, seed % 3 == 0, true});
    const search::SegmentModel model(*p);
    std::vector<std::size_t> insertable;
    for (std::size_t t = 0; t < p->tasks().size(); ++t)
      if (p->task(t).type != TaskType::Delivery) insertable.push_back(t);
    const search::VehicleClasses classes(*p);
    const search::Neighbours near(*p, 8);
    const auto segments = search::make_segment_engine();
    std::mt19937_64 rng(seed);
    std::vector<search::WorkingSolution> solutions;
    solutions.reserve(3);
    for (int s = 0; s < 3; ++s) {  // one request batch over three solutions (chains)
      solutions.emplace_back(model, insertable);
      std::vector<std::size_t> some;
      for (std::size_t t : insertable)
        if (rng() % 3 != 0) some.push_back(t);
      search::BlinkInsertion(near, classes, 0.1)
          .apply(solutions.back(), some, rng, p->vehicles().size(), *segments);
    }
    std::vector<std::size_t> all(p->vehicles().size());
    std::iota(all.begin(), all.end(), std::size_t{0});
    std::shuffle(all.begin(), all.end(), rng);  // candidate order decides ties
    std::vector<search::InsertionRequest> requests;
    for (const search::WorkingSolution& s : solutions)
      for (std::size_t t : s.unassigned_tasks()) {
        requests.push_back({&s, t, all, rng(), search::blink_threshold(seed % 2 == 0 ? 0.3 : 0.0)});
        pairs += p->task(t).sibling != kNone;
      }
    std::vector<search::InsertionChoice> a(requests.size()), b(requests.size());
    segments->price(requests, a);
    insertion::make_host_engine(1 + seed % 3)->price(requests, b);
    for (std::size_t r = 0; r < requests.size(); ++r) {
      ASSERT_EQ(a[r], b[r]) << "seed " << seed << " request " << r;
      found += a[r].found();
    }
  }
  EXPECT_GT(found, 50u);
  EXPECT_GT(pairs, 10u);
}

TEST(EngineParity, CudaHostReportsTheEngineStages) {
  const auto p = random_instance(11, 25, InstanceKind{true, true});
  const Solution s = solve_on(*p, BackendKind::CudaHost, 1, 30, 1, Objective::Cost);
  EXPECT_TRUE(validate(*p, s).ok());
  for (const char* stage : {"construction", "host_search", "pack", "h2d", "kernel", "d2h"})
    EXPECT_TRUE(std::any_of(s.profile.begin(), s.profile.end(), [&](const StageTime& t) {
      return t.stage == stage;
    })) << stage;
}

/// Every instance file of a folder (with the given extension), sorted; every `every`-th.
std::vector<std::filesystem::path> files(const std::filesystem::path& dir, const std::string& ext,
                                         std::size_t every = 1) {
  std::vector<std::filesystem::path> out;
  if (!std::filesystem::exists(dir)) return out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ext) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  std::vector<std::filesystem::path> picked;
  for (std::size_t i = 0; i < out.size(); i += every) picked.push_back(out[i]);
  return picked;
}

void same_on_datasets(const std::vector<std::filesystem::path>& paths, Objective objective) {
  for (const auto& path : paths) {
    const auto p = Problem::create(io::read_problem(path));
    expect_same_decisions(*p, 1, 25, 1, objective, path.string());
  }
}

TEST(EngineParityDatasets, Augerat) {
  const auto paths = files(test::datasets_dir() / "cvrp" / "augerat", ".vrp", 3);
  if (paths.empty()) GTEST_SKIP() << "no Augerat instances under " << test::datasets_dir();
  same_on_datasets(paths, Objective::Cost);
}

TEST(EngineParityDatasets, Solomon) {
  const auto paths = files(test::datasets_dir() / "vrptw" / "solomon", ".txt", 4);
  if (paths.empty()) GTEST_SKIP() << "no Solomon instances under " << test::datasets_dir();
  same_on_datasets(paths, Objective::VehiclesThenCost);
}

TEST(EngineParityDatasets, LiLim) {
  std::vector<std::filesystem::path> paths;
  const auto dir = test::datasets_dir() / "pdptw" / "li_lim";
  for (const auto& p : files(dir, ".txt", 4))
    if (p.parent_path() == dir) paths.push_back(p);
  if (paths.empty()) GTEST_SKIP() << "no Li & Lim instances under " << dir;
  same_on_datasets(paths, Objective::VehiclesThenCost);
}

// ---- device ----------------------------------------------------------------------------

/// The copies the device engine's model upload makes: the task segments and capacities staged in
/// one, then every distinct table of the vehicles' travel data as the segments read it.
std::size_t model_copies(const Problem& p) {
  const search::SegmentModel model(p);
  std::set<const void*> tables;
  for (std::size_t v = 0; v < p.vehicles().size(); ++v) {
    const TravelView& tv = model.travel(v);
    for (const TravelTable& m : {tv.durations, tv.distances, tv.costs})
      if (m != nullptr) tables.insert(m.data());
  }
  return 1 + tables.size();
}

TEST(InsertionDevice, DeviceEngineEqualsTheHostTwin) {
  if (!device_available()) GTEST_SKIP() << "no CUDA device: " << device_unavailable_reason();
  for (const TransferMode mode : {TransferMode::Pinned, TransferMode::Naive}) {
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      const auto p =
          random_instance(seed, 40, InstanceKind{seed % 2 == 0, true, seed % 3 == 0, true});
      SolveOptions options;
      options.seed = seed;
      options.iterations = 80;
      options.threads = 1 + seed % 4;  // chains in lockstep: batches of several requests
      auto host = insertion::make_host_engine(1);
      const Solution a = insertion::solve_batched(*p, options, *host, "cuda-host");
      insertion::CheckedEngine checked(insertion::make_device_engine(DeviceOptions{0, mode, {}}), 1,
                                       1);
      const Solution b = insertion::solve_checked(*p, options, checked);
      EXPECT_EQ(b.mismatches, 0u) << b.fallback;
      EXPECT_EQ(routes_of(a), routes_of(b)) << "seed " << seed;
      const insertion::InsertionStats& st = checked.stats();
      EXPECT_GT(st.tours_reused, 0u);  // unchanged tours stay on the device
      if (mode == TransferMode::Pinned) {
        // The model once, then one copy per call.
        EXPECT_EQ(st.h2d_copies, model_copies(*p) + st.calls) << "seed " << seed;
      }
    }
  }
}

}  // namespace
}  // namespace routesolve::cuda::insertion
