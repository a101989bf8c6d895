// InterTwoOptStar (tail exchange between two tours), evaluate-then-apply on random solutions.

#include "routesolve/search/operators/two_opt_star.hpp"

#include "operator_fixture.hpp"

namespace routesolve::test::operators {
namespace {

class InterTwoOptStarTest : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(InterTwoOptStarTest, DeltaIsExactAndRoutesStayFeasible) {
  const std::size_t found = check_pair_moves(
      GetParam(), task_count, true,
      [](const Fixture& f, const WorkingSolution& ws, std::size_t u, std::size_t w,
         Objective objective) { return InterTwoOptStar(ws, *f.classes, u, w, objective); },
      [](const Fixture& f, const WorkingSolution& ws, std::size_t u, std::size_t w,
         const InterTwoOptStar&) {
        // Only interchangeable vehicles exchange tails.
        EXPECT_EQ(f.classes->class_of(ws.route_of(u)), f.classes->class_of(ws.route_of(w)));
      });
  EXPECT_GT(found, 0u);
}

INSTANTIATE_TEST_SUITE_P(RandomInstances, InterTwoOptStarTest,
                         ::testing::Range<std::uint64_t>(1, 9));

}  // namespace
}  // namespace routesolve::test::operators
