// Tables computed from points (Matrix::from_points, TravelTable's computed form): every entry
// equals the exact integer rounding of scale x distance for each rounding, on random points,
// near the halves and at the largest spans; the stored cells (materialise) equal the computed
// entries; a write stores the cells; a problem holds computed tables without cells, and its
// relocated copy permutes the points.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <stdexcept>
#include <vector>

#include "routesolve/problem.hpp"
#include "spec_builders.hpp"

namespace routesolve {
namespace {

std::uint64_t isqrt(std::uint64_t n) {
  auto r = static_cast<std::uint64_t>(std::sqrt(static_cast<long double>(n)));
  while (r * r > n) --r;
  while ((r + 1) * (r + 1) <= n) ++r;
  return r;
}

/// The rounding of sqrt(n) in integers only: the independent reference.
std::int64_t exact(std::uint64_t n, PlanarRounding rounding) {
  const std::uint64_t r = isqrt(n);
  switch (rounding) {
    case PlanarRounding::Nearest:
      return static_cast<std::int64_t>(n - r * r > r ? r + 1 : r);  // sqrt(n) >= r + 1/2
    case PlanarRounding::Down:
      return static_cast<std::int64_t>(r);
    default:
      return static_cast<std::int64_t>(r * r == n ? r : r + 1);
  }
}

std::shared_ptr<const PlanarSource> source(std::vector<Coordinates> points, double scale,
                                           PlanarRounding rounding) {
  return std::make_shared<const PlanarSource>(PlanarSource{std::move(points), scale, rounding});
}

/// Every entry of the computed matrix, its travel table and its stored cells against `exact`.
void expect_exact(const std::shared_ptr<const PlanarSource>& src) {
  ASSERT_TRUE(planar_exact(*src));
  const Matrix m = Matrix::from_points(src);
  Matrix cells = m;
  cells.materialise();
  ASSERT_TRUE(m.computed());
  ASSERT_FALSE(cells.computed());
  ASSERT_NE(cells.data32(), nullptr);
  const TravelTable table = m.table();
  const std::size_t n = m.size();
  const auto s = static_cast<std::int64_t>(src->scale);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const auto dx = static_cast<std::int64_t>(src->points[i].lon - src->points[j].lon);
      const auto dy = static_cast<std::int64_t>(src->points[i].lat - src->points[j].lat);
      const auto sq = static_cast<std::uint64_t>((dx * dx + dy * dy) * s * s);
      const std::int64_t want = exact(sq, src->rounding);
      ASSERT_EQ(m(i, j), want) << "points " << i << ", " << j << " at scale " << s;
      ASSERT_EQ(cells(i, j), want);
      ASSERT_EQ(table.at(i, j, n), want);
      ASSERT_EQ(table[i * n + j], want);
    }
  EXPECT_TRUE(m == cells);
}

const PlanarRounding kRoundings[] = {PlanarRounding::Nearest, PlanarRounding::Down,
                                     PlanarRounding::Up};

TEST(PlanarTable, RandomPointsEveryRoundingAndScale) {
  std::mt19937_64 rng(7);
  for (const double scale : {1.0, 10.0, 1000.0})
    for (const PlanarRounding rounding : kRoundings) {
      std::uniform_int_distribution<int> coord(-700, 700);  // squared span x 1000^2 below 2^42
      std::vector<Coordinates> points(60);
      for (Coordinates& p : points)
        p = {static_cast<double>(coord(rng)), static_cast<double>(coord(rng))};
      expect_exact(source(points, scale, rounding));
    }
}

TEST(PlanarTable, NearHalvesAndWholes) {
  // Squared arcs r^2 + r (root just below r + 1/2), r^2 + r + 1 (just above), r^2 and r^2 + 1:
  // (m^2, m) gives m^4 + m^2 = r^2 + r with r = m^2; the others are found on a line.
  for (const PlanarRounding rounding : kRoundings) {
    std::vector<Coordinates> points{{0, 0}};
    for (double m : {3.0, 40.0, 700.0, 1400.0}) points.push_back({m * m, m});
    for (double x : {1.0, 1000.0, 1048575.0}) points.push_back({x, 1});  // x^2 + 1
    expect_exact(source(points, 1.0, rounding));
    expect_exact(
        source({{0, 0}, {1482910, 1482910}, {1482910, 0}}, 1.0, rounding));  // near the 2^42 span
  }
  // At scale 1000 the arcs are sqrt(1e6 (dx^2 + dy^2)): around the halves of the thousandths.
  for (const PlanarRounding rounding : kRoundings) {
    std::vector<Coordinates> points;
    for (int k = 0; k < 40; ++k)
      points.push_back({static_cast<double>(k * 37 % 1000), static_cast<double>(k * k % 997)});
    expect_exact(source(points, 1000.0, rounding));
  }
}

TEST(PlanarTable, LargeCoordinatesUpToTheExactBound) {
  // Offsets do not matter, only the span: points far from the origin with a span near 2^21.
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<std::int64_t> coord(0, 1482000);
  for (const PlanarRounding rounding : kRoundings) {
    std::vector<Coordinates> points(40);
    for (Coordinates& p : points)
      p = {static_cast<double>(coord(rng) + 500'000'000),
           static_cast<double>(coord(rng) - 400'000'000)};
    expect_exact(source(points, 1.0, rounding));
  }
}

TEST(PlanarTable, OnlyWhereExactInFloatingPoint) {
  EXPECT_TRUE(planar_exact(*source({{0, 0}, {3, 4}}, 10.0, PlanarRounding::Down)));
  EXPECT_FALSE(
      planar_exact(*source({{0, 0.5}, {3, 4}}, 1.0, PlanarRounding::Nearest)));  // fractional
  EXPECT_FALSE(planar_exact(*source({{0, 0}, {3, 4}}, 2.5, PlanarRounding::Nearest)));    // scale
  EXPECT_FALSE(planar_exact(*source({{0, 0}, {3e6, 0}}, 1.0, PlanarRounding::Nearest)));  // span
  EXPECT_FALSE(
      planar_exact(*source({{0, 0}, {2e9, 0}}, 1.0, PlanarRounding::Nearest)));  // magnitude
  EXPECT_FALSE(
      planar_exact(*source({{0, 0}, {NAN, 0}}, 1.0, PlanarRounding::Nearest)));  // not finite
  EXPECT_FALSE(planar_exact(*source({}, 1.0, PlanarRounding::Nearest)));
  EXPECT_THROW((void)Matrix::from_points(source({{0, 0.5}, {3, 4}}, 1.0, PlanarRounding::Nearest)),
               std::invalid_argument);
}

TEST(PlanarTable, CopiesShareAWriteStoresTheCells) {
  const auto src = source({{0, 0}, {3, 4}, {6, 8}}, 10.0, PlanarRounding::Nearest);
  Matrix m = Matrix::from_points(src);
  const Matrix copy = m;
  EXPECT_TRUE(m.shares(copy));
  EXPECT_EQ(m.storage_bytes(), 3 * sizeof(PlanarPoint));
  EXPECT_EQ(m.data32(), nullptr);
  EXPECT_EQ(m.data64(), nullptr);
  EXPECT_NE(m.storage(), nullptr);
  EXPECT_EQ(m.planar(), src.get());
  EXPECT_EQ(m(0, 2), 100);
  EXPECT_EQ(m.values(), (std::vector<std::int64_t>{0, 50, 100, 50, 0, 50, 100, 50, 0}));
  m(0, 1) = 7;  // stores the cells, then writes: the source is forgotten, the copy keeps both
  EXPECT_FALSE(m.computed());
  EXPECT_EQ(m.planar(), nullptr);
  EXPECT_EQ(m(0, 1), 7);
  EXPECT_EQ(m(1, 2), 50);
  EXPECT_TRUE(copy.computed());
  EXPECT_EQ(copy(0, 1), 50);
  EXPECT_FALSE(m == copy);
  // Moved to another address (a device arena), a computed table reads the same entries.
  const std::vector<PlanarPoint> elsewhere(static_cast<const PlanarPoint*>(copy.storage()),
                                           static_cast<const PlanarPoint*>(copy.storage()) + 3);
  const TravelTable moved = copy.table().moved_to(elsewhere.data());
  EXPECT_TRUE(moved.computed());
  EXPECT_EQ(moved.storage_bytes(3), 3 * sizeof(PlanarPoint));
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j) EXPECT_EQ(moved.at(i, j, 3), copy(i, j));
}

/// A line of jobs at random integral points, durations = distances = costs = one matrix.
ProblemSpec planar_spec(const Matrix& m) {
  ProblemSpec spec;
  ProfileMatrices pm;
  pm.durations = m;
  pm.distances = m;
  pm.costs = m;
  spec.matrices["car"] = pm;
  for (std::size_t i = 1; i < m.size(); ++i) spec.jobs.push_back(test::job(i, i));
  spec.vehicles.push_back(test::vehicle(1, 0, 0));
  return spec;
}

TEST(PlanarTable, AProblemReadsComputedTablesAndItsRelocatedCopyPermutesThePoints) {
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<int> coord(0, 500);
  std::vector<Coordinates> points(30);
  for (Coordinates& p : points)
    p = {static_cast<double>(coord(rng)), static_cast<double>(coord(rng))};
  const auto src = source(points, 1000.0, PlanarRounding::Nearest);
  const Matrix computed = Matrix::from_points(src);
  Matrix cells = computed;
  cells.materialise();
  const ProblemPtr a = Problem::create(planar_spec(computed));
  const ProblemPtr b = Problem::create(planar_spec(cells));
  const TravelView ta = a->travel(0), tb = b->travel(0);
  EXPECT_TRUE(ta.costs.computed());
  EXPECT_TRUE(ta.durations.computed());
  EXPECT_FALSE(tb.costs.computed());
  EXPECT_EQ(a->planar_costs(0), src.get());
  EXPECT_EQ(b->planar_costs(0), src.get());
  for (std::size_t i = 0; i < ta.n; ++i)
    for (std::size_t j = 0; j < ta.n; ++j) {
      ASSERT_EQ(ta.cost(i, j), tb.cost(i, j));
      ASSERT_EQ(ta.arc(i, j).duration, tb.duration(i, j));
      ASSERT_EQ(ta.arc(i, j).distance, tb.distance(i, j));
    }
  std::vector<std::size_t> order(points.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = (k * 7 + 3) % order.size();
  const ProblemPtr ra = a->relocated(order), rb = b->relocated(order);
  const TravelView va = ra->travel(0), vb = rb->travel(0);
  EXPECT_TRUE(va.costs.computed());
  ASSERT_NE(ra->planar_costs(0), nullptr);
  EXPECT_EQ(ra->planar_costs(0)->rounding, PlanarRounding::Nearest);
  for (std::size_t i = 0; i < va.n; ++i)
    for (std::size_t j = 0; j < va.n; ++j) {
      ASSERT_EQ(va.cost(i, j), ta.cost(order[i], order[j]));
      ASSERT_EQ(va.cost(i, j), vb.cost(i, j));
    }
  // A slower vehicle converts the durations into its own table, computed entries read once.
  ProblemSpec slow = planar_spec(computed);
  slow.vehicles.front().speed_factor = 2.0;
  const ProblemPtr c = Problem::create(slow);
  EXPECT_FALSE(c->travel(0).durations.computed());
  EXPECT_EQ(c->travel(0).duration(0, 1), std::llround(static_cast<double>(computed(0, 1)) / 2.0));
}

}  // namespace
}  // namespace routesolve
