// The device self-test's comparison on a host-twin double: a correct device passes, every kind
// of wrong result or failure makes it fail naming the kernel family, and the process keeps one
// verdict per device, tested once even when many threads ask at once.

#include "routesolve/cuda/self_test.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "faulty_device.hpp"
#include "routesolve/cuda/cuda_backend.hpp"

using namespace routesolve;
using test::Faults;
using test::TwinDevice;

namespace {

cuda::SelfTestResult self_test(Faults faults) {
  TwinDevice device(faults);
  return cuda::run_self_test(device, 0);
}

void expect_fails(Faults faults, const std::string& family) {
  const cuda::SelfTestResult r = self_test(faults);
  EXPECT_FALSE(r.passed) << family;
  EXPECT_NE(r.reason.find(family), std::string::npos) << r.reason;
  EXPECT_NE(cuda::format_verdict(r).find("FAILED: " + r.reason), std::string::npos)
      << cuda::format_verdict(r);
}

}  // namespace

TEST(SelfTest, ACorrectDevicePasses) {
  for (unsigned long long seed : {1ull, 2ull, 3ull}) {
    TwinDevice device;
    const cuda::SelfTestResult r = cuda::run_self_test(device, 4, seed);
    EXPECT_TRUE(r.passed) << r.reason;
    EXPECT_TRUE(r.reason.empty()) << r.reason;
    EXPECT_EQ(r.index, 4);
    EXPECT_EQ(r.device, "host twin double");
    EXPECT_EQ(cuda::format_verdict(r).rfind("device 4 (host twin double): passed in ", 0), 0u)
        << cuda::format_verdict(r);
  }
}

TEST(SelfTest, EveryKernelFamilyOfTheSolvesIsCompared) {
  expect_fails({.phast = true}, "PHAST durations (pinned transfers)");
  expect_fails({.route = true}, "route evaluation (pinned transfers)");
  expect_fails({.insertion = true}, "insertion pricing (pinned transfers, call 1)");
  expect_fails({.missed = true}, "insertion pricing");
}

TEST(SelfTest, TheInsertionEngineIsCalledThriceInBothTransferModes) {
  // Three calls per mode on one engine (reuse, then growth of the store), jobs then shipments.
  const auto use = std::make_shared<test::DeviceUse>();
  TwinDevice device({}, use);
  const cuda::SelfTestResult r = cuda::run_self_test(device, 0);
  ASSERT_TRUE(r.passed) << r.reason;
  EXPECT_GE(use->engines.load(), 2u * 2u + 1u);  // two problems x two modes, and the rates' engine
  EXPECT_GE(use->price_calls.load(), 2u * 2u * 3u);
  EXPECT_EQ(use->route_checks.load(), 2u);  // pinned and naive
  // A wrong choice in the third call only (the grown store's) is caught.
  expect_fails({.insertion = true, .flip_after = 2},
               "insertion pricing (pinned transfers, call 3)");
}

TEST(SelfTest, AnAllocationFailureFailsTheDeviceWithTheError) {
  const cuda::SelfTestResult r = self_test({.no_memory = true});
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.reason.find("out of memory"), std::string::npos) << r.reason;
}

TEST(DeviceVerdicts, OneSelfTestPerDeviceWhateverTheThreads) {
  const test::ScopedTwinDevices devices({});
  std::vector<std::thread> threads;
  std::vector<int> passed(8, 0);
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&passed, i] {
      passed[static_cast<std::size_t>(i)] = cuda::device_verdict(i % 2).passed ? 1 : 0;
    });
  for (auto& t : threads) t.join();
  for (const int p : passed) EXPECT_EQ(p, 1);
  EXPECT_EQ(cuda::self_test_runs(), 2u);  // devices 0 and 1, once each
  EXPECT_TRUE(cuda::device_verdict(0).passed);
  EXPECT_EQ(cuda::self_test_runs(), 2u);
}

TEST(DeviceVerdicts, AFaultyDeviceStaysUnusableWithItsReason) {
  const test::ScopedTwinDevices devices({.route = true});
  const cuda::SelfTestResult first = cuda::device_verdict(0);
  EXPECT_FALSE(first.passed);
  EXPECT_NE(first.reason.find("route evaluation"), std::string::npos) << first.reason;
  EXPECT_EQ(cuda::device_verdict(0).reason, first.reason);
  EXPECT_EQ(cuda::self_test_runs(), 1u);
}

TEST(DeviceVerdicts, AMismatchDuringASolveMakesAPassedDeviceUnusable) {
  const test::ScopedTwinDevices devices({});
  ASSERT_TRUE(cuda::device_verdict(0).passed);
  cuda::mark_device_unusable(0, "a descent did not check out");
  EXPECT_FALSE(cuda::device_verdict(0).passed);
  EXPECT_EQ(cuda::device_verdict(0).reason, "a descent did not check out");
  cuda::mark_device_unusable(0, "another reason");  // the first reason stays
  EXPECT_EQ(cuda::device_verdict(0).reason, "a descent did not check out");
  // A device marked before its first use is not self-tested at all.
  cuda::mark_device_unusable(3, "known bad");
  EXPECT_FALSE(cuda::device_verdict(3).passed);
  EXPECT_EQ(cuda::self_test_runs(), 1u);
}

TEST(DeviceVerdicts, TheRealDevicesWithoutOneFailWithTheReason) {
  if (cuda::device_available()) GTEST_SKIP() << "a CUDA device is present";
  cuda::set_self_test_device_factory({});
  const cuda::SelfTestResult r = cuda::device_verdict(0);
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.reason.find(cuda::device_unavailable_reason()), std::string::npos) << r.reason;
}

TEST(DeviceVerdicts, TheRealDevicePassesItsSelfTest) {
  if (!cuda::device_available())
    GTEST_SKIP() << "no CUDA device: " << cuda::device_unavailable_reason();
  cuda::set_self_test_device_factory({});
  for (const cuda::DeviceInfo& d : cuda::devices()) {
    const cuda::SelfTestResult r = cuda::device_verdict(d.index);
    EXPECT_TRUE(r.passed) << cuda::format_verdict(r);
  }
}
