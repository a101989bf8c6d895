// Mismatches are loud: a device insertion engine whose choice does not check out (a double that
// prices one choice wrong, or misses one) is counted, never reaches the search, and sends the
// rest of the search to the host twin; the solution says how many and why, and validates.

#include <gtest/gtest.h>

#include <memory>
#include <numeric>
#include <random>

#include "faulty_device.hpp"
#include "insertion/batched_solve.hpp"
#include "random_instances.hpp"
#include "routesolve/search/blink_insertion.hpp"
#include "routesolve/search/neighbours.hpp"
#include "routesolve/search/vehicle_classes.hpp"
#include "routesolve/validator.hpp"

using namespace routesolve;
using cuda::insertion::CheckedEngine;
using test::Faults;
using test::FaultyInsertion;
using test::InstanceKind;
using test::random_instance;

namespace {

SolveOptions fixed_work(std::uint64_t seed) {
  SolveOptions options;
  options.seed = seed;
  options.iterations = 60;
  return options;
}

TEST(Mismatches, ACorrectDeviceHasNoneAndNeverFallsBack) {
  const auto p = random_instance(21, 30, InstanceKind{true, true, false, true});
  CheckedEngine engine(std::make_unique<FaultyInsertion>(Faults{}), 1, 4);
  const Solution s = cuda::insertion::solve_checked(*p, fixed_work(3), engine);
  EXPECT_EQ(s.mismatches, 0u);
  EXPECT_TRUE(s.fallback.empty());
  EXPECT_EQ(s.backend, "cuda");
  EXPECT_TRUE(validate(*p, s).ok());
}

TEST(Mismatches, AWrongDeltaIsCaughtAtOnceAndTheSearchGoesOnOnTheHostTwin) {
  const auto p = random_instance(22, 30, InstanceKind{false, true, false, true});
  auto faulty = std::make_unique<FaultyInsertion>(Faults{.insertion = true}, 5);
  const FaultyInsertion* device = faulty.get();
  CheckedEngine engine(std::move(faulty), 1);
  const Solution s = cuda::insertion::solve_checked(*p, fixed_work(4), engine);
  EXPECT_EQ(device->flipped, 1u);  // after the fallback the device is not asked again
  EXPECT_EQ(s.mismatches, 1u);
  EXPECT_EQ(s.backend, "cuda-host");  // what really finished the search
  EXPECT_NE(s.fallback.find("faulty insertion twin did not match the host twin"), std::string::npos)
      << s.fallback;
  EXPECT_TRUE(validate(*p, s).ok());
  // The search never saw the wrong choice: the same routes as the host twin's search.
  const auto host = cuda::insertion::make_host_engine(1);
  const Solution reference = cuda::insertion::solve_batched(*p, fixed_work(4), *host, "cuda-host");
  EXPECT_EQ(test::routes_of(s), test::routes_of(reference));
  EXPECT_EQ(s.summary.cost, reference.summary.cost);
}

TEST(Mismatches, AMissedPositionIsCaughtByTheWholeRecomputation) {
  const auto p = random_instance(23, 30, InstanceKind{true, true, false, false});
  // The choice-by-choice check cannot see a position the device missed; the whole call priced
  // again on the host twin (here every third call) does.
  CheckedEngine engine(std::make_unique<FaultyInsertion>(Faults{.missed = true}), 1, 3);
  const Solution s = cuda::insertion::solve_checked(*p, fixed_work(5), engine);
  EXPECT_GE(s.mismatches, 1u);
  EXPECT_FALSE(s.fallback.empty());
  EXPECT_TRUE(validate(*p, s).ok());
}

TEST(Mismatches, CheckedChoicesEqualTheHostTwinsOnEveryRequest) {
  const auto p = random_instance(24, 25, InstanceKind{true, true, true, true});
  const search::SegmentModel model(*p);
  std::vector<std::size_t> insertable;
  for (std::size_t t = 0; t < p->tasks().size(); ++t)
    if (p->task(t).type != TaskType::Delivery) insertable.push_back(t);
  search::WorkingSolution ws(model, insertable);
  const search::VehicleClasses classes(*p);
  const search::Neighbours near(*p, 8);
  std::mt19937_64 rng(9);
  std::vector<std::size_t> half(
      insertable.begin(), insertable.begin() + static_cast<std::ptrdiff_t>(insertable.size() / 2));
  search::BlinkInsertion(near, classes, 0.0)
      .apply(ws, half, rng, ws.vehicle_count(), *search::make_segment_engine());
  std::vector<std::size_t> all(p->vehicles().size());
  std::iota(all.begin(), all.end(), std::size_t{0});
  std::vector<search::InsertionRequest> requests;
  for (std::size_t t : ws.unassigned_tasks()) requests.push_back({&ws, t, all, rng(), 0});
  ASSERT_FALSE(requests.empty());
  std::vector<search::InsertionChoice> expected(requests.size()), got(requests.size());
  cuda::insertion::make_host_engine(1)->price(requests, expected);
  CheckedEngine engine(std::make_unique<FaultyInsertion>(Faults{.insertion = true}), 1);
  engine.price(requests, got);
  EXPECT_EQ(engine.mismatches(), 1u);
  for (std::size_t r = 0; r < requests.size(); ++r) EXPECT_EQ(got[r], expected[r]) << r;
}

}  // namespace
