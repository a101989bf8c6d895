#pragma once
// Where `--backend auto` gets a device's rates (auto_policy.hpp): the calibration file that
// `routesolve device-check --calibrate` wrote for that device, else the rates its self-test
// measured in this process (routesolve/cuda/self_test.hpp). With neither, the rates are
// unmeasured and auto does not pick the device.
//
// The file, one per device index, in calibration_dir(): "device-N.calibration", lines of
// "key value" ('#' starts a comment):
//   device NVIDIA H200           the device's name: a file of another device is ignored
//   round_overhead_s 3.2e-05     and the other DeviceRates fields, in seconds or bytes/s
//   device_row_s 1.1e-10
//   h2d_bytes_per_s 2.1e+10
//   fixed_s 0.31

#include <filesystem>
#include <string>
#include <vector>

namespace routesolve::dispatch {

/// `given` (DeviceOptions::calibration_dir) when not empty; else the documented default:
/// $ROUTESOLVE_CALIBRATION_DIR, else $XDG_CONFIG_HOME/routesolve, else $HOME/.config/routesolve,
/// else ./.routesolve.
std::filesystem::path calibration_dir(const std::string& given = "");
/// calibration_dir(dir) / "device-N.calibration".
std::filesystem::path calibration_file(int index, const std::string& dir = "");

/// `routesolve device-check --calibrate`: measures every device that passes its self-test with
/// `repetitions` calls per figure and writes its file in calibration_dir(dir). One line per device.
std::vector<std::string> calibrate_devices(int repetitions = 20, const std::string& dir = "");

}  // namespace routesolve::dispatch
