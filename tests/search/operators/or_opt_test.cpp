// TourOrOpt (a run of 1-3 tasks moves inside its tour), evaluate-then-apply on every tour of
// random solutions.

#include "routesolve/search/operators/or_opt.hpp"

#include "operator_fixture.hpp"

namespace routesolve::test::operators {
namespace {

class TourOrOptTest : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(TourOrOptTest, DeltaIsExactAndValidMovesStayFeasible) {
  std::size_t valid = 0, refused = 0;
  for (const bool tight : {false, true}) {
    const Fixture f(GetParam(), tight);
    std::mt19937_64 rng(GetParam() * 5 + 3);
    const WorkingSolution ws = f.random_solution(rng);
    for (std::size_t v = 0; v < ws.vehicle_count(); ++v) {
      const TourCosts costs(ws, v);
      const auto& tasks = ws.tour(v).tasks;
      const std::size_t n = tasks.size();
      const Cost before = sequence_travel_cost(*f.problem, v, tasks);
      for (std::size_t length = 1; length <= 3 && length < n; ++length)
        for (std::size_t i = 0; i + length <= n; ++i)
          for (std::size_t to = 0; to <= n; ++to) {
            if (to >= i && to <= i + length) continue;
            const TourOrOpt op(ws, costs, v, i, length, to);
            const auto moved = TourOrOpt::moved(tasks, i, length, to);
            ASSERT_EQ(moved.size(), n);
            EXPECT_EQ(op.delta().cost, sequence_travel_cost(*f.problem, v, moved) - before);
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

INSTANTIATE_TEST_SUITE_P(RandomInstances, TourOrOptTest, ::testing::Range<std::uint64_t>(1, 9));

}  // namespace
}  // namespace routesolve::test::operators
