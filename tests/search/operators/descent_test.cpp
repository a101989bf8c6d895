// The descents over the operators: the granular descent, the descent around given tasks and
// polish_tour only improve, keep every route feasible for schedule_route, and stop at a local
// optimum of their operators; WorkingSolution::rewired names what a change rewired.

#include "routesolve/search/descent.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

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

/// No inter-route operator finds an improving move within the granular neighbourhood.
void expect_local_optimum(const Fixture& f, const WorkingSolution& ws) {
  for (std::size_t u = 0; u < f.problem->tasks().size(); ++u)
    for (std::size_t w : f.near->of(u)) {
      EXPECT_FALSE(InterRelocate(ws, u, w, 3, Objective::Cost).is_valid());
      EXPECT_FALSE(InterSwap(ws, u, w, Objective::Cost).is_valid());
      EXPECT_FALSE(InterTwoOptStar(ws, *f.classes, u, w, Objective::Cost).is_valid());
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
    expect_local_optimum(f, ws);
  }
}

// Chains on regions keep one DescentMemory while their region moves: a descent restricted to
// one region, then over another and over the whole solution with the same memory, still ends at
// a local optimum of the whole (the tours that enter a region count as changed).
TEST_P(DescentTest, DescentMemoryStaysValidWhenTheRegionMoves) {
  for (const bool tight : {false, true}) {
    const Fixture f(GetParam(), tight);
    std::mt19937_64 rng(GetParam() + 23);
    WorkingSolution ws = f.random_solution(rng);
    const GranularDescent descent(*f.near, *f.classes, GranularDescent::Parameters{12, 3, 100});
    DescentMemory memory;
    for (const std::size_t parity : {0u, 1u}) {
      std::vector<char> vehicles(ws.vehicle_count(), 0);
      for (std::size_t v = parity; v < vehicles.size(); v += 2) vehicles[v] = 1;
      ws.set_region(std::move(vehicles), {});
      descent.run(ws, rng, Objective::Cost, &memory);
      expect_feasible(f, ws);
    }
    ws.set_region({}, {});
    descent.run(ws, rng, Objective::Cost, &memory);
    EXPECT_EQ(ws.cost(), cost_from_scratch(*f.problem, ws));
    expect_feasible(f, ws);
    expect_local_optimum(f, ws);
  }
}

/// Predecessor and successor (kNone at a tour's ends) of every routed task.
std::map<std::size_t, std::pair<std::size_t, std::size_t>> links_of(const WorkingSolution& ws) {
  std::map<std::size_t, std::pair<std::size_t, std::size_t>> links;
  for (std::size_t v = 0; v < ws.vehicle_count(); ++v) {
    const auto& tasks = ws.tour(v).tasks;
    for (std::size_t i = 0; i < tasks.size(); ++i)
      links[tasks[i]] = {i == 0 ? kNone : tasks[i - 1],
                         i + 1 == tasks.size() ? kNone : tasks[i + 1]};
  }
  return links;
}

std::vector<std::size_t> routed_tasks(const WorkingSolution& ws) {
  std::vector<std::size_t> out;
  for (std::size_t v = 0; v < ws.vehicle_count(); ++v)
    for (std::size_t t : ws.tour(v).tasks) out.push_back(t);
  return out;
}

TEST_P(DescentTest, RewiredNamesTheTasksWhoseNeighboursChanged) {
  const Fixture f(GetParam(), false);
  std::mt19937_64 rng(GetParam() + 3);
  for (int round = 0; round < 5; ++round) {
    WorkingSolution ws = f.random_solution(rng);
    const auto before = links_of(ws);
    std::vector<std::size_t> jobs;
    for (std::size_t t : routed_tasks(ws))
      if (f.problem->task(t).type == TaskType::Job) jobs.push_back(t);
    ASSERT_GE(jobs.size(), 3u);
    std::shuffle(jobs.begin(), jobs.end(), rng);
    const std::vector<std::size_t> moved(jobs.begin(), jobs.begin() + 1 + round % 3);
    ws.begin_change();
    ws.remove(moved);
    for (std::size_t t : moved) {
      const std::size_t v = rng() % ws.vehicle_count();
      ws.insert(t, v, rng() % (ws.tour(v).size() + 1));
    }
    std::set<std::size_t> expected;
    for (const auto& [t, link] : links_of(ws)) {
      const auto it = before.find(t);
      if (it == before.end() || it->second != link) expected.insert(t);
    }
    std::vector<std::size_t> got = ws.rewired();
    std::sort(got.begin(), got.end());
    EXPECT_EQ(std::adjacent_find(got.begin(), got.end()), got.end()) << "each task once";
    EXPECT_EQ(std::set<std::size_t>(got.begin(), got.end()), expected);
    EXPECT_FALSE(expected.empty());
    ws.commit();
    EXPECT_TRUE(ws.rewired().empty());
  }
}

TEST_P(DescentTest, DescentAroundImprovesOnlyKeepsItsBoundAndReachesALocalOptimumWhenRepeated) {
  for (const bool tight : {false, true}) {
    const Fixture f(GetParam(), tight);
    std::mt19937_64 rng(GetParam() + 17);
    const WorkingSolution start = f.random_solution(rng);
    const GranularDescent descent(*f.near, *f.classes, GranularDescent::Parameters{12, 3, 100});
    DescentMemory memory;
    const std::vector<std::size_t> all = routed_tasks(start);

    WorkingSolution ws = start;
    EXPECT_EQ(descent.run_around(ws, {}, rng, Objective::Cost, memory, 100), 0u);
    EXPECT_EQ(ws.plan(), start.plan());

    WorkingSolution bounded = start;
    EXPECT_LE(descent.run_around(bounded, all, rng, Objective::Cost, memory, 1), 1u);

    // The same random numbers, the same moves.
    WorkingSolution a = start, b = start;
    std::mt19937_64 rng_a(5), rng_b(5);
    const std::size_t moves = descent.run_around(a, all, rng_a, Objective::Cost, memory, 1000);
    EXPECT_EQ(descent.run_around(b, all, rng_b, Objective::Cost, memory, 1000), moves);
    EXPECT_EQ(a.plan(), b.plan());
    EXPECT_EQ(a.cost(), cost_from_scratch(*f.problem, a));
    EXPECT_EQ(a.score().unassigned, start.score().unassigned);
    if (moves > 0) {
      EXPECT_TRUE(better(a.score(), start.score(), Objective::Cost));
    } else {
      EXPECT_EQ(a.score(), start.score());
    }
    expect_feasible(f, a);
    EXPECT_TRUE(std::all_of(memory.queued.begin(), memory.queued.end(), [](char q) {
      return q == 0;
    })) << "the scratch is left clear";

    // Started again from every task until it finds nothing: a local optimum of its operators.
    int rounds = 0;
    while (descent.run_around(a, routed_tasks(a), rng_a, Objective::Cost, memory, 1000) > 0)
      ASSERT_LT(++rounds, 100);
    expect_feasible(f, a);
    expect_local_optimum(f, a);
  }
}

/// No intra-route move of a task u and a partner w in its tour improves: the run from u (1 to 3
/// tasks) next to w, or the reversals that make u and w neighbours.
void expect_intra_local_optimum(const Fixture& f, const WorkingSolution& ws, std::size_t partners) {
  for (std::size_t u = 0; u < f.problem->tasks().size(); ++u) {
    if (!ws.assigned(u)) continue;
    const auto& near = f.near->of(u);
    for (std::size_t x = 0; x < std::min(partners, near.size()); ++x) {
      const std::size_t w = near[x];
      if (!ws.assigned(w) || ws.route_of(w) != ws.route_of(u)) continue;
      const std::size_t v = ws.route_of(u), n = ws.tour(v).size(), i = ws.position_of(u),
                        j = ws.position_of(w);
      const TourCosts costs(ws, v);
      for (std::size_t length = 1; length <= 3 && i + length <= n; ++length)
        for (const std::size_t to : {j, j + 1}) {
          if (to >= i && to <= i + length) continue;
          const TourOrOpt op(ws, costs, v, i, length, to);
          EXPECT_FALSE(improves(op.delta(), Objective::Cost) && op.is_valid())
              << "or-opt " << u << " to " << w;
        }
      const std::size_t a = std::min(i, j), b = std::max(i, j);
      if (b <= a + 1) continue;
      for (const auto& [first, last] : {std::pair{a + 1, b}, std::pair{a, b - 1}}) {
        const TourTwoOpt op(ws, costs, v, first, last);
        EXPECT_FALSE(improves(op.delta(), Objective::Cost) && op.is_valid())
            << "2-opt " << u << " and " << w;
      }
    }
  }
}

TEST_P(DescentTest, IntraRouteMovesReachALocalOptimumInsideTheToursToo) {
  for (const bool tight : {false, true}) {
    const Fixture f(GetParam(), tight);
    std::mt19937_64 rng(GetParam() + 29);
    const WorkingSolution start = f.random_solution(rng);
    GranularDescent::Parameters parameters{12, 3, 100};
    parameters.intra_route = true;
    const GranularDescent descent(*f.near, *f.classes, parameters);

    WorkingSolution ws = start;
    const std::size_t moves = descent.run(ws, rng, Objective::Cost);
    EXPECT_EQ(ws.cost(), cost_from_scratch(*f.problem, ws));
    EXPECT_EQ(ws.score().unassigned, start.score().unassigned);
    if (moves > 0) {
      EXPECT_TRUE(better(ws.score(), start.score(), Objective::Cost));
    }
    expect_feasible(f, ws);
    expect_local_optimum(f, ws);
    expect_intra_local_optimum(f, ws, 12);

    // The descent around every task, repeated until it finds nothing, reaches the same kind of
    // optimum: its queue follows the tasks each intra-route move rewired.
    WorkingSolution around = start;
    DescentMemory memory;
    int rounds = 0;
    while (descent.run_around(around, routed_tasks(around), rng, Objective::Cost, memory, 1000) > 0)
      ASSERT_LT(++rounds, 100);
    EXPECT_EQ(around.cost(), cost_from_scratch(*f.problem, around));
    expect_feasible(f, around);
    expect_local_optimum(f, around);
    expect_intra_local_optimum(f, around, 12);
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
      EXPECT_EQ(took_b,
                b.is_valid() && (!a.is_valid() || better(b.delta(), a.delta(), Objective::Cost)));
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
