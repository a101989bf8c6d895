// InterSwap (two jobs of different tours, or two strings of jobs, change places),
// evaluate-then-apply on random solutions.

#include "routesolve/search/operators/swap.hpp"

#include "operator_fixture.hpp"

namespace routesolve::test::operators {
namespace {

class InterSwapTest : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(InterSwapTest, DeltaIsExactAndRoutesStayFeasible) {
  const std::size_t found = check_pair_moves(
      GetParam(), task_count, true,
      [](const Fixture&, const WorkingSolution& ws, std::size_t u, std::size_t w,
         Objective objective) { return InterSwap(ws, u, w, objective); },
      [](const Fixture& f, const WorkingSolution&, std::size_t u, std::size_t w, const InterSwap&) {
        // Shipment halves never swap.
        EXPECT_EQ(f.problem->task(u).sibling, kNone);
        EXPECT_EQ(f.problem->task(w).sibling, kNone);
      });
  EXPECT_GT(found, 0u);
}

TEST_P(InterSwapTest, StringsOfUpToThreeJobsPriceExactlyAndStayFeasible) {
  // Strings of 1..3 jobs from u and from w change tours in their order; each found exchange is
  // exact against the recomputed tours, feasible, and never worse than the single swap there.
  std::size_t strings = 0;
  const std::size_t found = check_pair_moves(
      GetParam(), task_count, true,
      [](const Fixture&, const WorkingSolution& ws, std::size_t u, std::size_t w,
         Objective objective) { return InterSwap(ws, u, w, objective, Score{}, 3); },
      [&](const Fixture& f, const WorkingSolution& ws, std::size_t u, std::size_t w,
          const InterSwap& op) {
        const auto [a, b] = op.lengths();
        EXPECT_GE(a, 1u);
        EXPECT_GE(b, 1u);
        EXPECT_LE(a, 3u);
        EXPECT_LE(b, 3u);
        strings += a > 1 || b > 1 ? 1 : 0;
        for (std::size_t k = 0; k < a; ++k)
          EXPECT_EQ(f.problem->task(ws.tour(ws.route_of(u)).tasks[ws.position_of(u) + k]).sibling,
                    kNone);
        for (std::size_t k = 0; k < b; ++k)
          EXPECT_EQ(f.problem->task(ws.tour(ws.route_of(w)).tasks[ws.position_of(w) + k]).sibling,
                    kNone);
        // Under cost alone, the longer strings never lose to the single swap at the same place.
        const InterSwap single(ws, u, w, Objective::Cost, Score{}, 1);
        const InterSwap strings3(ws, u, w, Objective::Cost, Score{}, 3);
        if (single.is_valid()) {
          ASSERT_TRUE(strings3.is_valid());
          EXPECT_LE(strings3.delta().cost, single.delta().cost);
        }
      });
  EXPECT_GT(found, 0u);
  EXPECT_GT(strings, 0u) << "no exchange of strings longer than one job was found";
}

TEST_P(InterSwapTest, NothingBeatsABoundNoMoveReaches) {
  const Fixture f(GetParam(), false);
  std::mt19937_64 rng(GetParam());
  const WorkingSolution ws = f.random_solution(rng);
  Score unreachable;
  unreachable.cost = -kUnreachable;
  const std::size_t nt = f.problem->tasks().size();
  for (std::size_t u = 0; u < nt; ++u)
    for (std::size_t w = 0; w < nt; ++w)
      EXPECT_FALSE(InterSwap(ws, u, w, Objective::Cost, unreachable, 3).is_valid());
}

INSTANTIATE_TEST_SUITE_P(RandomInstances, InterSwapTest, ::testing::Range<std::uint64_t>(1, 9));

}  // namespace
}  // namespace routesolve::test::operators
