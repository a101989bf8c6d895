// The operators on a SearchState (problems beyond the segment model), evaluate-then-apply on random
// instances and random solutions: the delta each prices equals the change of cost and route
// count recomputed from scratch after applying it, only the routes it names change, and when it
// is valid those routes are feasible for core's schedule_route.

#include <gtest/gtest.h>

#include <random>

#include "routesolve/search/operators/pair_relocate.hpp"
#include "routesolve/search/operators/relocate.hpp"
#include "routesolve/search/operators/route_change.hpp"
#include "routesolve/search/operators/swap.hpp"
#include "routesolve/search/operators/two_opt.hpp"
#include "routesolve/search/operators/two_opt_star.hpp"
#include "routesolve/search/search_state.hpp"
#include "../test_problems.hpp"

namespace routesolve::test {
namespace {

using namespace routesolve::search;

/// A random heterogeneous instance: jobs, shipments, open routes, fixed costs, speed factors,
/// per-km costs; capacities large so that any sequence is acceptable to the filters.
std::shared_ptr<const Problem> random_problem(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto spec = points_spec(random_points(26, seed));
  for (std::size_t i = 3; i < 20; ++i) spec.jobs.push_back(make_job(i, i, 1));
  for (std::size_t k = 0; k < 3; ++k) {
    ShipmentSpec sh;
    sh.pickup.id = 100 + k;
    sh.pickup.location.index = 20 + 2 * k;
    sh.delivery.id = 200 + k;
    sh.delivery.location.index = 21 + 2 * k;
    sh.amount = Amount{1};
    spec.shipments.push_back(sh);
  }
  for (std::size_t v = 0; v < 5; ++v) {
    VehicleSpec vs = make_vehicle(v + 1, v % 3, 1000);
    vs.costs.fixed = static_cast<Cost>(rng() % 50);
    vs.costs.per_km = static_cast<Cost>(rng() % 3) * 1000;
    vs.speed_factor = v == 4 ? 1.5 : 1.0;
    if (v == 3) vs.end.reset();
    if (v == 2) vs.start.reset();
    spec.vehicles.push_back(vs);
  }
  return Problem::create(spec);
}

/// Random assignment of every task (shipment halves together, pickup first) to vehicles 0..3;
/// vehicle 4 stays empty.
SearchState random_state(const Problem& problem, std::mt19937_64& rng) {
  SearchState state(problem);
  std::vector<std::vector<std::size_t>> routes(problem.vehicles().size());
  for (std::size_t t = 0; t < problem.tasks().size(); ++t) {
    const Task& task = problem.task(t);
    if (task.type == TaskType::Delivery) continue;
    auto& r = routes[rng() % 4];
    const std::size_t pos = rng() % (r.size() + 1);
    r.insert(r.begin() + static_cast<std::ptrdiff_t>(pos), t);
    if (task.sibling != kNone) {
      const std::size_t pos2 = pos + 1 + rng() % (r.size() - pos);
      r.insert(r.begin() + static_cast<std::ptrdiff_t>(pos2), task.sibling);
    }
  }
  for (std::size_t v = 0; v < routes.size(); ++v) state.set_route(v, routes[v]);
  return state;
}

/// Cost of every route recomputed from its task sequence (fixed costs included).
Cost cost_from_scratch(const SearchState& state) {
  Cost total = 0;
  for (std::size_t v = 0; v < state.vehicle_count(); ++v)
    total += route_cost(state.problem(), v, state.route(v).tasks);
  return total;
}

/// Applies the move to a copy of the state; returns whether it was valid.
template <class Move>
bool expect_exact_delta(const SearchState& state, const Move& move) {
  const Score priced = move.delta();
  EXPECT_EQ(priced, recomputed_delta(state, move.changes()));
  SearchState after = state;
  move.apply(after);
  EXPECT_EQ(priced.cost, cost_from_scratch(after) - cost_from_scratch(state));
  EXPECT_EQ(priced.cost, after.total_cost() - state.total_cost());
  EXPECT_EQ(priced.routes, static_cast<long>(after.used_routes()) - static_cast<long>(state.used_routes()));
  EXPECT_EQ(priced.unassigned, 0);
  const bool valid = move.is_valid();
  for (std::size_t v = 0; v < state.vehicle_count(); ++v) {
    if (!move.routes().contains(v)) {
      EXPECT_EQ(after.route(v).tasks, state.route(v).tasks) << "vehicle " << v << " is not the move's";
    } else if (valid && !after.route(v).empty()) {
      EXPECT_TRUE(schedule_route(state.problem(), v, after.route(v).tasks).feasible) << "vehicle " << v;
    }
  }
  return valid;
}

class OperatorTest : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(OperatorTest, RelocateDeltaIsExact) {
  const auto problem = random_problem(GetParam());
  std::mt19937_64 rng(GetParam());
  std::size_t valid = 0;
  for (int trial = 0; trial < 200; ++trial) {
    SearchState state = random_state(*problem, rng);
    const std::size_t t = rng() % problem->tasks().size();
    if (problem->task(t).sibling != kNone) continue;
    const std::size_t from = state.route_of(t), pos = state.position_of(t);
    const std::size_t to = rng() % problem->vehicles().size();
    const std::size_t target = rng() % (state.route(to).size() + 1);
    if (to == from && (target == pos || target == pos + 1)) continue;
    valid += expect_exact_delta(state, Relocate(state, t, to, target)) ? 1 : 0;
  }
  EXPECT_GT(valid, 0u);
}

TEST_P(OperatorTest, SwapDeltaIsExact) {
  const auto problem = random_problem(GetParam());
  std::mt19937_64 rng(GetParam() + 1);
  std::size_t valid = 0;
  for (int trial = 0; trial < 200; ++trial) {
    SearchState state = random_state(*problem, rng);
    const std::size_t a = rng() % problem->tasks().size(), b = rng() % problem->tasks().size();
    if (a == b) continue;
    valid += expect_exact_delta(state, Swap(state, a, b)) ? 1 : 0;
  }
  EXPECT_GT(valid, 0u);
}

TEST_P(OperatorTest, TwoOptDeltaIsExact) {
  const auto problem = random_problem(GetParam());
  std::mt19937_64 rng(GetParam() + 2);
  std::size_t valid = 0;
  for (int trial = 0; trial < 200; ++trial) {
    SearchState state = random_state(*problem, rng);
    const std::size_t v = rng() % 4;
    const std::size_t n = state.route(v).size();
    if (n < 2) continue;
    const std::size_t i = rng() % (n - 1);
    const std::size_t j = i + 1 + rng() % (n - 1 - i);
    valid += expect_exact_delta(state, TwoOpt(state, v, i, j)) ? 1 : 0;
  }
  EXPECT_GT(valid, 0u);
}

TEST_P(OperatorTest, TwoOptStarDeltaIsExact) {
  const auto problem = random_problem(GetParam());
  std::mt19937_64 rng(GetParam() + 3);
  std::size_t valid = 0;
  for (int trial = 0; trial < 200; ++trial) {
    SearchState state = random_state(*problem, rng);
    const std::size_t v1 = rng() % 5, v2 = rng() % 5;
    if (v1 == v2) continue;
    const std::size_t k1 = rng() % (state.route(v1).size() + 1);
    const std::size_t k2 = rng() % (state.route(v2).size() + 1);
    valid += expect_exact_delta(state, TwoOptStar(state, v1, k1, v2, k2)) ? 1 : 0;
  }
  EXPECT_GT(valid, 0u);
}

TEST_P(OperatorTest, PairRelocateDeltaIsExact) {
  const auto problem = random_problem(GetParam());
  std::mt19937_64 rng(GetParam() + 4);
  std::size_t valid = 0;
  for (int trial = 0; trial < 200; ++trial) {
    SearchState state = random_state(*problem, rng);
    const std::size_t p = problem->find_task(TaskType::Pickup, 100 + rng() % 3);
    ASSERT_NE(p, kNone);
    const std::size_t to = rng() % 5;
    const std::size_t reduced = state.route(to).size() - (state.route_of(p) == to ? 2 : 0);
    const std::size_t i = rng() % (reduced + 1);
    const std::size_t j = i + rng() % (reduced + 1 - i);
    valid += expect_exact_delta(state, PairRelocate(state, p, to, i, j)) ? 1 : 0;
  }
  EXPECT_GT(valid, 0u);
}

TEST_P(OperatorTest, RouteCostMatchesCore) {
  // The search's cost model must be core's: compare with schedule_route on feasible routes.
  const auto problem = random_problem(GetParam());
  std::mt19937_64 rng(GetParam() + 5);
  for (int trial = 0; trial < 50; ++trial) {
    SearchState state = random_state(*problem, rng);
    for (std::size_t v = 0; v < state.vehicle_count(); ++v) {
      const auto& tasks = state.route(v).tasks;
      if (tasks.empty()) continue;
      const ScheduleResult r = schedule_route(*problem, v, tasks);
      ASSERT_TRUE(r.feasible);
      EXPECT_EQ(r.route.cost, state.route(v).cost(*problem));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(RandomInstances, OperatorTest, ::testing::Values(1u, 2u, 3u));

}  // namespace
}  // namespace routesolve::test
