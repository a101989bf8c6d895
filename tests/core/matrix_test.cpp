// Matrix storage: 32 bits while every value fits, widened once (values kept) when one does not,
// copy on write across both widths, equality by value whatever the width, and the travel views
// of a problem reading 32-bit tables in place. The planar source of a matrix: shared by copies,
// forgotten by a write, followed by Problem::planar_costs and permuted by Problem::relocated.

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

#include "routesolve/problem.hpp"
#include "spec_builders.hpp"

namespace routesolve {
namespace {

TEST(Matrix, NarrowUntilAValueDoesNotFit) {
  Matrix m(3, 7);
  EXPECT_TRUE(m.narrow());
  m(0, 1) = std::numeric_limits<std::int32_t>::max();
  m(1, 0) = std::numeric_limits<std::int32_t>::min();
  EXPECT_TRUE(m.narrow());
  m(2, 1) = kUnreachable;
  EXPECT_FALSE(m.narrow());
  EXPECT_EQ(m(2, 1), kUnreachable);
  EXPECT_EQ(m(0, 1), std::numeric_limits<std::int32_t>::max());
  EXPECT_EQ(m(1, 0), std::numeric_limits<std::int32_t>::min());
  EXPECT_EQ(m(2, 2), 7);
  EXPECT_NE(m.data64(), nullptr);
  EXPECT_EQ(m.data32(), nullptr);
  EXPECT_FALSE(Matrix(2, kUnreachable).narrow());
  EXPECT_TRUE(Matrix(2, std::vector<std::int64_t>{1, 2, 3, 4}).narrow());
  EXPECT_FALSE(Matrix(2, std::vector<std::int64_t>{1, 2, std::int64_t{1} << 40, 4}).narrow());
}

TEST(Matrix, CopyOnWriteAndEqualityAcrossWidths) {
  Matrix a(2, std::vector<std::int64_t>{0, 5, 6, 0});
  Matrix b = a;
  EXPECT_TRUE(b.shares(a));
  b(0, 1) = kUnreachable;  // b widens; a keeps its storage and values
  EXPECT_FALSE(b.shares(a));
  EXPECT_TRUE(a.narrow());
  EXPECT_EQ(a(0, 1), 5);
  EXPECT_NE(a, b);
  b(0, 1) = 5;  // equal values, other widths
  EXPECT_FALSE(b.narrow());
  EXPECT_EQ(a, b);
  EXPECT_EQ(b, a);
  Matrix c = a;
  c(1, 0) += 4;
  EXPECT_EQ(c(1, 0), 10);
  EXPECT_EQ(a(1, 0), 6);
  c(0, 1) = c(1, 0) = 3;
  EXPECT_EQ(c(0, 1), 3);
  EXPECT_EQ(c.values(), (std::vector<std::int64_t>{0, 3, 3, 0}));
}

TEST(Matrix, TravelViewsReadTheNarrowTablesInPlace) {
  ProblemSpec spec = test::line_spec(4);
  spec.jobs.push_back(test::job(1, 1));
  spec.jobs.push_back(test::job(2, 3));
  spec.vehicles.push_back(test::vehicle(1, 0, 0));
  const Matrix durations = spec.matrices["car"].durations;
  ASSERT_TRUE(durations.narrow());
  const ProblemPtr p = Problem::create(spec);
  const TravelView tv = p->travel(0);
  EXPECT_TRUE(tv.durations.narrow());
  EXPECT_EQ(tv.durations.data(),
            static_cast<const void*>(p->spec().matrices.at("car").durations.data32()));
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 4; ++j) {
      EXPECT_EQ(tv.duration(i, j), durations(i, j));
      EXPECT_EQ(tv.distance(i, j), 10 * durations(i, j));
    }
  // A 64-bit table (an unreachable arc) is read as such, the sentinel kept.
  spec.matrices["car"].durations(2, 3) = kUnreachable;
  const ProblemPtr q = Problem::create(spec);
  EXPECT_FALSE(q->travel(0).durations.narrow());
  EXPECT_EQ(q->travel(0).duration(2, 3), kUnreachable);
  EXPECT_EQ(q->travel(0).duration(3, 2), 10);
}

TEST(Matrix, PlanarSourceSharedByCopiesForgottenByAWrite) {
  ProblemSpec spec = test::line_spec(4);  // durations 10 |i - j|: the points (i, 0) at scale 10
  spec.jobs.push_back(test::job(1, 1));
  spec.jobs.push_back(test::job(2, 3));
  spec.vehicles.push_back(test::vehicle(1, 0, 0));
  auto source =
      std::make_shared<PlanarSource>(PlanarSource{{{0, 0}, {1, 0}, {2, 0}, {3, 0}}, 10.0});
  EXPECT_THROW(Matrix(3).set_planar(source), std::invalid_argument);
  Matrix& durations = spec.matrices["car"].durations;
  durations.set_planar(source);
  const Matrix copy = durations;
  EXPECT_EQ(copy.planar(), source.get());
  // At the default cost per hour the costs are the durations: vehicle 0's cost table is planar.
  const ProblemPtr p = Problem::create(spec);
  EXPECT_EQ(p->planar_costs(0), source.get());
  const ProblemPtr moved = p->relocated({2, 0, 3, 1});
  ASSERT_NE(moved->planar_costs(0), nullptr);
  EXPECT_EQ(moved->planar_costs(0)->points,
            (std::vector<Coordinates>{{2, 0}, {0, 0}, {3, 0}, {1, 0}}));
  EXPECT_EQ(moved->planar_costs(0)->scale, 10.0);
  // A write, even of the same value, forgets the source; the copy keeps it with its storage.
  durations(1, 2) = 10;
  EXPECT_EQ(durations.planar(), nullptr);
  EXPECT_EQ(copy.planar(), source.get());
  EXPECT_EQ(Problem::create(spec)->planar_costs(0), nullptr);
  // Planar entries are trusted to be non-negative; a negative one written since is found.
  durations = copy;
  durations(0, 3) = -1;
  EXPECT_THROW((void)Problem::create(spec), Error);
  // Costs that are not the table itself (twice the durations) are not planar.
  spec.matrices["car"].durations = copy;
  for (VehicleSpec& v : spec.vehicles) v.costs.per_hour = 7200;
  EXPECT_EQ(Problem::create(spec)->planar_costs(0), nullptr);
}

}  // namespace
}  // namespace routesolve
