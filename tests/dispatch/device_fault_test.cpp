// Device faults during a solve, injected through the engine doubles (faulty_device.hpp) in this
// long-lived process: a launch error, an illegal address or an allocation failure in the
// search, in the route check or when the device is opened. Under auto the solve goes on on
// cuda-host (from where the search was, when the fault came during it) with the reason in the
// solution; an explicit cuda fails with Error(Device), exit 3, naming it; and either way the
// device is unusable afterwards: the next solve does not touch it.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "faulty_device.hpp"
#include "random_instances.hpp"
#include "road_graph_fixture.hpp"
#include "routesolve/cuda/cuda_backend.hpp"
#include "routesolve/dispatch/device_fallback.hpp"
#include "routesolve/dispatch/matrices.hpp"
#include "routesolve/error.hpp"
#include "routesolve/solve.hpp"
#include "routesolve/timing.hpp"
#include "routesolve/validator.hpp"

using namespace routesolve;
using test::DeviceUse;
using test::Faults;
using test::ScopedTwinDevices;
using test::Throw;

namespace {

std::string text_of(Throw kind) { return test::device_exception(kind).what(); }

SolveOptions options_for(BackendKind backend) {
  SolveOptions o;
  o.backend = backend;
  o.iterations = 150;
  o.seed = 5;
  o.threads = 1;
  o.chains = 2;  // the same chains on every backend: the same decisions
  return o;
}

/// The device work asked of the doubles so far.
struct Used {
  std::uint64_t opened, engines, calls, checks;
  explicit Used(const DeviceUse& u)
      : opened(u.opened), engines(u.engines), calls(u.price_calls), checks(u.route_checks) {}
  bool operator==(const Used&) const = default;
};

}  // namespace

TEST(DeviceFault, AutoGoesOnOnTheHostTwinAndLaterSolvesLeaveTheDevice) {
  const auto p = test::random_instance(41, 36, {true, true, false, false});
  for (const Throw kind : {Throw::LaunchError, Throw::IllegalAddress, Throw::NoMemory})
    for (const std::uint64_t at : {0u, 9u}) {  // the first call (the model's upload) or mid-search
      const std::string what = "fault " + text_of(kind) + " at call " + std::to_string(at);
      const auto use = std::make_shared<DeviceUse>();
      const ScopedTwinDevices devices(Faults{.in_search = kind, .throw_at = at}, use);
      ASSERT_EQ(dispatch::use_device(BackendKind::Auto, 0).kind, BackendKind::Cuda)
          << what;  // self-test passes
      use->armed = true;

      const SolveOptions o = options_for(BackendKind::Auto);
      const Solution a = dispatch::solve_on_device(*p, o);
      EXPECT_GT(use->price_calls.load(), at) << what;  // the device was used up to the fault
      EXPECT_EQ(a.backend, "cuda-host") << what;
      EXPECT_NE(a.fallback.find(text_of(kind)), std::string::npos) << a.fallback;
      EXPECT_NE(a.fallback.find("the search continued on the host twin"), std::string::npos)
          << a.fallback;
      const ValidationReport report = validate(*p, a);
      EXPECT_TRUE(report.ok()) << what << "\n" << report.to_text();
      // The search went on from where it was: the decisions of the host twin from the start.
      SolveOptions host = o;
      host.backend = BackendKind::CudaHost;
      const Solution h = solve(*p, host);
      EXPECT_EQ(test::routes_of(a), test::routes_of(h)) << what;
      EXPECT_EQ(a.iterations, h.iterations) << what;

      // The device is unusable for the process: auto's next solves and an explicit cuda leave it
      // alone.
      const Used before(*use);
      const dispatch::DeviceChoice choice = dispatch::use_device(BackendKind::Auto, 0);
      EXPECT_EQ(choice.kind, BackendKind::CudaHost);
      EXPECT_NE(choice.fallback.find(text_of(kind)), std::string::npos) << choice.fallback;
      const Solution b = dispatch::solve_on_device(*p, o);
      EXPECT_EQ(b.backend, "cuda-host");
      EXPECT_NE(b.fallback.find("device 0 is unusable"), std::string::npos) << b.fallback;
      EXPECT_EQ(test::routes_of(b), test::routes_of(h)) << what;
      (void)solve(*p, o);
      try {
        (void)solve(*p, options_for(BackendKind::Cuda));
        ADD_FAILURE() << "expected Error(Device) from an explicit cuda after the fault";
      } catch (const Error& e) {
        EXPECT_EQ(exit_code(e.code()), 3);
        EXPECT_NE(std::string(e.what()).find("device 0 is unusable"), std::string::npos)
            << e.what();
      }
      EXPECT_EQ(Used(*use), before) << what;
    }
}

TEST(DeviceFault, ExplicitCudaFailsWithExitThreeNamingTheFault) {
  const auto p = test::random_instance(42, 30, {false, true, false, false});
  for (const Throw kind : {Throw::LaunchError, Throw::IllegalAddress, Throw::NoMemory}) {
    const auto use = std::make_shared<DeviceUse>();
    const ScopedTwinDevices devices(Faults{.in_search = kind, .throw_at = 4}, use);
    ASSERT_EQ(dispatch::use_device(BackendKind::Cuda, 0).kind, BackendKind::Cuda);
    use->armed = true;
    try {
      (void)solve(*p, options_for(BackendKind::Cuda));
      ADD_FAILURE() << "expected Error(Device)";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::Device);
      EXPECT_EQ(exit_code(e.code()), 3);
      const std::string message = e.what();
      EXPECT_EQ(message.rfind("CUDA backend requested but device 0 failed during the solve: ", 0),
                0u)
          << message;
      EXPECT_NE(message.find(text_of(kind)), std::string::npos) << message;
    }
    const Used before(*use);
    try {
      (void)solve(*p, options_for(BackendKind::Cuda));
      ADD_FAILURE() << "expected Error(Device) on the second solve";
    } catch (const Error& e) {
      EXPECT_EQ(exit_code(e.code()), 3);
      EXPECT_NE(std::string(e.what()).find("device 0 is unusable: failed during a solve"),
                std::string::npos)
          << e.what();
    }
    const Solution a = dispatch::solve_on_device(*p, options_for(BackendKind::Auto));
    EXPECT_EQ(a.backend, "cuda-host");
    EXPECT_EQ(Used(*use), before);
  }
}

TEST(DeviceFault, AFaultInTheRouteCheckKeepsTheSearchsSolution) {
  const auto p = test::random_instance(43, 30, {true, false, false, false});
  {
    const auto use = std::make_shared<DeviceUse>();
    const ScopedTwinDevices devices(Faults{.in_check = Throw::IllegalAddress}, use);
    ASSERT_EQ(dispatch::use_device(BackendKind::Auto, 0).kind, BackendKind::Cuda);
    use->armed = true;
    const Solution a = dispatch::solve_on_device(*p, options_for(BackendKind::Auto));
    EXPECT_EQ(a.backend, "cuda");  // the search ran on the device
    EXPECT_NE(a.fallback.find("the route check on cuda device 0 failed"), std::string::npos)
        << a.fallback;
    EXPECT_NE(a.fallback.find("checked on the host twin"), std::string::npos) << a.fallback;
    EXPECT_TRUE(validate(*p, a).ok());
    EXPECT_EQ(dispatch::use_device(BackendKind::Auto, 0).kind, BackendKind::CudaHost);
  }
  {
    const auto use = std::make_shared<DeviceUse>();
    const ScopedTwinDevices devices(Faults{.in_check = Throw::LaunchError}, use);
    ASSERT_EQ(dispatch::use_device(BackendKind::Cuda, 0).kind, BackendKind::Cuda);
    use->armed = true;
    try {
      (void)solve(*p, options_for(BackendKind::Cuda));
      ADD_FAILURE() << "expected Error(Device)";
    } catch (const Error& e) {
      EXPECT_EQ(exit_code(e.code()), 3);
      EXPECT_NE(std::string(e.what()).find("route check"), std::string::npos) << e.what();
    }
  }
}

TEST(DeviceFault, AFaultOpeningTheDeviceContinuesOnCudaHostWithTheTimeLeft) {
  const auto p = test::random_instance(44, 30, {false, false, false, false});
  const auto use = std::make_shared<DeviceUse>();
  const ScopedTwinDevices devices(Faults{.on_open = Throw::NoMemory}, use);
  ASSERT_EQ(dispatch::use_device(BackendKind::Auto, 0).kind, BackendKind::Cuda);
  use->armed = true;
  const std::uint64_t engines = use->engines;  // the self-test's
  SolveOptions o = options_for(BackendKind::Auto);
  o.iterations = 0;
  o.time_limit_s = 0.4;
  o.time_used_s = 0.1;
  const auto t0 = Clock::now();
  const Solution a = dispatch::solve_on_device(*p, o);
  EXPECT_LT(seconds_since(t0),
            0.3 + 0.25);  // what was left of the limit, not the whole limit again
  EXPECT_EQ(a.backend, "cuda-host");
  EXPECT_NE(a.fallback.find("device 0 failed during the solve: " + text_of(Throw::NoMemory)),
            std::string::npos)
      << a.fallback;
  EXPECT_NE(a.fallback.find("continued on cuda-host"), std::string::npos) << a.fallback;
  EXPECT_TRUE(validate(*p, a).ok());
  EXPECT_EQ(use->engines.load(), engines);  // the solve's device never opened
}

TEST(DeviceFault, AMatrixFaultMarksTheDeviceAndAutoGoesOnOnTheHostTwin) {
  // The verdict of a double passes; the real device engine then fails to open (no device).
  if (cuda::device_available()) GTEST_SKIP() << "a CUDA device is present: its matrix engine opens";
  RoadNetwork net;
  net.graph = test::grid_graph(6, 5, 3);
  const network::RoadRouter router(std::move(net));
  const std::vector<NodeId> sources{0, 7, 29}, targets{3, 11, 18, 25};
  dispatch::MatrixOptions options;
  const auto host =
      dispatch::make_node_engine(BackendKind::CudaHost, "city.rsnet", router, options);
  const NodeMatrices expected = host(sources, targets);
  {
    const ScopedTwinDevices devices({});
    options.backend = BackendKind::Auto;
    auto profile = std::make_shared<dispatch::EngineProfile>();
    const auto engine =
        dispatch::make_node_engine(BackendKind::Cuda, "city.rsnet", router, options, profile);
    const NodeMatrices found = engine(sources, targets);
    EXPECT_EQ(found.durations, expected.durations);
    EXPECT_EQ(found.distances, expected.distances);
    EXPECT_NE(profile->fallback.find("device 0 failed during a matrix: "), std::string::npos)
        << profile->fallback;
    EXPECT_NE(profile->fallback.find("continued on cuda-host"), std::string::npos)
        << profile->fallback;
    const dispatch::DeviceChoice choice = dispatch::use_device(BackendKind::Auto, 0);
    EXPECT_EQ(choice.kind, BackendKind::CudaHost);
    EXPECT_NE(choice.fallback.find("failed during a matrix"), std::string::npos) << choice.fallback;
  }
  {
    const ScopedTwinDevices devices({});
    options.backend = BackendKind::Cuda;
    try {
      (void)dispatch::make_node_engine(BackendKind::Cuda, "city.rsnet", router, options);
      ADD_FAILURE() << "expected Error(Device)";
    } catch (const Error& e) {
      EXPECT_EQ(exit_code(e.code()), 3);
      EXPECT_EQ(std::string(e.what()).rfind(
                    "CUDA backend requested but device 0 failed during a matrix: ", 0),
                0u)
          << e.what();
    }
    try {
      (void)dispatch::use_device(BackendKind::Cuda, 0);
      ADD_FAILURE() << "expected Error(Device): the device is unusable";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("is unusable: failed during a matrix"),
                std::string::npos)
          << e.what();
    }
  }
}
