// The CVRPLIB EUC_2D / CEIL_2D and Solomon matrices computed row by row in floating point equal
// the exact integer arcs (integer square root), near every rounding boundary, and are stored in
// 32 bits; coordinates the fast path cannot take exactly (fractional, or too far apart) still give
// the exact arcs.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "routesolve/io/benchmark_formats.hpp"

namespace routesolve::io {
namespace {

std::uint64_t isqrt(std::uint64_t n) {
  auto r = static_cast<std::uint64_t>(std::sqrt(static_cast<double>(n)));
  while (r > 0 && r * r > n) --r;
  while ((r + 1) * (r + 1) <= n) ++r;
  return r;
}

std::string cvrplib(const std::vector<std::pair<std::int64_t, std::int64_t>>& points,
                    const std::string& type) {
  std::string s = "NAME : t\nTYPE : CVRP\nDIMENSION : " + std::to_string(points.size()) +
                  "\nEDGE_WEIGHT_TYPE : " + type + "\nCAPACITY : 100\nNODE_COORD_SECTION\n";
  for (std::size_t i = 0; i < points.size(); ++i)
    s += std::to_string(i + 1) + " " + std::to_string(points[i].first) + " " +
         std::to_string(points[i].second) + "\n";
  s += "DEMAND_SECTION\n";
  for (std::size_t i = 0; i < points.size(); ++i)
    s += std::to_string(i + 1) + (i == 0 ? " 0\n" : " 1\n");
  return s + "DEPOT_SECTION\n1\n-1\nEOF\n";
}

std::vector<std::pair<std::int64_t, std::int64_t>> random_points(std::size_t n, std::int64_t span,
                                                                 unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> u(0, span);
  std::vector<std::pair<std::int64_t, std::int64_t>> p(n);
  for (auto& [x, y] : p) x = u(rng), y = u(rng);
  // Pairs at distance sqrt(q^2 + q) and sqrt(q^2 + q + 1) (either side of q + 1/2), and exact
  // squares.
  p.push_back({0, 0});
  p.push_back({3, 4});
  p.push_back({999999, 0});
  p.push_back({0, 1000});
  return p;
}

void expect_exact(const std::vector<std::pair<std::int64_t, std::int64_t>>& points,
                  const std::string& type, bool narrow) {
  const ProblemSpec spec = parse_cvrplib(cvrplib(points, type), "t.vrp");
  const Matrix& m = spec.matrices.at("car").durations;
  ASSERT_EQ(m.size(), points.size());
  EXPECT_EQ(m.narrow(), narrow);
  for (std::size_t i = 0; i < points.size(); ++i)
    for (std::size_t j = 0; j < points.size(); ++j) {
      const auto dx = static_cast<std::uint64_t>(std::llabs(points[i].first - points[j].first));
      const auto dy = static_cast<std::uint64_t>(std::llabs(points[i].second - points[j].second));
      const std::uint64_t s = dx * dx + dy * dy;
      const std::uint64_t r = isqrt(s);
      const std::uint64_t want =
          type == "CEIL_2D" ? (r * r == s ? r : r + 1) : (s - r * r > r ? r + 1 : r);
      ASSERT_EQ(m(i, j), static_cast<std::int64_t>(want)) << type << " " << i << " " << j;
    }
}

TEST(EuclideanMatrix, RowByRowEqualsTheExactArcs) {
  expect_exact(random_points(150, 1000, 1), "EUC_2D", true);
  expect_exact(random_points(150, 1000000, 2), "EUC_2D", true);  // squared arcs up to 2 * 10^12
  expect_exact(random_points(150, 1000000, 3), "CEIL_2D", true);
}

TEST(EuclideanMatrix, BoundaryPairsRoundLikeTheIntegerSquareRoot) {
  // From the origin, (m^2, m) is at sqrt(q^2 + q) with q = m^2, just below q + 1/2, and
  // (m^2 - 1, m) at sqrt(q^2 + q + 1) with q = m^2 - 1, just above.
  std::vector<std::pair<std::int64_t, std::int64_t>> points{{0, 0}};
  for (const std::int64_t m : {31, 351, 1023}) {
    points.push_back({m * m, m});
    points.push_back({m * m - 1, m});
  }
  expect_exact(points, "EUC_2D", true);
  const ProblemSpec spec = parse_cvrplib(cvrplib(points, "EUC_2D"), "t.vrp");
  EXPECT_EQ(spec.matrices.at("car").durations(0, 1), 31 * 31);  // q, rounded down
  EXPECT_EQ(spec.matrices.at("car").durations(0, 2),
            31 * 31);  // q + 1 with q = 31^2 - 1, rounded up
}

TEST(EuclideanMatrix, FarApartPointsTakeTheExactPath) {
  // Squared arcs beyond 2^42: computed pair by pair, still exact (and still within 32 bits).
  expect_exact(random_points(40, 100000000, 4), "EUC_2D", true);
}

TEST(EuclideanMatrix, LargeFilesHoldThePointsWithTheSameArcs) {
  // Above kPlanarTableBytes (4,096 locations) the reader keeps the points: one matrix, computed,
  // shared by durations, distances and costs, with the exact arcs (a sample of the pairs).
  for (const std::string type : {"EUC_2D", "CEIL_2D"}) {
    const auto points = random_points(5000, 1000000, 5);
    const ProblemSpec spec = parse_cvrplib(cvrplib(points, type), "t.vrp");
    const ProfileMatrices& pm = spec.matrices.at("car");
    ASSERT_TRUE(pm.durations.computed());
    EXPECT_TRUE(pm.distances.shares(pm.durations));
    EXPECT_TRUE(pm.costs->shares(pm.durations));
    ASSERT_NE(pm.durations.planar(), nullptr);
    for (std::size_t i = 0; i < points.size(); i += 7)
      for (std::size_t j = i % 13; j < points.size(); j += 13) {
        const auto dx = static_cast<std::uint64_t>(std::llabs(points[i].first - points[j].first));
        const auto dy = static_cast<std::uint64_t>(std::llabs(points[i].second - points[j].second));
        const std::uint64_t sq = dx * dx + dy * dy, r = isqrt(sq);
        const std::uint64_t want =
            type == "CEIL_2D" ? (r * r == sq ? r : r + 1) : (sq - r * r > r ? r + 1 : r);
        ASSERT_EQ(pm.durations(i, j), static_cast<std::int64_t>(want))
            << type << " " << i << " " << j;
      }
  }
  // Below it the cells are stored, equal to the computed entries.
  const ProblemSpec small = parse_cvrplib(cvrplib(random_points(300, 1000, 6), "EUC_2D"), "t.vrp");
  const Matrix& cells = small.matrices.at("car").durations;
  EXPECT_FALSE(cells.computed());
  ASSERT_NE(cells.planar(), nullptr);
  EXPECT_TRUE(cells == Matrix::from_points(std::make_shared<const PlanarSource>(*cells.planar())));
}

}  // namespace
}  // namespace routesolve::io
