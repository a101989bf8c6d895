// The `--backend auto` cost model (cuda_backend/include/routesolve/dispatch/auto_policy.hpp): its
// decisions on sizes, time limits, matrices and threads, and "no device: always the CPU".

#include "routesolve/dispatch/auto_policy.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <string>

#include "routesolve/cuda/cuda_backend.hpp"
#include "routesolve/cuda/self_test.hpp"
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

TEST(AutoPolicy, WithoutMeasuredDeviceRatesAutoNeverPicksTheDevice) {
  // No constants for a device nobody measured: a usable device without a measurement (no
  // self-test figures, no calibration file) leaves every problem on the cpu, saying why.
  for (const std::size_t tasks : {10u, 100u, 1000u, 5000u, 30000u})
    for (const unsigned threads : {1u, 16u}) {
      const AutoEstimate e = estimate_auto(inputs(tasks, 60.0, true, threads));
      EXPECT_FALSE(e.use_device) << tasks << " tasks, " << threads << " threads: " << e.why;
      EXPECT_NE(e.why.find("not measured"), std::string::npos) << e.why;
    }
  cuda::DeviceRates unmeasured;
  EXPECT_FALSE(with_device(unmeasured).device_measured);
  EXPECT_FALSE(estimate_auto(inputs(5000, 60.0), with_device(unmeasured)).use_device);
}

/// Rates as a measurement of a fast device would give them.
AutoRates measured_fast() {
  cuda::DeviceRates d;
  d.measured = true;
  d.round_overhead_s = 1e-6;
  d.device_row_s = 0.01e-9;
  d.h2d_bytes_per_s = 2.0e10;
  d.fixed_s = 0.25;
  d.source = "test";
  AutoRates fast = with_device(d);
  fast.pricing_share = 0.9;
  return fast;
}

TEST(AutoPolicy, WithMeasuredSlowRoundsTheSearchStaysOnTheCpu) {
  // A measured round overhead of 40 us and a third of a step in pricing: the device does fewer
  // chain steps than the cpu.
  AutoRates slow = measured_fast();
  slow.pricing_share = 0.32;
  slow.round_overhead_s = 40e-6;
  slow.device_row_s = 0.2e-9;
  for (const std::size_t tasks : {10u, 1000u, 30000u}) {
    const AutoEstimate e = estimate_auto(inputs(tasks, 60.0, true, 16), slow);
    EXPECT_FALSE(e.use_device) << e.why;
    EXPECT_LT(e.gain, 1.5);
    EXPECT_NE(e.why.find("chain steps/s"), std::string::npos) << e.why;
    EXPECT_NE(e.why.find("device rates: test"), std::string::npos) << e.why;
  }
}

TEST(AutoPolicy, ADeviceMeasuredFastEnoughWins) {
  // The model is the rates: a round overhead of 1 us and a host that spends most of a step
  // pricing make the device pay for large problems, not for small ones.
  const AutoRates fast = measured_fast();
  const AutoEstimate big = estimate_auto(inputs(5000, 60.0), fast);
  EXPECT_TRUE(big.use_device) << big.why;
  EXPECT_GT(big.chains, 100u);
  EXPECT_FALSE(estimate_auto(inputs(20, 60.0), fast).use_device);
  // More host threads raise the bar: the cpu runs that many chains at once.
  const AutoEstimate crowded = estimate_auto(inputs(5000, 60.0, true, 64), fast);
  EXPECT_LT(crowded.gain, big.gain);
}

TEST(AutoPolicy, FixedCostMustFitTheTimeLimit) {
  const AutoRates fast = measured_fast();
  // A 20,000-location matrix is ~9.6 GB of uploads: fine for a minute, not for 2 s.
  const AutoEstimate big_short = estimate_auto(inputs(5000, 2.0, true, 1, 20000), fast);
  const AutoEstimate big_long = estimate_auto(inputs(5000, 60.0, true, 1, 20000), fast);
  EXPECT_FALSE(big_short.use_device) << big_short.why;
  EXPECT_TRUE(big_long.use_device) << big_long.why;
  EXPECT_GT(big_short.fixed_s, 0.6);
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
