// InterTwoOptStar (tail exchange between two tours), evaluate-then-apply on random solutions.

#include "operators/two_opt_star.hpp"

#include "operator_fixture.hpp"

namespace routesolve::test::operators {
namespace {

class InterTwoOptStarTest : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(InterTwoOptStarTest, DeltaIsExactAndRoutesStayFeasible) {
  std::size_t found = 0;
  for (const bool tight : {false, true}) {
    const Fixture f(GetParam(), tight);
    std::mt19937_64 rng(GetParam() * 7 + 1);
    for (int round = 0; round < 3; ++round) {
      const WorkingSolution ws = f.random_solution(rng);
      const std::size_t nt = f.problem->tasks().size();
      for (const Objective objective : {Objective::Cost, Objective::VehiclesThenCost})
        for (std::size_t u = 0; u < nt; ++u)
          for (std::size_t w = 0; w < nt; ++w) {
            if (u == w) continue;
            const InterTwoOptStar op(ws, *f.classes, u, w, objective);
            if (!op.is_valid()) continue;
            ASSERT_TRUE(improves(op.delta(), objective));
            // Only interchangeable vehicles exchange tails.
            EXPECT_EQ(f.classes->class_of(ws.route_of(u)), f.classes->class_of(ws.route_of(w)));
            check_move(f, ws, op);
            ++found;
          }
    }
  }
  EXPECT_GT(found, 0u);
}

INSTANTIATE_TEST_SUITE_P(RandomInstances, InterTwoOptStarTest, ::testing::Range<std::uint64_t>(1, 9));

}  // namespace
}  // namespace routesolve::test::operators
