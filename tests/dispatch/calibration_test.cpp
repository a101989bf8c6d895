// Where `--backend auto` gets a device's rates: the self-test's measurement on a host-twin double
// of a device, and the calibration file of `routesolve device-check --calibrate` (written, read
// back, ignored for another device, refused when malformed).

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "device_rates.hpp"
#include "faulty_device.hpp"
#include "routesolve/dispatch/auto_policy.hpp"
#include "routesolve/error.hpp"

namespace routesolve::dispatch {
namespace {
namespace fs = std::filesystem;

/// ROUTESOLVE_CALIBRATION_DIR pointing at an empty folder for the scope.
class ScopedCalibrationDir {
 public:
  ScopedCalibrationDir()
      : dir_(fs::temp_directory_path() / ("routesolve-calibration-" + std::to_string(::getpid()))) {
    fs::remove_all(dir_);
    ::setenv("ROUTESOLVE_CALIBRATION_DIR", dir_.c_str(), 1);
  }
  ~ScopedCalibrationDir() {
    ::unsetenv("ROUTESOLVE_CALIBRATION_DIR");
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  [[nodiscard]] const fs::path& dir() const { return dir_; }

 private:
  fs::path dir_;
};

TEST(Calibration, TheSelfTestMeasuresTheDeviceRates) {
  const ScopedCalibrationDir dir;
  const test::ScopedTwinDevices twins({});
  const cuda::SelfTestResult verdict = cuda::device_verdict(0);
  ASSERT_TRUE(verdict.passed) << verdict.reason;
  EXPECT_TRUE(verdict.rates.measured);
  EXPECT_GT(verdict.rates.round_overhead_s, 0.0);
  EXPECT_GT(verdict.rates.device_row_s, 0.0);
  EXPECT_GT(verdict.rates.h2d_bytes_per_s, 0.0);
  EXPECT_DOUBLE_EQ(verdict.rates.fixed_s, verdict.rates.fixed_s);
  EXPECT_GT(verdict.rates.fixed_s, 0.0);
  const cuda::DeviceRates rates = device_rates(0);
  EXPECT_TRUE(rates.measured);
  EXPECT_EQ(rates.source, "self-test");
  const AutoRates model = with_device(rates);
  EXPECT_TRUE(model.device_measured);
  EXPECT_EQ(model.round_overhead_s, rates.round_overhead_s);
}

TEST(Calibration, AFailedDeviceHasNoRates) {
  const ScopedCalibrationDir dir;
  test::Faults faults;
  faults.route = true;
  const test::ScopedTwinDevices twins(faults);
  EXPECT_FALSE(cuda::device_verdict(0).passed);
  EXPECT_FALSE(device_rates(0).measured);
}

TEST(Calibration, TheFileOfTheDeviceWinsOverTheSelfTest) {
  const ScopedCalibrationDir dir;
  const test::ScopedTwinDevices twins({});
  cuda::DeviceRates written;
  written.round_overhead_s = 12e-6;
  written.device_row_s = 0.5e-9;
  written.h2d_bytes_per_s = 2.5e10;
  written.fixed_s = 0.3;
  write_calibration(calibration_file(0), "host twin double", written);
  EXPECT_EQ(calibration_file(0), dir.dir() / "device-0.calibration");
  const cuda::DeviceRates read = device_rates(0);
  EXPECT_TRUE(read.measured);
  EXPECT_EQ(read.source, calibration_file(0).string());
  EXPECT_DOUBLE_EQ(read.round_overhead_s, 12e-6);
  EXPECT_DOUBLE_EQ(read.device_row_s, 0.5e-9);
  EXPECT_DOUBLE_EQ(read.h2d_bytes_per_s, 2.5e10);
  EXPECT_DOUBLE_EQ(read.fixed_s, 0.3);
  // Another device's file is not this device's measurement.
  write_calibration(calibration_file(0), "NVIDIA H200", written);
  EXPECT_EQ(device_rates(0).source, "self-test");
  EXPECT_FALSE(read_calibration(dir.dir() / "absent.calibration", "x").has_value());
}

TEST(Calibration, AMalformedFileIsRefusedNamingTheLine) {
  const ScopedCalibrationDir dir;
  fs::create_directories(dir.dir());
  const fs::path file = dir.dir() / "bad.calibration";
  std::ofstream(file) << "device D\nround_overhead_s fast\n";
  try {
    (void)read_calibration(file, "D");
    FAIL() << "no refusal";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidInput);
    EXPECT_NE(std::string(e.what()).find("bad.calibration:2"), std::string::npos) << e.what();
  }
  std::ofstream(file) << "device D\nround_overhead_s 1e-5\n";  // fields missing
  EXPECT_THROW((void)read_calibration(file, "D"), Error);
}

}  // namespace
}  // namespace routesolve::dispatch
