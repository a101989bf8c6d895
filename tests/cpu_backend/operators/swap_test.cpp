// InterSwap (two jobs of different tours change places), evaluate-then-apply on random solutions.

#include "routesolve/search/operators/swap.hpp"

#include "operator_fixture.hpp"

namespace routesolve::test::operators {
namespace {

class InterSwapTest : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(InterSwapTest, DeltaIsExactAndRoutesStayFeasible) {
  const std::size_t found = check_pair_moves(
      GetParam(), task_count, true,
      [](const Fixture&, const WorkingSolution& ws, std::size_t u, std::size_t w, Objective objective) {
        return InterSwap(ws, u, w, objective);
      },
      [](const Fixture& f, const WorkingSolution&, std::size_t u, std::size_t w, const InterSwap&) {
        // Shipment halves never swap.
        EXPECT_EQ(f.problem->task(u).sibling, kNone);
        EXPECT_EQ(f.problem->task(w).sibling, kNone);
      });
  EXPECT_GT(found, 0u);
}

TEST_P(InterSwapTest, NothingBeatsABoundNoMoveReaches) {
  const Fixture f(GetParam(), false);
  std::mt19937_64 rng(GetParam());
  const WorkingSolution ws = f.random_solution(rng);
  Score unreachable;
  unreachable.cost = -kUnreachable;
  const std::size_t nt = f.problem->tasks().size();
  for (std::size_t u = 0; u < nt; ++u)
    for (std::size_t w = 0; w < nt; ++w) EXPECT_FALSE(InterSwap(ws, u, w, Objective::Cost, unreachable).is_valid());
}

INSTANTIATE_TEST_SUITE_P(RandomInstances, InterSwapTest, ::testing::Range<std::uint64_t>(1, 9));

}  // namespace
}  // namespace routesolve::test::operators
