// Granular neighbour lists (search/neighbours.hpp) equal a full sort of every other task by
// c(a, b) + c(b, a) (unreachable arcs saturated), ties by index: on asymmetric matrices with many
// ties, unreachable arcs, tasks sharing a location, more tasks than one block (256), both storage
// widths, and k from 0 to beyond the task count.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "routesolve/search/neighbours.hpp"
#include "test_problems.hpp"

namespace routesolve::search {
namespace {

std::vector<std::size_t> reference(const Problem& p, std::size_t t, std::size_t k) {
  const TravelView tv = p.travel(0);
  const std::size_t a = p.task(t).location;
  std::vector<std::pair<std::int64_t, std::size_t>> order;
  for (std::size_t w = 0; w < p.tasks().size(); ++w) {
    if (w == t) continue;
    const std::size_t b = p.task(w).location;
    order.emplace_back(std::min(tv.cost(a, b), kUnreachable) + std::min(tv.cost(b, a), kUnreachable), w);
  }
  std::sort(order.begin(), order.end());
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < std::min(k, order.size()); ++i) out.push_back(order[i].second);
  return out;
}

ProblemPtr random_problem(std::size_t locations, std::size_t tasks, bool unreachable, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> value(0, 12);  // few values: many ties
  Matrix m(locations);
  for (std::size_t i = 0; i < locations; ++i)
    for (std::size_t j = 0; j < locations; ++j)
      if (i != j) m(i, j) = unreachable && rng() % 17 == 0 ? kUnreachable : value(rng);
  ProblemSpec spec;
  spec.matrices["car"] = ProfileMatrices{m, m, std::nullopt};
  std::uniform_int_distribution<std::size_t> where(1, locations - 1);
  for (std::size_t t = 0; t < tasks; ++t) spec.jobs.push_back(test::make_job(t + 1, where(rng)));
  spec.vehicles.push_back(test::make_vehicle(1, 0, 1000000));
  return Problem::create(std::move(spec));
}

void expect_reference(const Problem& p) {
  const std::size_t n = p.tasks().size();
  for (const std::size_t k : {std::size_t{0}, std::size_t{1}, std::size_t{7}, n - 1, n + 3}) {
    const Neighbours near(p, k);
    for (std::size_t t = 0; t < n; ++t) ASSERT_EQ(std::vector<std::size_t>(near.of(t).begin(), near.of(t).end()), reference(p, t, k)) << "task " << t << " k " << k;
  }
}

TEST(Neighbours, EqualAFullSortOnNarrowMatrices) {
  const ProblemPtr p = random_problem(90, 300, false, 1);
  ASSERT_TRUE(p->travel(0).costs.narrow());
  expect_reference(*p);
}

TEST(Neighbours, EqualAFullSortWithUnreachableArcs) {
  const ProblemPtr p = random_problem(80, 140, true, 2);
  ASSERT_FALSE(p->travel(0).costs.narrow());
  expect_reference(*p);
}

TEST(Neighbours, EqualAFullSortOnEuclideanPoints) {
  ProblemSpec spec = test::points_spec(test::random_points(601, 3));
  for (std::size_t j = 1; j <= 600; ++j) spec.jobs.push_back(test::make_job(j, j));
  spec.vehicles.push_back(test::make_vehicle(1, 0, 1000));
  expect_reference(*Problem::create(std::move(spec)));
}

}  // namespace
}  // namespace routesolve::search
