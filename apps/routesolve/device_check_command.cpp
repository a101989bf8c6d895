// `routesolve device-check`: runs the self-test of every CUDA device now (small random problems
// through every kernel family, compared exactly with the host twin) and prints one line per
// device. With --calibrate, also measures each passing device's rates for `--backend auto` and
// writes its calibration file (dispatch/calibration.hpp). Exit status: 0 when every device
// passed, 1 when one failed, 3 when there is none.

#include <fmt/core.h>

#include <string>

#include "cli_common.hpp"
#include "routesolve/dispatch/calibration.hpp"
#include "routesolve/dispatch/device_fallback.hpp"
#include "routesolve/error.hpp"

namespace routesolve::app {
namespace {

int run_device_check(bool calibrate, const std::string& dir) {
  const dispatch::DeviceReport report = dispatch::check_devices();
  if (report.devices.empty()) {
    fmt::print("no CUDA device: {}\n", report.none_reason);
    return exit_code(ErrorCode::Device);
  }
  bool all = true;
  for (const dispatch::DeviceCheck& d : report.devices) {
    fmt::print("{}\n", d.line);
    all = all && d.passed;
  }
  if (calibrate)
    for (const std::string& line : dispatch::calibrate_devices(20, dir)) fmt::print("{}\n", line);
  return all ? 0 : 1;
}

}  // namespace

void add_device_check_command(CLI::App& app, int* exit_status) {
  auto* cmd =
      app.add_subcommand("device-check",
                         "Self-test every CUDA device against the host twin; one line per device "
                         "(exit 0: all passed, 1: one failed, 3: no device)");
  static bool calibrate = false;
  static std::string dir;
  cmd->add_flag(
      "--calibrate", calibrate,
      "Also measure each passing device's rates for --backend auto and write its calibration file "
      "in --calibration-dir");
  cmd->add_option("--calibration-dir", dir,
                  "Folder of the calibration files (default: $ROUTESOLVE_CALIBRATION_DIR, else "
                  "~/.config/routesolve)");
  cmd->callback([exit_status] { *exit_status = run_device_check(calibrate, dir); });
}

}  // namespace routesolve::app
