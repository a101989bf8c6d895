#pragma once
// What the tests of the local-search operators on a WorkingSolution share: random instances
// (capacities in two dimensions, time windows, shipments, fixed costs, an open route), poor
// random solutions that leave room for every operator, and the evaluate-then-apply check: a
// move's reported delta is the exact change of the objective against a recomputation from
// scratch, and the routes it leaves are feasible for core's schedule_route.

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <utility>
#include <vector>

#include "routesolve/search/blink_insertion.hpp"
#include "routesolve/search/neighbours.hpp"
#include "routesolve/search/operators/operator.hpp"
#include "routesolve/search/search_state.hpp"
#include "routesolve/search/segments.hpp"
#include "routesolve/search/vehicle_classes.hpp"
#include "routesolve/search/working_solution.hpp"
#include "routesolve/solution.hpp"
#include "test_problems.hpp"

namespace routesolve::test::operators {

using namespace routesolve::search;

/// 30 jobs (2 dimensions, deliveries and pickups), 4 shipments, 5 vehicles: 4 interchangeable
/// ones with a fixed cost and one open-ended. With `tight`, time windows and small capacities.
inline std::shared_ptr<const Problem> random_instance(std::uint64_t seed, bool tight) {
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

  Fixture(std::uint64_t seed, bool tight) : Fixture(random_instance(seed, tight)) {}

  explicit Fixture(std::shared_ptr<const Problem> p) : problem(std::move(p)) {
    model = std::make_unique<SegmentModel>(*problem);
    classes = std::make_unique<VehicleClasses>(*problem);
    near = std::make_unique<Neighbours>(*problem, 12);
    for (std::size_t t = 0; t < problem->tasks().size(); ++t)
      if (problem->task(t).type != TaskType::Delivery) insertable.push_back(t);
  }

  /// A poor random solution (blinks at rate 0.5).
  WorkingSolution random_solution(std::mt19937_64& rng) const {
    WorkingSolution ws(*model, insertable);
    BlinkInsertion(*near, *classes, 0.5)
        .apply(ws, insertable, rng, ws.vehicle_count(), *make_segment_engine());
    return ws;
  }
};

/// Cost of every tour recomputed from its task sequence (travel plus fixed cost when used).
inline Cost cost_from_scratch(const Problem& problem, const WorkingSolution& ws) {
  Cost total = 0;
  for (std::size_t v = 0; v < ws.vehicle_count(); ++v)
    if (!ws.tour(v).empty())
      total += sequence_travel_cost(problem, v, ws.tour(v).tasks) + problem.fixed_cost(v);
  return total;
}

inline std::int64_t used_tours(const WorkingSolution& ws) {
  std::int64_t used = 0;
  for (std::size_t v = 0; v < ws.vehicle_count(); ++v) used += ws.tour(v).empty() ? 0 : 1;
  return used;
}

/// Applies a valid move to a copy of `ws`: its delta must be the change recomputed from scratch,
/// only the routes it names may change, and they must be feasible for schedule_route.
template <class Op>
void check_move(const Fixture& f, const WorkingSolution& ws, const Op& op) {
  ASSERT_TRUE(op.is_valid());
  WorkingSolution after = ws;
  op.apply(after);
  const Score delta = op.delta();
  EXPECT_EQ(delta.cost, cost_from_scratch(*f.problem, after) - cost_from_scratch(*f.problem, ws));
  EXPECT_EQ(delta.routes, used_tours(after) - used_tours(ws));
  EXPECT_EQ(delta.unassigned, 0);
  EXPECT_EQ(delta.priority_lost, 0);
  EXPECT_EQ(delta, after.score() - ws.score());
  for (std::size_t v = 0; v < ws.vehicle_count(); ++v) {
    if (!op.routes().contains(v)) {
      EXPECT_EQ(after.tour(v).tasks, ws.tour(v).tasks) << "vehicle " << v << " is not the move's";
      continue;
    }
    if (after.tour(v).empty()) continue;
    EXPECT_TRUE(schedule_route(*f.problem, v, after.tour(v).tasks).feasible) << "vehicle " << v;
  }
}

/// The evaluate-then-apply sweep every inter-route operator test runs: the loose and the tight
/// instance of `seed`, three random solutions each, both objectives, and every ordered pair
/// (a, b) of distinct indices below count(f, ws) (tasks, or vehicles with distinct = false).
/// `make(f, ws, a, b, objective)` builds the operator; each valid one must improve and pass
/// check_move, then `extra(f, ws, a, b, op)` checks what is particular to it. Returns the number of
/// valid moves checked (a test expects some).
template <class Count, class Make, class Extra>
std::size_t check_pair_moves(std::uint64_t seed, Count count, bool distinct, Make make,
                             Extra extra) {
  std::size_t found = 0;
  for (const bool tight : {false, true}) {
    const Fixture f(seed, tight);
    std::mt19937_64 rng(seed * 7 + 1);
    for (int round = 0; round < 3; ++round) {
      const WorkingSolution ws = f.random_solution(rng);
      const std::size_t n = count(f, ws);
      for (const Objective objective : {Objective::Cost, Objective::VehiclesThenCost})
        for (std::size_t a = 0; a < n; ++a)
          for (std::size_t b = 0; b < n; ++b) {
            if (distinct && a == b) continue;
            const auto op = make(f, ws, a, b, objective);
            if (!op.is_valid()) continue;
            EXPECT_TRUE(improves(op.delta(), objective));
            extra(f, ws, a, b, op);
            check_move(f, ws, op);
            ++found;
          }
    }
  }
  return found;
}

/// count() of check_pair_moves over the tasks of the problem.
inline std::size_t task_count(const Fixture& f, const WorkingSolution& /*ws*/) {
  return f.problem->tasks().size();
}

}  // namespace routesolve::test::operators
