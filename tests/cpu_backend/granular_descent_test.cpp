// The inter-route operators of the granular descent, evaluate-then-apply: on random solutions of
// random instances (capacities, time windows, shipments, fixed costs, open routes), every move an
// operator reports has the exact cost change of applying it, its routes are feasible for core's
// schedule_route, and the descent only improves. SWAP* is checked the same way on every pair of
// tours.

#include <gtest/gtest.h>

#include <random>

#include "blink_insertion.hpp"
#include "granular_descent.hpp"
#include "neighbours.hpp"
#include "search_state.hpp"
#include "segments.hpp"
#include "test_problems.hpp"
#include "vehicle_classes.hpp"
#include "working_solution.hpp"

namespace routesolve::test {
namespace {

using namespace routesolve::cpu::detail;

/// 30 jobs (2 dimensions, deliveries and pickups), 4 shipments, 5 vehicles: 4 interchangeable
/// ones with a fixed cost and one open-ended. With `tight`, time windows and small capacities.
std::shared_ptr<const Problem> random_instance(std::uint64_t seed, bool tight) {
  std::mt19937_64 rng(seed);
  auto spec = points_spec(random_points(39, seed));
  for (std::size_t i = 1; i <= 30; ++i) {
    JobSpec j = make_job(i, i, 0);
    j.delivery = Amount{static_cast<std::int64_t>(rng() % 4), static_cast<std::int64_t>(rng() % 3)};
    j.pickup = Amount{static_cast<std::int64_t>(rng() % 2), 0};
    j.service = static_cast<Duration>(rng() % 10);
    if (tight) {
      const Duration a = static_cast<Duration>(rng() % 400);
      j.time_windows = {TimeWindow{a, a + 60 + static_cast<Duration>(rng() % 200)}};
    }
    spec.jobs.push_back(j);
  }
  for (std::size_t k = 0; k < 4; ++k) {
    ShipmentSpec sh;
    sh.pickup.id = 100 + k;
    sh.pickup.location.index = 31 + 2 * k;
    sh.delivery.id = 200 + k;
    sh.delivery.location.index = 32 + 2 * k;
    sh.amount = Amount{static_cast<std::int64_t>(1 + rng() % 3), 0};
    spec.shipments.push_back(sh);
  }
  for (std::size_t v = 0; v < 5; ++v) {
    VehicleSpec vs = make_vehicle(v + 1, 0, 0);
    vs.capacity = Amount{tight ? 12 : 1000, tight ? 8 : 1000};
    vs.costs.fixed = 50;
    if (v == 4) vs.end.reset();
    if (tight) vs.time_window = TimeWindow{0, 700};
    spec.vehicles.push_back(vs);
  }
  return Problem::create(spec);
}

struct Fixture {
  std::shared_ptr<const Problem> problem;
  std::unique_ptr<SegmentModel> model;
  std::unique_ptr<VehicleClasses> classes;
  std::unique_ptr<Neighbours> near;
  std::vector<std::size_t> insertable;

  Fixture(std::uint64_t seed, bool tight) : problem(random_instance(seed, tight)) {
    model = std::make_unique<SegmentModel>(*problem);
    classes = std::make_unique<VehicleClasses>(*problem);
    near = std::make_unique<Neighbours>(*problem, 12);
    for (std::size_t t = 0; t < problem->tasks().size(); ++t)
      if (problem->task(t).type != TaskType::Delivery) insertable.push_back(t);
  }

  /// A poor random solution (blinks at rate 0.5).
  WorkingSolution random_solution(std::mt19937_64& rng) const {
    WorkingSolution ws(*model, insertable);
    BlinkInsertion(*near, *classes, 0.5).apply(ws, insertable, rng, ws.vehicle_count());
    return ws;
  }
};

/// Applies the move to a copy and checks its price and the feasibility of the result.
void check_move(const Fixture& f, const WorkingSolution& ws, const ExchangeMove& move) {
  WorkingSolution after = ws;
  const std::size_t v1 = ws.route_of(move.u), v2 = ws.route_of(move.w);
  apply_move(after, move);
  EXPECT_EQ(move.delta.cost, after.cost() - ws.cost()) << "kind " << static_cast<int>(move.kind);
  EXPECT_EQ(move.delta.routes, static_cast<long>(after.used_routes()) - static_cast<long>(ws.used_routes()));
  EXPECT_EQ(after.score().unassigned, ws.score().unassigned);
  for (const std::size_t v : {v1, v2}) {
    if (after.tour(v).empty()) continue;
    EXPECT_TRUE(schedule_route(*f.problem, v, after.tour(v).tasks).feasible) << "vehicle " << v;
  }
  // The reported cost change is the recomputation from scratch (sequence costs + fixed costs).
  Cost recomputed = 0;
  for (std::size_t v = 0; v < after.vehicle_count(); ++v)
    if (!after.tour(v).empty())
      recomputed += sequence_travel_cost(*f.problem, v, after.tour(v).tasks) + f.problem->fixed_cost(v);
  EXPECT_EQ(recomputed, after.cost());
}

class GranularDescentTest : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(GranularDescentTest, EveryOperatorPricesExactlyAndStaysFeasible) {
  std::size_t counts[4] = {0, 0, 0, 0};
  for (const bool tight : {false, true}) {
    const Fixture f(GetParam(), tight);
    std::mt19937_64 rng(GetParam() * 7 + 1);
    for (int round = 0; round < 3; ++round) {
      const WorkingSolution ws = f.random_solution(rng);
      const std::size_t nt = f.problem->tasks().size();
      for (const Objective objective : {Objective::Cost, Objective::VehiclesThenCost}) {
        for (std::size_t u = 0; u < nt; ++u)
          for (std::size_t w = 0; w < nt; ++w) {
            if (u == w) continue;
            ExchangeMove relocate, swap, tail;
            if (InterRelocate::evaluate(ws, u, w, 3, objective, relocate)) {
              ASSERT_TRUE(improving(relocate, objective));
              check_move(f, ws, relocate);
              ++counts[0];
            }
            if (InterSwap::evaluate(ws, u, w, objective, swap)) {
              ASSERT_TRUE(improving(swap, objective));
              check_move(f, ws, swap);
              ++counts[1];
            }
            if (InterTwoOptStar::evaluate(ws, *f.classes, u, w, objective, tail)) {
              ASSERT_TRUE(improving(tail, objective));
              check_move(f, ws, tail);
              ++counts[2];
            }
          }
        for (std::size_t v1 = 0; v1 < ws.vehicle_count(); ++v1)
          for (std::size_t v2 = 0; v2 < ws.vehicle_count(); ++v2) {
            ExchangeMove star;
            if (!SwapStar::evaluate(ws, v1, v2, objective, star)) continue;
            ASSERT_TRUE(improving(star, objective));
            EXPECT_EQ(ws.route_of(star.u), v1);
            EXPECT_EQ(ws.route_of(star.w), v2);
            check_move(f, ws, star);
            ++counts[3];
          }
      }
    }
  }
  // Poor random solutions leave room for every operator.
  EXPECT_GT(counts[0], 0u);
  EXPECT_GT(counts[1], 0u);
  EXPECT_GT(counts[2], 0u);
  EXPECT_GT(counts[3], 0u);
}

TEST(SwapStarTest, SwappedPlacesTheArrivingTask) {
  const std::vector<std::size_t> tasks{10, 11, 12, 13};
  EXPECT_EQ(SwapStar::swapped(tasks, 1, 99, kNone), (std::vector<std::size_t>{10, 99, 12, 13}));
  EXPECT_EQ(SwapStar::swapped(tasks, 1, 99, 0), (std::vector<std::size_t>{99, 10, 12, 13}));
  EXPECT_EQ(SwapStar::swapped(tasks, 1, 99, 3), (std::vector<std::size_t>{10, 12, 99, 13}));
  EXPECT_EQ(SwapStar::swapped(tasks, 1, 99, 4), (std::vector<std::size_t>{10, 12, 13, 99}));
}

TEST_P(GranularDescentTest, BestMoveBeatsEveryOtherCandidateOfTheOperator) {
  // evaluate() keeps the best variant: the best found over all w is no worse than any single
  // evaluation that starts from scratch.
  const Fixture f(GetParam(), false);
  std::mt19937_64 rng(GetParam());
  const WorkingSolution ws = f.random_solution(rng);
  const std::size_t nt = f.problem->tasks().size();
  for (std::size_t u = 0; u < nt; ++u) {
    ExchangeMove best;
    std::vector<ExchangeMove> singles;
    for (std::size_t w = 0; w < nt; ++w) {
      if (w == u) continue;
      InterRelocate::evaluate(ws, u, w, 3, Objective::Cost, best);
      ExchangeMove one;
      if (InterRelocate::evaluate(ws, u, w, 3, Objective::Cost, one)) singles.push_back(one);
    }
    for (const ExchangeMove& m : singles) EXPECT_FALSE(better(m.delta, best.delta, Objective::Cost));
    EXPECT_EQ(best.found(), !singles.empty());
  }
}

TEST_P(GranularDescentTest, DescentImprovesAndReachesALocalOptimum) {
  for (const bool tight : {false, true}) {
    const Fixture f(GetParam(), tight);
    std::mt19937_64 rng(GetParam() + 11);
    WorkingSolution ws = f.random_solution(rng);
    const Score before = ws.score();
    const GranularDescent descent(*f.near, *f.classes, GranularDescent::Parameters{12, 3, 100});
    const std::size_t moves = descent.run(ws, rng, Objective::Cost);
    const Score after = ws.score();
    EXPECT_EQ(after.unassigned, before.unassigned);
    EXPECT_LE(after.cost, before.cost);
    if (moves > 0) {
      EXPECT_LT(after.cost, before.cost);
    }
    for (std::size_t v = 0; v < ws.vehicle_count(); ++v)
      if (!ws.tour(v).empty()) {
        EXPECT_TRUE(schedule_route(*f.problem, v, ws.tour(v).tasks).feasible);
      }
    // At the local optimum no operator finds an improving move within the neighbourhood.
    for (std::size_t u = 0; u < f.problem->tasks().size(); ++u)
      for (std::size_t w : f.near->of(u)) {
        ExchangeMove m;
        EXPECT_FALSE(InterRelocate::evaluate(ws, u, w, 3, Objective::Cost, m));
        EXPECT_FALSE(InterSwap::evaluate(ws, u, w, Objective::Cost, m));
        EXPECT_FALSE(InterTwoOptStar::evaluate(ws, *f.classes, u, w, Objective::Cost, m));
      }
  }
}

INSTANTIATE_TEST_SUITE_P(RandomInstances, GranularDescentTest, ::testing::Range<std::uint64_t>(1, 9));

}  // namespace
}  // namespace routesolve::test
