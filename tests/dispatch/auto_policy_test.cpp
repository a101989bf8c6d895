// The `--backend auto` cost model (cuda_backend/include/routesolve/dispatch/auto_policy.hpp): its
// decisions on sizes, time limits, matrices and threads, and "no device: always the CPU".

#include <gtest/gtest.h>

#include <cstddef>

#include "routesolve/dispatch/auto_policy.hpp"
#include "routesolve/cuda/search_backend.hpp"
#include "routesolve/cuda/cuda_backend.hpp"
#include "routesolve/solve.hpp"

namespace routesolve::dispatch {
namespace {

AutoInputs inputs(std::size_t tasks, double limit = 0.0, bool device = true, unsigned threads = 1,
                  std::size_t locations = 0) {
  AutoInputs in;
  in.tasks = tasks;
  in.locations = locations > 0 ? locations : tasks + 1;
  in.time_limit_s = limit;
  in.threads = threads;
  in.device = device;
  return in;
}

TEST(AutoPolicy, WithoutADeviceAlwaysTheCpu) {
  for (const std::size_t tasks : {0u, 10u, 200u, 1000u, 100000u})
    for (const double limit : {0.0, 1.0, 60.0}) {
      const AutoEstimate e = estimate_auto(inputs(tasks, limit, false));
      EXPECT_FALSE(e.use_device) << tasks << " tasks, " << limit << " s";
      EXPECT_EQ(e.why, "no usable device");
    }
  // The entry solve() uses: this machine's device, whatever the size.
  if (!cuda::device_available()) {
    EXPECT_FALSE(device_pays_for(100000));
  }
}

TEST(AutoPolicy, SmallProblemsStayOnTheCpuLargeOnesGoToTheDevice) {
  EXPECT_FALSE(estimate_auto(inputs(10)).use_device);
  EXPECT_FALSE(estimate_auto(inputs(100)).use_device);
  EXPECT_TRUE(estimate_auto(inputs(300)).use_device);
  EXPECT_TRUE(estimate_auto(inputs(1000)).use_device);
  EXPECT_TRUE(estimate_auto(inputs(1000, 10.0)).use_device);
  // A time limit does not send a small problem to the device: one descent must pay first.
  EXPECT_FALSE(estimate_auto(inputs(20, 10.0)).use_device);
  // Monotone in the size: one break-even point, between 100 and 300 tasks with the defaults.
  std::size_t first = 0;
  for (std::size_t n = 1; n <= 5000; ++n) {
    const bool dev = estimate_auto(inputs(n)).use_device;
    if (dev && first == 0) first = n;
    if (first != 0) {
      ASSERT_TRUE(dev) << "the device paid at " << first << " tasks, not at " << n;
    }
  }
  EXPECT_GT(first, 100u);
  EXPECT_LT(first, 300u);
}

TEST(AutoPolicy, FixedCostMustFitTheTimeLimit) {
  // 0.25 s of context start is over 10% of a 1 s limit, not of a 10 s one.
  EXPECT_FALSE(estimate_auto(inputs(2000, 1.0)).use_device);
  EXPECT_TRUE(estimate_auto(inputs(2000, 10.0)).use_device);
  // A 20,000-location matrix is ~9.6 GB of uploads: fine for a minute, not for 2 s.
  const AutoEstimate big_short = estimate_auto(inputs(1000, 2.0, true, 1, 20000));
  const AutoEstimate big_long = estimate_auto(inputs(1000, 60.0, true, 1, 20000));
  EXPECT_FALSE(big_short.use_device) << big_short.why;
  EXPECT_TRUE(big_long.use_device) << big_long.why;
  EXPECT_GT(big_short.fixed_s, 0.6);
}

TEST(AutoPolicy, MoreHostThreadsRaiseTheBar) {
  // 16 host threads price as fast as the modelled device round: with a time limit the device
  // no longer does 1.5x the host's rounds.
  EXPECT_TRUE(estimate_auto(inputs(1000, 10.0, true, 1)).use_device);
  const AutoEstimate e = estimate_auto(inputs(1000, 10.0, true, 16));
  EXPECT_FALSE(e.use_device) << e.why;
  EXPECT_LT(e.rounds_gain, 1.5);
}

TEST(AutoPolicy, MeasuredRatesMoveTheDecision) {
  // The model is the rates: a device measured 10x slower than the estimate loses at 300 tasks.
  AutoRates slow;
  slow.device_moves_per_s /= 10.0;
  slow.round_overhead_s *= 20.0;
  EXPECT_TRUE(estimate_auto(inputs(300)).use_device);
  EXPECT_FALSE(estimate_auto(inputs(300), slow).use_device);
  const AutoEstimate e = estimate_auto(inputs(1000));
  EXPECT_GT(e.host_round_s, e.device_round_s);
  EXPECT_GT(e.descent_gain, 1.5);
  EXPECT_NE(e.why.find("device"), std::string::npos);
}

TEST(AutoPolicy, SolveWithAutoWithoutADeviceIsTheCpuBackend) {
  if (cuda::device_available()) GTEST_SKIP() << "a device is present: auto may pick it";
  ProblemSpec spec;
  Matrix m(3);
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j) m(i, j) = i == j ? 0 : 10;
  spec.matrices["car"] = ProfileMatrices{m, m, std::nullopt};
  for (std::size_t j = 1; j < 3; ++j) {
    JobSpec job;
    job.id = j;
    job.location.index = j;
    spec.jobs.push_back(job);
  }
  VehicleSpec veh;
  veh.id = 1;
  veh.start = LocationSpec{0, std::nullopt};
  spec.vehicles.push_back(veh);
  const auto problem = Problem::create(std::move(spec));
  SolveOptions options;
  options.backend = BackendKind::Auto;
  EXPECT_FALSE(device_pays_for(*problem, options));
  EXPECT_EQ(solve(*problem, options).backend, "cpu");
}

}  // namespace
}  // namespace routesolve::dispatch
