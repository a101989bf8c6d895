// SwapStar (two tasks change tours, each to its best place in the other tour), evaluate-then-apply
// on every pair of tours of random solutions.

#include "routesolve/search/operators/swap_star.hpp"

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
  const auto tours = [](const Fixture&, const WorkingSolution& ws) { return ws.vehicle_count(); };
  const std::size_t found = check_pair_moves(
      GetParam(), tours, false,
      [](const Fixture&, const WorkingSolution& ws, std::size_t v1, std::size_t v2,
         Objective objective) { return SwapStar(ws, v1, v2, objective); },
      [](const Fixture&, const WorkingSolution& ws, std::size_t v1, std::size_t v2,
         const SwapStar& op) {
        EXPECT_EQ(ws.route_of(op.u()), v1);
        EXPECT_EQ(ws.route_of(op.w()), v2);
      });
  EXPECT_GT(found, 0u);
}

INSTANTIATE_TEST_SUITE_P(RandomInstances, SwapStarRandomTest,
                         ::testing::Range<std::uint64_t>(1, 9));

}  // namespace
}  // namespace routesolve::test::operators
