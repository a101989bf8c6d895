// The device insertion engine's tour store, on its host twin (the same plan, the records moved
// by the kernels' body into host memory, every slot priced from its mirrored record): the store
// is sized from the whole call before it grows, reused while tours do not change, grown and
// reclaimed over many calls and chains, and forgets the records of solutions no longer seen;
// every choice equals the host twin's.

#include "insertion/tour_store.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "insertion/batched_solve.hpp"
#include "random_instances.hpp"
#include "routesolve/search/blink_insertion.hpp"
#include "routesolve/search/neighbours.hpp"
#include "routesolve/search/segments.hpp"
#include "routesolve/search/vehicle_classes.hpp"
#include "routesolve/validator.hpp"

namespace routesolve::cuda::insertion {
namespace {

using test::InstanceKind;
using test::random_instance;
using test::routes_of;

/// A problem with the search's views of it, and solutions with part of their tasks inserted.
struct Scene {
  explicit Scene(std::uint64_t seed, std::size_t jobs)
      : problem(random_instance(seed, jobs, InstanceKind{seed % 2 == 0, true, false, false})),
        model(*problem),
        classes(*problem),
        near(*problem, 8),
        segments(search::make_segment_engine()),
        rng(seed) {
    for (std::size_t t = 0; t < problem->tasks().size(); ++t)
      if (problem->task(t).type != TaskType::Delivery) insertable.push_back(t);
    all.resize(problem->vehicles().size());
    std::iota(all.begin(), all.end(), std::size_t{0});
  }

  std::unique_ptr<search::WorkingSolution> solution() {
    auto s = std::make_unique<search::WorkingSolution>(model, insertable);
    std::vector<std::size_t> some;
    for (std::size_t t : insertable)
      if (rng() % 3 != 0) some.push_back(t);
    search::BlinkInsertion(near, classes, 0.1)
        .apply(*s, some, rng, problem->vehicles().size(), *segments);
    return s;
  }

  /// A request for every unassigned task of s, against every tour.
  std::vector<search::InsertionRequest> requests(const search::WorkingSolution& s) {
    std::vector<search::InsertionRequest> out;
    for (std::size_t t : s.unassigned_tasks()) out.push_back({&s, t, all, rng(), 0});
    return out;
  }

  ProblemPtr problem;
  search::SegmentModel model;
  search::VehicleClasses classes;
  search::Neighbours near;
  std::unique_ptr<search::InsertionEngine> segments;
  std::mt19937_64 rng;
  std::vector<std::size_t> insertable, all;
};

/// The choices of `engine` for `requests`, checked against the host twin's.
std::vector<search::InsertionChoice> expect_host_choices(
    insertion::BatchedEngine& engine, const std::vector<search::InsertionRequest>& requests,
    const std::string& what) {
  std::vector<search::InsertionChoice> got(requests.size()), want(requests.size());
  engine.price(requests, got);
  insertion::make_host_engine(1)->price(requests, want);
  for (std::size_t r = 0; r < requests.size(); ++r)
    EXPECT_EQ(got[r], want[r]) << what << ", request " << r;
  return got;
}

TEST(TourStore, GrowsOnceToHoldTheWholeCallThenReusesAndRefreshesTours) {
  Scene scene(3, 40);
  const auto solution = scene.solution();
  const std::vector<search::InsertionRequest> requests = scene.requests(*solution);
  ASSERT_GT(requests.size(), 3u);
  // A store far smaller than one call's tours: the first call must grow it once, to all of them.
  auto engine = insertion::make_mirrored_host_engine(1024);
  expect_host_choices(*engine, requests, "first call");
  const insertion::InsertionStats a = engine->stats();
  EXPECT_EQ(a.store_growths, 1u);
  EXPECT_EQ(a.store_reclaims, 0u);
  EXPECT_GT(a.store_bytes, 1024u);
  EXPECT_GT(a.tours_held, 0u);
  EXPECT_LE(a.tours_held, scene.problem->vehicles().size());
  // The requests share the solution's tours: each moves up once, then is reused.
  EXPECT_EQ(a.tours_uploaded, a.tours_held);
  EXPECT_GT(a.tours_reused, 0u);

  expect_host_choices(*engine, requests, "second call");
  const insertion::InsertionStats b = engine->stats();
  EXPECT_EQ(b.tours_uploaded, a.tours_uploaded);  // nothing changed: nothing moves up
  EXPECT_GT(b.tours_reused, a.tours_reused);
  EXPECT_EQ(b.store_growths, 1u);

  // One task taken out changes one tour, which its request then asks for: only that tour moves up
  // again.
  std::size_t routed = kNone;
  for (std::size_t t : scene.insertable)
    if (solution->assigned(t)) routed = t;
  ASSERT_NE(routed, kNone);
  solution->remove({routed});
  expect_host_choices(*engine, scene.requests(*solution), "after one removal");
  const insertion::InsertionStats d = engine->stats();
  EXPECT_EQ(d.tours_uploaded, b.tours_uploaded + 1);
  EXPECT_EQ(d.store_growths, 1u);
}

/// The largest a store may become for calls of at most `tours` tours of at most `tasks` tasks:
/// it grows only for a call that needs more than half of it, to twice that call's room (a
/// record's size and a half, aligned).
std::size_t store_bound(std::size_t min_store, std::size_t tours, std::size_t tasks) {
  return std::max(min_store, 4 * tours * (2 * insertion::record_bytes(tasks) + 256));
}

TEST(TourStore, ForgetsTheRecordsOfSolutionsNoLongerSeenAndReclaimsTheirRoom) {
  Scene scene(8, 30);
  const std::size_t vehicles = scene.problem->vehicles().size(),
                    tasks = scene.problem->tasks().size();
  // A store that holds every call's tours (no reclaim), and one that fills every few calls.
  auto roomy = insertion::make_mirrored_host_engine(std::size_t{64} << 20);
  auto small = insertion::make_mirrored_host_engine(std::size_t{16} << 10);
  // A new solution per call, the earlier ones kept alive (distinct addresses) but never asked
  // again: the store sees them go.
  std::vector<std::unique_ptr<search::WorkingSolution>> solutions;
  const std::uint64_t calls = 3 * insertion::TourStore::kForgetAfter;
  for (std::uint64_t call = 0; call < calls; ++call) {
    solutions.push_back(scene.solution());
    std::vector<search::InsertionRequest> requests = scene.requests(*solutions.back());
    if (requests.empty()) continue;
    requests.resize(1);
    expect_host_choices(*roomy, requests, "call " + std::to_string(call));
    expect_host_choices(*small, requests, "call " + std::to_string(call) + ", small store");
    if (HasFailure()) return;
  }
  const insertion::InsertionStats r = roomy->stats();
  EXPECT_GT(r.calls, 2 * insertion::TourStore::kForgetAfter);
  EXPECT_EQ(r.store_growths, 1u);
  EXPECT_EQ(r.store_reclaims, 0u);
  // Every record is another solution's: those not held now were released.
  EXPECT_GT(r.tours_released, 0u);
  EXPECT_EQ(r.tours_held + r.tours_released, r.tours_uploaded);
  EXPECT_LE(r.tours_held, 2 * insertion::TourStore::kForgetAfter * vehicles);
  // The small store reclaims the room of the solutions gone instead of growing with them.
  const insertion::InsertionStats s = small->stats();
  EXPECT_GT(s.store_reclaims, 0u);
  EXPECT_LE(s.store_bytes, store_bound(std::size_t{16} << 10, vehicles, tasks));
  EXPECT_LE(s.tours_held, 2 * insertion::TourStore::kForgetAfter * vehicles);
}

TEST(TourStore, ChainsInLockstepOverManyCallsMakeTheHostTwinsDecisions) {
  std::uint64_t growths = 0, reclaims = 0, reused = 0;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const auto p =
        random_instance(seed, 60, InstanceKind{seed % 2 == 0, true, seed % 3 == 0, seed % 2 == 1});
    SolveOptions options;
    options.seed = seed;
    options.iterations = 400;
    options.threads = 1;
    const unsigned chains = 2 + seed % 4;
    auto host = insertion::make_host_engine(1);
    const Solution a = insertion::solve_batched(*p, options, *host, "cuda-host", chains);
    // A small store: it grows and fills over the solve.
    auto mirrored = insertion::make_mirrored_host_engine(8 << 10);
    const Solution b = insertion::solve_batched(*p, options, *mirrored, "cuda-host", chains);
    EXPECT_EQ(routes_of(a), routes_of(b)) << "seed " << seed;
    EXPECT_EQ(a.summary.cost, b.summary.cost) << "seed " << seed;
    const ValidationReport report = validate(*p, b);
    EXPECT_TRUE(report.ok()) << report.to_text();
    const insertion::InsertionStats& s = mirrored->stats();
    EXPECT_GT(s.calls, 500u) << "seed " << seed;
    EXPECT_GT(s.tours_reused, 0u) << "seed " << seed;
    EXPECT_LE(s.store_bytes, store_bound(8 << 10, chains * p->vehicles().size(), p->tasks().size()))
        << "seed " << seed;
    growths += s.store_growths;
    reclaims += s.store_reclaims;
    reused += s.tours_reused;
  }
  EXPECT_GT(growths, 4u);  // beyond the first allocation of each solve
  EXPECT_GT(reclaims, 0u);
  EXPECT_GT(reused, 0u);
}

}  // namespace
}  // namespace routesolve::cuda::insertion
