#pragma once
// The calibration files' contents and the rates auto uses (routesolve/dispatch/calibration.hpp),
// with the CUDA backend's DeviceRates: internal to the dispatch layer and its tests.

#include <filesystem>
#include <optional>
#include <string>

#include "routesolve/cuda/self_test.hpp"
#include "routesolve/dispatch/calibration.hpp"

namespace routesolve::dispatch {

/// Writes `rates` of the device named `device` (creates the folder). Throws invalid_input
/// naming the file when it cannot be written.
void write_calibration(const std::filesystem::path& file, const std::string& device,
                       const cuda::DeviceRates& rates);
/// The rates in `file` when it exists and was written for `device` (source = the path);
/// nullopt otherwise. Throws invalid_input naming the file and line when it is malformed.
std::optional<cuda::DeviceRates> read_calibration(const std::filesystem::path& file,
                                                  const std::string& device);

/// The rates auto uses for device `index`: its calibration file in calibration_dir(dir), else its
/// self-test's measurement (the self-test runs now when it has not), else unmeasured (also for a
/// device that failed its self-test).
cuda::DeviceRates device_rates(int index, const std::string& dir = "");

}  // namespace routesolve::dispatch
