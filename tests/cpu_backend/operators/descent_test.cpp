// The descents over the operators: the granular descent and polish_tour only improve, keep
// every route feasible for schedule_route, and stop at a local optimum of their operators.

#include "routesolve/search/descent.hpp"

#include "operator_fixture.hpp"

namespace routesolve::test::operators {
namespace {

class DescentTest : public ::testing::TestWithParam<std::uint64_t> {};

void expect_feasible(const Fixture& f, const WorkingSolution& ws) {
  for (std::size_t v = 0; v < ws.vehicle_count(); ++v)
    if (!ws.tour(v).empty()) {
      EXPECT_TRUE(schedule_route(*f.problem, v, ws.tour(v).tasks).feasible) << "vehicle " << v;
    }
}

TEST_P(DescentTest, GranularDescentImprovesAndReachesALocalOptimum) {
  for (const bool tight : {false, true}) {
    const Fixture f(GetParam(), tight);
    std::mt19937_64 rng(GetParam() + 11);
    WorkingSolution ws = f.random_solution(rng);
    const Score before = ws.score();
    const GranularDescent descent(*f.near, *f.classes, GranularDescent::Parameters{12, 3, 100});
    const std::size_t moves = descent.run(ws, rng, Objective::Cost);
    const Score after = ws.score();
    EXPECT_EQ(after.unassigned, before.unassigned);
    EXPECT_EQ(after.cost, cost_from_scratch(*f.problem, ws));
    if (moves > 0) {
      EXPECT_TRUE(better(after, before, Objective::Cost));
    } else {
      EXPECT_EQ(after, before);
    }
    expect_feasible(f, ws);
    // At the local optimum no operator finds an improving move within the neighbourhood.
    for (std::size_t u = 0; u < f.problem->tasks().size(); ++u)
      for (std::size_t w : f.near->of(u)) {
        EXPECT_FALSE(InterRelocate(ws, u, w, 3, Objective::Cost).is_valid());
        EXPECT_FALSE(InterSwap(ws, u, w, Objective::Cost).is_valid());
        EXPECT_FALSE(InterTwoOptStar(ws, *f.classes, u, w, Objective::Cost).is_valid());
      }
  }
}

TEST_P(DescentTest, PolishReachesALocalOptimumOfTwoOptAndOrOpt) {
  const Fixture f(GetParam(), true);
  std::mt19937_64 rng(GetParam() + 5);
  WorkingSolution ws = f.random_solution(rng);
  const Score before = ws.score();
  for (std::size_t v = 0; v < ws.vehicle_count(); ++v) polish_tour(ws, v);
  EXPECT_LE(ws.cost(), before.cost);
  EXPECT_EQ(ws.cost(), cost_from_scratch(*f.problem, ws));
  expect_feasible(f, ws);
  for (std::size_t v = 0; v < ws.vehicle_count(); ++v) {
    const TourCosts costs(ws, v);
    const std::size_t n = ws.tour(v).size();
    for (std::size_t i = 0; i + 1 < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) {
        const TourTwoOpt op(ws, costs, v, i, j);
        EXPECT_FALSE(improves(op.delta(), Objective::Cost) && op.is_valid());
      }
    for (std::size_t length = 1; length <= 3 && length < n; ++length)
      for (std::size_t i = 0; i + length <= n; ++i)
        for (std::size_t to = 0; to <= n; ++to) {
          if (to >= i && to <= i + length) continue;
          const TourOrOpt op(ws, costs, v, i, length, to);
          EXPECT_FALSE(improves(op.delta(), Objective::Cost) && op.is_valid());
        }
  }
}

TEST(BestMoveTest, KeepsTheFirstOfEqualMovesAndNeverAWorseOne) {
  const Fixture f(3, false);
  std::mt19937_64 rng(3);
  const WorkingSolution ws = f.random_solution(rng);
  const std::size_t nt = f.problem->tasks().size();
  for (std::size_t u = 0; u < nt; ++u)
    for (std::size_t w = 0; w < nt; ++w) {
      if (u == w) continue;
      const InterRelocate a(ws, u, w, 3, Objective::Cost);
      const InterSwap b(ws, u, w, Objective::Cost);
      BestMove<WorkingSolution, InterRelocate, InterSwap> best(Objective::Cost);
      const bool took_a = best.offer(InterRelocate(a));
      EXPECT_EQ(took_a, a.is_valid());
      const bool took_b = best.offer(InterSwap(b));
      EXPECT_EQ(took_b, b.is_valid() && (!a.is_valid() || better(b.delta(), a.delta(), Objective::Cost)));
      EXPECT_EQ(best.found(), a.is_valid() || b.is_valid());
      if (!best.found()) continue;
      WorkingSolution after = ws;
      best.apply(after);
      EXPECT_EQ(after.score() - ws.score(), best.bound());
    }
}

INSTANTIATE_TEST_SUITE_P(RandomInstances, DescentTest, ::testing::Range<std::uint64_t>(1, 9));

}  // namespace
}  // namespace routesolve::test::operators
