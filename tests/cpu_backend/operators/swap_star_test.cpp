// SwapStar (two tasks change tours, each to its best place in the other tour), evaluate-then-apply
// on every pair of tours of random solutions.

#include "operators/swap_star.hpp"

#include "operator_fixture.hpp"

namespace routesolve::test::operators {
namespace {

TEST(SwapStarTest, SwappedPlacesTheArrivingTask) {
  const std::vector<std::size_t> tasks{10, 11, 12, 13};
  EXPECT_EQ(SwapStar::swapped(tasks, 1, 99, kNone), (std::vector<std::size_t>{10, 99, 12, 13}));
  EXPECT_EQ(SwapStar::swapped(tasks, 1, 99, 0), (std::vector<std::size_t>{99, 10, 12, 13}));
  EXPECT_EQ(SwapStar::swapped(tasks, 1, 99, 3), (std::vector<std::size_t>{10, 12, 99, 13}));
  EXPECT_EQ(SwapStar::swapped(tasks, 1, 99, 4), (std::vector<std::size_t>{10, 12, 13, 99}));
}

class SwapStarRandomTest : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(SwapStarRandomTest, DeltaIsExactAndRoutesStayFeasible) {
  std::size_t found = 0;
  for (const bool tight : {false, true}) {
    const Fixture f(GetParam(), tight);
    std::mt19937_64 rng(GetParam() * 7 + 1);
    for (int round = 0; round < 3; ++round) {
      const WorkingSolution ws = f.random_solution(rng);
      for (const Objective objective : {Objective::Cost, Objective::VehiclesThenCost})
        for (std::size_t v1 = 0; v1 < ws.vehicle_count(); ++v1)
          for (std::size_t v2 = 0; v2 < ws.vehicle_count(); ++v2) {
            const SwapStar op(ws, v1, v2, objective);
            if (!op.is_valid()) continue;
            ASSERT_TRUE(improves(op.delta(), objective));
            EXPECT_EQ(ws.route_of(op.u()), v1);
            EXPECT_EQ(ws.route_of(op.w()), v2);
            check_move(f, ws, op);
            ++found;
          }
    }
  }
  EXPECT_GT(found, 0u);
}

INSTANTIATE_TEST_SUITE_P(RandomInstances, SwapStarRandomTest, ::testing::Range<std::uint64_t>(1, 9));

}  // namespace
}  // namespace routesolve::test::operators
