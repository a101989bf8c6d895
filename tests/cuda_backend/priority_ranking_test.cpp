// Both backends rank solutions by routesolve::Score (priority lost, unassigned, routes under
// vehicles-then-cost, cost): when capacity allows only one of two jobs, cpu and cuda-host both
// serve the high-priority one, whatever the order the jobs are listed in.

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "routesolve/cpu/cpu_backend.hpp"
#include "routesolve/cuda/search_backend.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"

namespace routesolve::test {
namespace {

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
      expect_high_priority_served(cuda::make_cuda_host_backend()->solve(*problem, options),
                                  "cuda-host");
    }
  }
}

}  // namespace
}  // namespace routesolve::test
