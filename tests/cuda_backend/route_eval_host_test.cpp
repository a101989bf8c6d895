// Host twin of the batched route evaluation against an independent plain-loop recomputation.

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "route_batch_fixture.hpp"
#include "routesolve/cuda/route_eval.hpp"
#include "routesolve/error.hpp"

namespace routesolve::cuda {
namespace {

void expect_equal(const std::vector<RouteTotals>& expected, const std::vector<RouteTotals>& found) {
  ASSERT_EQ(expected.size(), found.size());
  for (std::size_t r = 0; r < expected.size(); ++r) {
    EXPECT_EQ(expected[r].duration, found[r].duration) << "route " << r;
    EXPECT_EQ(expected[r].distance, found[r].distance) << "route " << r;
    EXPECT_EQ(expected[r].cost, found[r].cost) << "route " << r;
  }
}

TEST(RouteEvalHost, MatchesPlainLoopsOnRandomBatches) {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    test::RandomBatchOptions o;
    o.locations = 1 + seed % 17;
    o.travel_count = 1 + seed % 4;
    o.routes = seed % 50;
    o.max_visits = 1 + seed % 70;  // beyond a warp's 32 lanes too
    const test::OwnedBatch b = test::random_batch(seed, o);
    SCOPED_TRACE("seed " + std::to_string(seed));
    expect_equal(test::reference_totals(b.batch), evaluate_routes_host(b.batch));
  }
}

TEST(RouteEvalHost, LargeBatch) {
  test::RandomBatchOptions o;
  o.locations = 200;
  o.travel_count = 2;
  o.routes = 3000;
  o.max_visits = 150;
  const test::OwnedBatch b = test::random_batch(7, o);
  expect_equal(test::reference_totals(b.batch), evaluate_routes_host(b.batch));
}

TEST(RouteEvalHost, HandWorkedRoutes) {
  // 3 locations; duration(i,j) = 10*i + j, distance = 100*(10*i + j), cost = 1000*(10*i + j).
  std::vector<std::int64_t> d, dist, c;
  for (std::int64_t i = 0; i < 3; ++i)
    for (std::int64_t j = 0; j < 3; ++j) {
      d.push_back(10 * i + j);
      dist.push_back(100 * (10 * i + j));
      c.push_back(1000 * (10 * i + j));
    }
  RouteBatch batch;
  batch.travel.push_back(TravelView{3, d.data(), dist.data(), c.data()});
  const std::vector<std::uint32_t> visits{1, 2};
  batch.add_route(0, 0, 0, visits);                      // 0->1->2->0: 1 + 12 + 20 = 33
  batch.add_route(0, kNoLocation, 0, visits);            // 1->2->0: 32
  batch.add_route(0, 0, kNoLocation, visits);            // 0->1->2: 13
  batch.add_route(0, kNoLocation, kNoLocation, visits);  // 1->2: 12
  batch.add_route(0, 0, 2, {});                          // empty: unused vehicle
  const std::vector<std::uint32_t> one{2};
  batch.add_route(0, kNoLocation, kNoLocation, one);  // single visit, no arcs
  const std::vector<RouteTotals> expected{{33, 3300, 33000}, {32, 3200, 32000}, {13, 1300, 13000},
                                          {12, 1200, 12000}, {0, 0, 0},         {0, 0, 0}};
  expect_equal(expected, evaluate_routes_host(batch));
}

TEST(RouteEvalHost, EmptyBatch) {
  RouteBatch batch;
  EXPECT_TRUE(evaluate_routes_host(batch).empty());
}

TEST(RouteEvalHost, RejectsInconsistentBatches) {
  const test::OwnedBatch good = test::random_batch(3);
  const auto expect_invalid = [](const RouteBatch& batch) {
    try {
      (void)evaluate_routes_host(batch);
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::InvalidInput) << e.what();
      EXPECT_NE(std::string(e.what()).find("route batch"), std::string::npos) << e.what();
    }
  };
  RouteBatch bad = good.batch;
  bad.route_travel[0] = 99;
  expect_invalid(bad);
  bad = good.batch;
  bad.route_start[1] = 1000;
  expect_invalid(bad);
  bad = good.batch;
  bad.route_end[1] = -5;
  expect_invalid(bad);
  bad = good.batch;
  bad.visits.push_back(0);  // offsets no longer end at the visit count
  expect_invalid(bad);
  bad = good.batch;
  if (!bad.visits.empty()) {
    bad.visits[0] = 12345;
    expect_invalid(bad);
  }
  bad = good.batch;
  bad.route_end.pop_back();
  expect_invalid(bad);
  bad = good.batch;
  bad.travel[0].costs = nullptr;
  expect_invalid(bad);
}

}  // namespace
}  // namespace routesolve::cuda
