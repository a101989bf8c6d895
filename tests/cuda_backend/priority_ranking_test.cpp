// Both backends rank solutions by routesolve::Score (priority lost, unassigned, routes under
// vehicles-then-cost, cost): on random instances with priorities, the CPU search's score of a
// solution and the batched search's agree term by term and on which of two solutions is better;
// and when capacity allows only one of two jobs, both backends serve the high-priority one.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <random>
#include <vector>

#include "routesolve/cpu/cpu_backend.hpp"
#include "routesolve/cuda/search_backend.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"
#include "search/solution_state.hpp"
#include "routesolve/search/segments.hpp"
#include "routesolve/search/working_solution.hpp"

namespace routesolve::test {
namespace {

/// Random instance: jobs and shipments with priorities 0..100, three vehicles of small capacity.
std::shared_ptr<const Problem> random_instance(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto uni = [&](std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng); };
  const std::size_t jobs = 10, pairs = 3;
  const std::size_t locations = 1 + jobs + 2 * pairs;
  std::vector<std::pair<std::int64_t, std::int64_t>> xy(locations);
  for (auto& p : xy) p = {uni(0, 100), uni(0, 100)};
  Matrix dur(locations), dist(locations);
  for (std::size_t i = 0; i < locations; ++i)
    for (std::size_t j = 0; j < locations; ++j) {
      const double dx = static_cast<double>(xy[i].first - xy[j].first);
      const double dy = static_cast<double>(xy[i].second - xy[j].second);
      dist(i, j) = static_cast<std::int64_t>(std::sqrt(dx * dx + dy * dy) * 10.0);
      dur(i, j) = dist(i, j);
    }
  ProblemSpec spec;
  spec.matrices["car"] = ProfileMatrices{dur, dist, std::nullopt};
  for (std::size_t j = 0; j < jobs; ++j) {
    JobSpec job;
    job.id = 1 + j;
    job.location.index = 1 + j;
    job.delivery = Amount{uni(1, 6)};
    job.priority = static_cast<int>(uni(0, 3) == 0 ? 0 : uni(0, 100));
    spec.jobs.push_back(job);
  }
  for (std::size_t s = 0; s < pairs; ++s) {
    ShipmentSpec sh;
    sh.pickup.id = 100 + s;
    sh.pickup.location.index = 1 + jobs + 2 * s;
    sh.delivery.id = 200 + s;
    sh.delivery.location.index = 2 + jobs + 2 * s;
    sh.amount = Amount{uni(1, 5)};
    sh.priority = static_cast<int>(uni(0, 100));
    spec.shipments.push_back(sh);
  }
  for (std::size_t v = 0; v < 3; ++v) {
    VehicleSpec veh;
    veh.id = 10 + v;
    veh.start = LocationSpec{0, std::nullopt};
    veh.end = LocationSpec{0, std::nullopt};
    veh.capacity = Amount{uni(8, 14)};
    veh.costs.fixed = uni(0, 1) * 300;
    spec.vehicles.push_back(veh);
  }
  return Problem::create(std::move(spec));
}

/// A random feasible solution that leaves some tasks out on purpose.
cuda::batched::State random_state(const Problem& p, std::mt19937_64& rng) {
  cuda::batched::State s;
  s.routes.assign(p.vehicles().size(), {});
  s.cost.assign(p.vehicles().size(), 0);
  std::vector<std::size_t> order(p.tasks().size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  for (const std::size_t t : order) {
    const Task& task = p.task(t);
    if (task.type == TaskType::Delivery) continue;
    bool placed = false;
    for (int attempt = 0; attempt < 20 && rng() % 4 != 0 && !placed; ++attempt) {
      const std::size_t v = rng() % s.routes.size();
      auto seq = s.routes[v];
      const std::size_t a = rng() % (seq.size() + 1);
      seq.insert(seq.begin() + static_cast<std::ptrdiff_t>(a), static_cast<std::int32_t>(t));
      if (task.sibling != kNone)
        seq.insert(seq.begin() + static_cast<std::ptrdiff_t>(a + 1 + rng() % (seq.size() - a)),
                   static_cast<std::int32_t>(task.sibling));
      bool ok = false;
      const Cost c = cuda::batched::schedule_cost(p, v, seq, &ok);
      if (ok) {
        s.routes[v] = std::move(seq);
        s.cost[v] = c;
        placed = true;
      }
    }
    if (!placed) {
      s.unassigned.push_back(static_cast<std::int32_t>(t));
      if (task.sibling != kNone) s.unassigned.push_back(static_cast<std::int32_t>(task.sibling));
    }
  }
  return s;
}

/// The CPU search's view of the same solution: a working solution with every job and pickup
/// insertable, the routes set as they are.
auto cpu_score(const search::SegmentModel& model, const cuda::batched::State& s) {
  const Problem& p = model.problem();
  std::vector<std::size_t> insertable;
  for (std::size_t t = 0; t < p.tasks().size(); ++t)
    if (p.task(t).type != TaskType::Delivery) insertable.push_back(t);
  search::WorkingSolution ws(model, insertable);
  for (std::size_t v = 0; v < s.routes.size(); ++v)
    ws.set_tasks(v, std::vector<std::size_t>(s.routes[v].begin(), s.routes[v].end()));
  return ws.score();
}

TEST(PriorityRanking, CpuAndCudaHostRankTwoSolutionsAlike) {
  std::size_t priority_decided = 0, compared = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const auto problem = random_instance(seed);
    const search::SegmentModel model(*problem);
    std::mt19937_64 rng(seed * 7919);
    for (int pair = 0; pair < 20; ++pair) {
      const cuda::batched::State a = random_state(*problem, rng), b = random_state(*problem, rng);
      const auto ca = cpu_score(model, a), cb = cpu_score(model, b);
      const Score ga = cuda::batched::score(*problem, a), gb = cuda::batched::score(*problem, b);
      // Term by term.
      EXPECT_EQ(static_cast<std::int64_t>(ca.priority_lost), ga.priority_lost);
      EXPECT_EQ(static_cast<std::int64_t>(ca.unassigned), ga.unassigned);
      EXPECT_EQ(static_cast<std::int64_t>(ca.routes), ga.routes);
      EXPECT_EQ(static_cast<std::int64_t>(ca.cost), ga.cost);
      if (ga.cost == gb.cost) continue;  // exact cost ties: the final route tie-break is core's alone
      for (const Objective objective : {Objective::Cost, Objective::VehiclesThenCost}) {
        EXPECT_EQ(better(ca, cb, objective), better(ga, gb, objective)) << "seed " << seed << " pair " << pair;
        EXPECT_EQ(better(cb, ca, objective), better(gb, ga, objective)) << "seed " << seed << " pair " << pair;
      }
      ++compared;
      // Cases where priority overrules a lower cost: the ranking the batched search lacked.
      if (ga.priority_lost != gb.priority_lost && (ga.priority_lost < gb.priority_lost) != (ga.cost < gb.cost))
        ++priority_decided;
    }
  }
  EXPECT_GT(compared, 400u);
  EXPECT_GT(priority_decided, 50u);
}

/// One vehicle that can carry one of two jobs: `low` (priority 0, next to the depot) or `high`
/// (priority 90, far away). Listed low first or high first.
std::shared_ptr<const Problem> one_of_two(bool high_first) {
  Matrix dur(3), dist(3);
  const std::int64_t d[3][3] = {{0, 10, 400}, {10, 0, 400}, {400, 400, 0}};
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j) dur(i, j) = dist(i, j) = d[i][j];
  ProblemSpec spec;
  spec.matrices["car"] = ProfileMatrices{dur, dist, std::nullopt};
  JobSpec low;
  low.id = 1;
  low.location.index = 1;
  low.delivery = Amount{1};
  low.priority = 0;
  JobSpec high;
  high.id = 2;
  high.location.index = 2;
  high.delivery = Amount{1};
  high.priority = 90;
  spec.jobs = high_first ? std::vector<JobSpec>{high, low} : std::vector<JobSpec>{low, high};
  VehicleSpec veh;
  veh.id = 10;
  veh.start = LocationSpec{0, std::nullopt};
  veh.end = LocationSpec{0, std::nullopt};
  veh.capacity = Amount{1};
  spec.vehicles.push_back(veh);
  return Problem::create(std::move(spec));
}

void expect_high_priority_served(const Solution& s, const char* backend) {
  ASSERT_EQ(s.routes.size(), 1u) << backend;
  std::vector<Id> served;
  for (const Step& st : s.routes.front().steps)
    if (st.type == StepType::Job) served.push_back(st.id);
  EXPECT_EQ(served, std::vector<Id>{2}) << backend;
  ASSERT_EQ(s.unassigned.size(), 1u) << backend;
  EXPECT_EQ(s.unassigned.front().id, 1u) << backend;
}

TEST(PriorityRanking, BothBackendsServeTheHighPriorityJob) {
  for (const bool high_first : {false, true}) {
    const auto problem = one_of_two(high_first);
    for (const double limit : {0.0, 0.2}) {
      SolveOptions options;
      options.time_limit_s = limit;
      options.seed = 3;
      expect_high_priority_served(cpu::make_cpu_backend()->solve(*problem, options), "cpu");
      expect_high_priority_served(cuda::make_cuda_host_backend()->solve(*problem, options), "cuda-host");
    }
  }
}

}  // namespace
}  // namespace routesolve::test
