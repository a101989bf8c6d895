// The device's self-test verdict in the backend choice, on a host-twin double of a device:
// auto continues on cuda-host with the reason when the device is faulty, an explicit cuda fails
// with Error(Device) naming it, a correct device is used; and the solution records the backend
// that ran, the fallback and the mismatches in the VROOM summary.

#include "routesolve/dispatch/device_fallback.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "faulty_device.hpp"
#include "random_instances.hpp"
#include "road_graph_fixture.hpp"
#include "routesolve/cuda/cuda_backend.hpp"
#include "routesolve/dispatch/matrices.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "routesolve/solve.hpp"
#include "routesolve/validator.hpp"

using namespace routesolve;
using test::Faults;
using test::ScopedTwinDevices;

TEST(DeviceFallback, AutoContinuesOnCudaHostWithTheReason) {
  const ScopedTwinDevices devices({.insertion = true});
  const dispatch::DeviceChoice choice = dispatch::use_device(BackendKind::Auto, 0);
  EXPECT_EQ(choice.kind, BackendKind::CudaHost);
  EXPECT_NE(choice.fallback.find("device 0 is unusable: self-test mismatch: insertion pricing"),
            std::string::npos)
      << choice.fallback;
  EXPECT_NE(choice.fallback.find("continued on cuda-host"), std::string::npos) << choice.fallback;
  EXPECT_EQ(dispatch::use_device(BackendKind::Auto, 0).fallback, choice.fallback);  // one verdict
  EXPECT_EQ(cuda::self_test_runs(), 1u);
}

TEST(DeviceFallback, ExplicitCudaFailsWithDeviceErrorNamingTheReason) {
  const ScopedTwinDevices devices({.route = true});
  try {
    (void)dispatch::use_device(BackendKind::Cuda, 0);
    FAIL() << "expected Error(Device)";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Device);
    EXPECT_EQ(exit_code(e.code()), 3);
    const std::string message = e.what();
    EXPECT_EQ(
        message.rfind(
            "CUDA backend requested but device 0 is unusable: self-test mismatch: route evaluation",
            0),
        0u)
        << message;
  }
  // solve() asks before it makes the backend: the same error, whatever the build.
  const auto p = test::random_instance(31, 12, {});
  SolveOptions options;
  options.backend = BackendKind::Cuda;
  try {
    (void)solve(*p, options);
    FAIL() << "expected Error(Device)";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Device);
    EXPECT_NE(std::string(e.what()).find("route evaluation"), std::string::npos) << e.what();
  }
}

TEST(DeviceFallback, ACorrectDeviceIsUsed) {
  const ScopedTwinDevices devices({});
  const dispatch::DeviceChoice choice = dispatch::use_device(BackendKind::Auto, 1);
  EXPECT_EQ(choice.kind, BackendKind::Cuda);
  EXPECT_TRUE(choice.fallback.empty()) << choice.fallback;
  EXPECT_EQ(dispatch::use_device(BackendKind::Cuda, 1).kind, BackendKind::Cuda);
}

TEST(DeviceFallback, AnAllocationFailureIsAReasonToo) {
  const ScopedTwinDevices devices({.no_memory = true});
  const dispatch::DeviceChoice choice = dispatch::use_device(BackendKind::Auto, 0);
  EXPECT_EQ(choice.kind, BackendKind::CudaHost);
  EXPECT_NE(choice.fallback.find("out of memory"), std::string::npos) << choice.fallback;
}

TEST(DeviceFallback, DeviceCheckListsEveryDeviceOrWhyThereIsNone) {
  const dispatch::DeviceReport report = dispatch::check_devices();
  if (report.devices.empty()) {
    EXPECT_EQ(report.none_reason, cuda::device_unavailable_reason());
    EXPECT_FALSE(report.none_reason.empty());
  } else {
    for (const dispatch::DeviceCheck& d : report.devices)
      EXPECT_EQ(d.line.rfind("device " + std::to_string(d.index), 0), 0u) << d.line;
  }
}

TEST(DeviceFallback, TheVroomSummaryNamesTheBackendTheFallbackAndTheMismatches) {
  const auto p = test::random_instance(32, 12, {});
  SolveOptions options;
  options.backend = BackendKind::CudaHost;
  Solution s = solve(*p, options);
  EXPECT_EQ(s.backend, "cuda-host");
  EXPECT_TRUE(s.fallback.empty());
  EXPECT_EQ(s.mismatches, 0u);
  {
    std::ostringstream text;
    io::write_vroom_solution(text, *p, s);
    const auto json = nlohmann::json::parse(text.str());
    EXPECT_EQ(json["summary"]["backend"], "cuda-host");
    EXPECT_FALSE(json["summary"].contains("fallback"));
    EXPECT_FALSE(json["summary"].contains("mismatches"));
  }
  s.fallback = "device 0 is unusable: self-test mismatch; continued on cuda-host";
  s.mismatches = 2;
  std::ostringstream text;
  io::write_vroom_solution(text, *p, s);
  const auto json = nlohmann::json::parse(text.str());
  EXPECT_EQ(json["summary"]["backend"], "cuda-host");
  EXPECT_EQ(json["summary"]["fallback"], s.fallback);
  EXPECT_EQ(json["summary"]["mismatches"], 2);
  EXPECT_EQ(json["backend"], "cuda-host");  // the top-level field stays
  const auto file =
      std::filesystem::temp_directory_path() / "routesolve_device_fallback_summary.json";
  std::ofstream(file) << text.str();
  const Solution back = io::read_vroom_solution(file, *p);
  std::filesystem::remove(file);
  EXPECT_EQ(back.fallback, s.fallback);
  EXPECT_EQ(back.mismatches, 2u);
  EXPECT_TRUE(validate(*p, back).ok());
}

TEST(DeviceFallback, TheMatrixEngineOnAFaultyDeviceFailsNamingTheReason) {
  const ScopedTwinDevices devices({.phast = true});
  RoadNetwork net;
  net.graph = test::grid_graph(6, 5, 3);
  const network::RoadRouter router(std::move(net));
  dispatch::MatrixOptions options;
  options.device.index = 2;
  try {
    (void)dispatch::make_node_engine(BackendKind::Cuda, "city.rsnet", router, options);
    FAIL() << "expected Error(Device)";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Device);
    EXPECT_NE(
        std::string(e.what()).find("device 2 is unusable: self-test mismatch: PHAST durations"),
        std::string::npos)
        << e.what();
  }
  // The host twin's engine does not ask the device.
  EXPECT_TRUE(static_cast<bool>(
      dispatch::make_node_engine(BackendKind::CudaHost, "city.rsnet", router, options)));
  EXPECT_EQ(cuda::self_test_runs(), 1u);
}

TEST(DeviceFallback, AutoFallbackNamesOnlyAPresentDevice) {
  const ScopedTwinDevices devices({.route = true});
  const std::string why = dispatch::auto_fallback(0);
  if (!cuda::device_available()) {
    EXPECT_TRUE(why.empty()) << why;  // no device: auto never wanted one, nothing fell back
    EXPECT_EQ(cuda::self_test_runs(), 0u);
  } else {
    EXPECT_NE(why.find("route evaluation"), std::string::npos) << why;
  }
}
