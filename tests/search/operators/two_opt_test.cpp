// TourTwoOpt (reversal inside one tour), evaluate-then-apply on every tour of random solutions.

#include "routesolve/search/operators/two_opt.hpp"

#include "operator_fixture.hpp"

namespace routesolve::test::operators {
namespace {

class TourTwoOptTest : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(TourTwoOptTest, DeltaIsExactAndValidMovesStayFeasible) {
  std::size_t valid = 0, refused = 0;
  for (const bool tight : {false, true}) {
    const Fixture f(GetParam(), tight);
    std::mt19937_64 rng(GetParam() * 5 + 3);
    const WorkingSolution ws = f.random_solution(rng);
    for (std::size_t v = 0; v < ws.vehicle_count(); ++v) {
      const TourCosts costs(ws, v);
      const std::size_t n = ws.tour(v).size();
      for (std::size_t i = 0; i + 1 < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) {
          const TourTwoOpt op(ws, costs, v, i, j);
          // Priced exactly whether or not the result is feasible.
          const Cost before = sequence_travel_cost(*f.problem, v, ws.tour(v).tasks);
          EXPECT_EQ(op.delta().cost, sequence_travel_cost(*f.problem, v, op.reversed()) - before);
          EXPECT_EQ(op.routes().size(), 1u);
          if (!op.is_valid()) {
            ++refused;
            continue;
          }
          check_move(f, ws, op);
          ++valid;
        }
    }
  }
  EXPECT_GT(valid, 0u);
  EXPECT_GT(refused, 0u);
}

INSTANTIATE_TEST_SUITE_P(RandomInstances, TourTwoOptTest, ::testing::Range<std::uint64_t>(1, 9));

}  // namespace
}  // namespace routesolve::test::operators
