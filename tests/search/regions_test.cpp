// Regions of one solution for parallel chains (search/regions.hpp): every vehicle in exactly one
// region, every region with two tours or more and about its share of the tasks, the unassigned
// tasks dealt out, other borders for another start, tours near each other together; and no
// regions when there are too few tours.

#include "routesolve/search/regions.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "test_problems.hpp"

namespace routesolve::search {
namespace {

/// 60 customers on random points, 12 vehicles; the plan puts 5 tasks on each of the first 10.
struct Fixture {
  ProblemPtr problem;
  TourPlan plan;
  Fixture() {
    ProblemSpec spec = test::points_spec(test::random_points(61, 5));
    for (std::size_t j = 1; j <= 60; ++j) spec.jobs.push_back(test::make_job(j, j));
    for (std::size_t v = 0; v < 12; ++v)
      spec.vehicles.push_back(test::make_vehicle(100 + v, 0, 100));
    problem = Problem::create(std::move(spec));
    plan.assign(12, {});
    for (std::size_t t = 0; t < 50; ++t) plan[t / 5].push_back(t);  // tasks 50..59 unassigned
  }
};

TEST(Regions, EveryVehicleInOneRegionAndTheTasksShared) {
  const Fixture f;
  for (const std::size_t count : {2u, 3u, 5u}) {
    const Regions r = split_regions(*f.problem, f.plan, count, 0);
    ASSERT_EQ(r.vehicles.size(), count);
    std::vector<std::size_t> tours(count, 0), tasks(count, 0);
    for (std::size_t v = 0; v < 12; ++v) {
      std::size_t in = 0;
      for (std::size_t k = 0; k < count; ++k) in += r.vehicles[k][v] != 0;
      EXPECT_EQ(in, 1u) << "vehicle " << v;
      EXPECT_TRUE(r.vehicles[r.owner[v]][v]);
      if (!f.plan[v].empty()) {
        ++tours[r.owner[v]];
        tasks[r.owner[v]] += f.plan[v].size();
      }
    }
    for (std::size_t k = 0; k < count; ++k) {
      EXPECT_GE(tours[k], 2u) << count << " regions";
      EXPECT_LE(tasks[k], 50 / count + 5) << count << " regions: about an equal share";
    }
    for (std::size_t t = 50; t < 60; ++t) {
      std::size_t owners = 0;
      for (std::size_t k = 0; k < count; ++k) owners += r.tasks[k][t] != 0;
      EXPECT_EQ(owners, 1u) << "unassigned task " << t;
    }
    for (std::size_t t = 0; t < 50; ++t)
      for (std::size_t k = 0; k < count; ++k) EXPECT_FALSE(r.tasks[k][t]) << "routed task " << t;
  }
}

TEST(Regions, AnotherStartMovesTheBorders) {
  const Fixture f;
  const Regions a = split_regions(*f.problem, f.plan, 3, 0),
                b = split_regions(*f.problem, f.plan, 3, 4);
  EXPECT_NE(a.owner, b.owner);
}

TEST(Regions, NearTogetherToursShareARegion) {
  // Two clusters far apart, three tours in each, listed alternately: whatever the start, the
  // nearest-neighbour chain over the tours runs through one cluster before the other, so each
  // of two regions is one cluster.
  std::vector<std::pair<double, double>> points{{500.0, 0.0}};  // depot between them
  for (std::size_t t = 0; t < 6; ++t) {
    const double x = t % 2 == 0 ? 0.0 : 1000.0;
    for (std::size_t k = 0; k < 4; ++k)
      points.emplace_back(x + static_cast<double>(t), static_cast<double>(k));
  }
  ProblemSpec spec = test::points_spec(points);
  for (std::size_t j = 1; j <= 24; ++j) spec.jobs.push_back(test::make_job(j, j));
  for (std::size_t v = 0; v < 6; ++v) spec.vehicles.push_back(test::make_vehicle(100 + v, 0, 100));
  const ProblemPtr problem = Problem::create(std::move(spec));
  TourPlan plan(6);
  for (std::size_t t = 0; t < 24; ++t) plan[t / 4].push_back(t);  // tour v in cluster v % 2
  for (std::size_t start = 0; start < 6; ++start) {
    const Regions r = split_regions(*problem, plan, 2, start);
    ASSERT_FALSE(r.vehicles.empty());
    for (std::size_t v = 2; v < 6; ++v)
      EXPECT_EQ(r.owner[v], r.owner[v % 2]) << "start " << start << ", tour " << v;
    EXPECT_NE(r.owner[0], r.owner[1]) << "start " << start;
  }
}

TEST(Regions, NoRegionsWithoutTwoToursEach) {
  const Fixture f;
  EXPECT_TRUE(split_regions(*f.problem, f.plan, 6, 0).vehicles.empty());  // 10 tours, 6 regions
  EXPECT_TRUE(
      split_regions(*f.problem, f.plan, 1, 0).vehicles.empty());  // one chain: nothing to split
  EXPECT_FALSE(split_regions(*f.problem, f.plan, 5, 0).vehicles.empty());
}

}  // namespace
}  // namespace routesolve::search
