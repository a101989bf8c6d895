#pragma once
// Whether a device the backend choice wants may be used: the process's self-test verdict on it
// (routesolve/cuda/self_test.hpp). `auto` continues on cuda-host when the device is unusable,
// and says why; an explicit `cuda` fails instead.

#include <string>
#include <vector>

#include "routesolve/backend.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"

namespace routesolve::dispatch {

struct DeviceChoice {
  BackendKind kind = BackendKind::Cuda;  ///< Cuda, or CudaHost where auto fell back
  std::string fallback;                  ///< why it fell back; empty when it did not
};

/// `requested`: Auto (the auto rule picked the device) or Cuda (asked for by name). Runs the
/// device's self-test the first time the process asks about it. Cuda when device `index`
/// passed; otherwise CudaHost with the reason for Auto, and Error(Device) naming the reason
/// for Cuda ("CUDA backend requested but device N ...").
DeviceChoice use_device(BackendKind requested, int index);

/// The cuda backend on options.device.index as solve() runs it once the backend is cuda
/// (options.backend Cuda, or Auto when the cost model picked the device). The device only after
/// its self-test (use_device). Any device exception during the solve (launch error, illegal
/// address, allocation failure), or a device result that did not check out, marks the device
/// unusable for the process, so that no later solve or matrix of the process touches it. Under
/// Auto the solve goes on on cuda-host: from where the search was when the fault came during
/// the search, else from the start with the time left, the reason in Solution::fallback. Under
/// Cuda a fault is Error(Device) naming the device and the reason (exit 3).
Solution solve_on_device(const Problem& problem, const SolveOptions& options);

/// Why `auto` does not use device `index` although the runtime lists a device (it failed its
/// self-test, or a result of it did not check out); empty when auto may use it or there is none.
/// Asks the process's verdict (the self-test runs now when it has not run yet).
std::string auto_fallback(int index);

/// One device's self-test verdict, for `routesolve device-check`.
struct DeviceCheck {
  int index = 0;
  bool passed = false;
  std::string line;  ///< "device N (NAME): passed in X ms" or "device N (NAME): FAILED: REASON"
};

struct DeviceReport {
  std::vector<DeviceCheck> devices;  ///< every device the CUDA runtime lists
  std::string none_reason;           ///< why there is none, when devices is empty
};

/// The verdict of every device (the self-test runs now for each one not tested yet).
DeviceReport check_devices();

}  // namespace routesolve::dispatch
