// The exact representation (SearchState) and the search that runs on it for problems beyond the
// segment model (more than kMaxDims capacity dimensions): its route costs are core's, and every
// step of the exact search keeps each task routed once, never makes the score worse, and leaves
// only routes core's schedule_route accepts; the backend's solve of such a problem validates.

#include "routesolve/search/exact_search.hpp"

#include <gtest/gtest.h>

#include <random>

#include "routesolve/cpu/cpu_backend.hpp"
#include "routesolve/hd/segment.hpp"
#include "routesolve/search/regret_insertion.hpp"
#include "routesolve/search/search_state.hpp"
#include "routesolve/search/segments.hpp"
#include "routesolve/search/tuning.hpp"
#include "routesolve/validator.hpp"
#include "test_problems.hpp"

namespace routesolve::test {
namespace {

using namespace routesolve::search;

constexpr std::size_t kDims = kMaxDims + 2;

/// A random heterogeneous instance: jobs, shipments, open routes, fixed costs, speed factors,
/// per-km costs; with `dims` > 1, every amount has `dims` dimensions and the last one binds.
std::shared_ptr<const Problem> random_problem(std::uint64_t seed, std::size_t dims = 1) {
  std::mt19937_64 rng(seed);
  auto spec = points_spec(random_points(26, seed));
  auto amount = [&](std::int64_t last) {
    Amount a(dims);
    for (std::size_t d = 0; d + 1 < dims; ++d) a[d] = static_cast<std::int64_t>(rng() % 3);
    a[dims - 1] = last;
    return a;
  };
  for (std::size_t i = 3; i < 20; ++i) {
    JobSpec job = make_job(i, i, 1);
    job.delivery = amount(1 + static_cast<std::int64_t>(rng() % 3));
    job.pickup = Amount(dims);
    spec.jobs.push_back(job);
  }
  for (std::size_t k = 0; k < 3; ++k) {
    ShipmentSpec sh;
    sh.pickup.id = 100 + k;
    sh.pickup.location.index = 20 + 2 * k;
    sh.delivery.id = 200 + k;
    sh.delivery.location.index = 21 + 2 * k;
    sh.amount = amount(1);
    spec.shipments.push_back(sh);
  }
  for (std::size_t v = 0; v < 5; ++v) {
    VehicleSpec vs = make_vehicle(v + 1, v % 3, 1000);
    Amount capacity(dims);
    for (std::size_t d = 0; d < dims; ++d) capacity[d] = 1000;
    if (dims > 1) capacity[dims - 1] = 12;  // about four routes' worth of the last dimension
    vs.capacity = capacity;
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

std::vector<std::size_t> insertable_tasks(const Problem& problem) {
  std::vector<std::size_t> out;
  for (std::size_t t = 0; t < problem.tasks().size(); ++t)
    if (problem.task(t).type != TaskType::Delivery) out.push_back(t);
  return out;
}

class ExactSearchTest : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(ExactSearchTest, RouteCostMatchesCore) {
  // The exact representation's cost model must be core's: compare with schedule_route.
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

TEST_P(ExactSearchTest, StepsKeepEveryTaskOnceNeverWorsenAndStayFeasible) {
  const auto problem = random_problem(GetParam(), kDims);
  ASSERT_FALSE(SegmentModel(*problem).supported())
      << "the instance must lie beyond the segment model";
  const VehicleClasses classes(*problem);
  const Neighbours neighbours(*problem, 8);
  const auto insertable = insertable_tasks(*problem);
  // Start from an empty plan filled by the construction, as solve() does.
  SearchState state(*problem);
  const Deadline none(0.0, nullptr);
  RegretInsertion(state, classes, none, 3).run(insertable);
  const Score start = state_score(state, insertable);

  std::mt19937_64 rng(GetParam());
  ExactSearch search(state, neighbours, classes, Objective::Cost, none, rng, insertable);
  Score previous = start;
  std::size_t calls = 0;
  const std::size_t made = search.run(300, [&] {
    ++calls;
    const Score now = state_score(state, insertable);
    EXPECT_FALSE(better(previous, now, Objective::Cost))
        << "step " << calls << " made the score worse";
    previous = now;
    std::vector<int> seen(problem->tasks().size(), 0);
    for (std::size_t v = 0; v < state.vehicle_count(); ++v) {
      const auto& tasks = state.route(v).tasks;
      for (std::size_t t : tasks) ++seen[t];
      if (!tasks.empty()) {
        EXPECT_TRUE(schedule_route(*problem, v, tasks).feasible) << "vehicle " << v;
      }
    }
    for (std::size_t t = 0; t < seen.size(); ++t) EXPECT_LE(seen[t], 1) << "task " << t;
  });
  EXPECT_EQ(made, 300u);
  EXPECT_EQ(calls, made);
  EXPECT_EQ(state_score(state, insertable), previous);
  // Every task the search leaves unassigned has its reason.
  for (std::size_t t : insertable)
    if (!state.assigned(t)) {
      bool reasoned = false;
      for (const auto& [task, reason] : search.left_out()) reasoned = reasoned || task == t;
      EXPECT_TRUE(reasoned) << "task " << t;
    }
  // From regret insertion alone, 300 steps find something cheaper.
  EXPECT_TRUE(better(previous, start, Objective::Cost));
}

TEST_P(ExactSearchTest, SameSeedSamePlan) {
  const auto problem = random_problem(GetParam(), kDims);
  const VehicleClasses classes(*problem);
  const Neighbours neighbours(*problem, 8);
  const auto insertable = insertable_tasks(*problem);
  auto run = [&](std::uint64_t seed) {
    SearchState state(*problem);
    const Deadline none(0.0, nullptr);
    RegretInsertion(state, classes, none, 3).run(insertable);
    std::mt19937_64 rng(seed);
    ExactSearch(state, neighbours, classes, Objective::Cost, none, rng, insertable).run(100);
    return state.plan();
  };
  EXPECT_EQ(run(GetParam()), run(GetParam()));
}

TEST_P(ExactSearchTest, SolveBeyondTheSegmentModelValidatesAndImprovesOnTheConstruction) {
  const auto problem = random_problem(GetParam(), kDims);
  auto backend = cpu::make_cpu_backend();
  SolveOptions construction_only;
  construction_only.iterations = 1;  // kExactStepsPerIteration exact steps after the construction
  construction_only.seed = GetParam();
  SolveOptions options;
  options.iterations = 50;
  options.seed = GetParam();
  const Solution first = backend->solve(*problem, construction_only);
  const Solution s = backend->solve(*problem, options);
  for (const Solution* x : {&first, &s}) {
    const ValidationReport report = validate(*problem, *x);
    EXPECT_TRUE(report.ok()) << report.to_text();
  }
  EXPECT_EQ(s.iterations, 50 * kExactStepsPerIteration);
  EXPECT_LE(s.unassigned.size(), first.unassigned.size());
  if (s.unassigned.size() == first.unassigned.size()) {
    EXPECT_LT(s.summary.cost, first.summary.cost);
  }
  // Deterministic for a seed.
  const Solution again = backend->solve(*problem, options);
  EXPECT_EQ(again.summary.cost, s.summary.cost);
  ASSERT_EQ(again.routes.size(), s.routes.size());
  for (std::size_t r = 0; r < s.routes.size(); ++r) {
    ASSERT_EQ(again.routes[r].steps.size(), s.routes[r].steps.size());
    for (std::size_t k = 0; k < s.routes[r].steps.size(); ++k)
      EXPECT_EQ(again.routes[r].steps[k].id, s.routes[r].steps[k].id);
  }
}

INSTANTIATE_TEST_SUITE_P(RandomInstances, ExactSearchTest, ::testing::Values(1u, 2u, 3u));

}  // namespace
}  // namespace routesolve::test
