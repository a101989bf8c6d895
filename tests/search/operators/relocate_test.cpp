// InterRelocate (relocate / or-opt between tours), evaluate-then-apply on random solutions.

#include "routesolve/search/operators/relocate.hpp"

#include "operator_fixture.hpp"

namespace routesolve::test::operators {
namespace {

class InterRelocateTest : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(InterRelocateTest, DeltaIsExactAndRoutesStayFeasible) {
  std::size_t chains = 0;
  const std::size_t found = check_pair_moves(
      GetParam(), task_count, true,
      [](const Fixture&, const WorkingSolution& ws, std::size_t u, std::size_t w,
         Objective objective) { return InterRelocate(ws, u, w, 3, objective); },
      [&](const Fixture&, const WorkingSolution&, std::size_t, std::size_t,
          const InterRelocate& op) {
        EXPECT_EQ(op.routes().size(), 2u);
        chains += op.length() > 1 ? 1 : 0;
      });
  // Poor random solutions leave room for single tasks and for chains.
  EXPECT_GT(found, 0u);
  EXPECT_GT(chains, 0u);
}

TEST_P(InterRelocateTest, BoundKeepsOnlyBetterMoves) {
  // Chaining the bound over every w finds a move no worse than any single evaluation.
  const Fixture f(GetParam(), false);
  std::mt19937_64 rng(GetParam());
  const WorkingSolution ws = f.random_solution(rng);
  const std::size_t nt = f.problem->tasks().size();
  for (std::size_t u = 0; u < nt; ++u) {
    Score bound{};
    bool any = false;
    std::vector<Score> singles;
    for (std::size_t w = 0; w < nt; ++w) {
      if (w == u) continue;
      const InterRelocate chained(ws, u, w, 3, Objective::Cost, bound);
      if (chained.is_valid()) {
        EXPECT_TRUE(better(chained.delta(), bound, Objective::Cost));
        bound = chained.delta();
        any = true;
      }
      const InterRelocate one(ws, u, w, 3, Objective::Cost);
      if (one.is_valid()) singles.push_back(one.delta());
    }
    for (const Score& d : singles) EXPECT_FALSE(better(d, bound, Objective::Cost));
    EXPECT_EQ(any, !singles.empty());
  }
}

INSTANTIATE_TEST_SUITE_P(RandomInstances, InterRelocateTest, ::testing::Range<std::uint64_t>(1, 9));

}  // namespace
}  // namespace routesolve::test::operators
