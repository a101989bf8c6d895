// use_device(): the self-test verdict applied to a backend choice (device_fallback.hpp).

#include "routesolve/dispatch/device_fallback.hpp"

#include "routesolve/cuda/cuda_backend.hpp"
#include "routesolve/cuda/search_backend.hpp"
#include "routesolve/cuda/self_test.hpp"
#include "routesolve/error.hpp"
#include "routesolve/timing.hpp"

namespace routesolve::dispatch {

DeviceChoice use_device(BackendKind requested, int index) {
  const cuda::SelfTestResult verdict = cuda::device_verdict(index);
  if (verdict.passed) return {BackendKind::Cuda, {}};
  const std::string why = "device " + std::to_string(index) + " is unusable: " + verdict.reason;
  if (requested != BackendKind::Auto)
    throw Error(ErrorCode::Device, "CUDA backend requested but " + why);
  return {BackendKind::CudaHost, why + "; continued on cuda-host"};
}

Solution solve_on_device(const Problem& problem, const SolveOptions& options) {
  const auto t0 = Clock::now();
  const int index = options.device.index;
  const bool automatic = options.backend == BackendKind::Auto;
  const DeviceChoice choice = use_device(automatic ? BackendKind::Auto : BackendKind::Cuda, index);
  std::string fallback = choice.fallback;
  Solution solution;
  if (choice.kind == BackendKind::Cuda) {
    try {
      solution = cuda::make_cuda_backend()->solve(problem, options);
      if (solution.backend.empty()) solution.backend = "cuda";
      // A fault contained mid-solve or a result that did not check out: not used again.
      if (!solution.fallback.empty()) cuda::mark_device_unusable(index, solution.fallback);
      return solution;
    } catch (const Error& e) {
      if (e.code() != ErrorCode::Device && e.code() != ErrorCode::OutOfMemory) throw;
      cuda::mark_device_unusable(index, std::string("failed during a solve: ") + e.what());
      const std::string why =
          "device " + std::to_string(index) + " failed during the solve: " + e.what();
      if (!automatic) throw Error(ErrorCode::Device, "CUDA backend requested but " + why);
      fallback = why + "; continued on cuda-host";
    }
  }
  // Nothing of the search was kept (the device failed before it, or auto did not get it): the
  // host twin from the start, with the time left.
  SolveOptions rest = options;
  rest.time_used_s += seconds_since(t0);
  solution = cuda::make_cuda_host_backend()->solve(problem, rest);
  if (solution.backend.empty()) solution.backend = "cuda-host";
  solution.fallback = fallback;
  return solution;
}

std::string auto_fallback(int index) {
  if (!cuda::device_available()) return {};
  return use_device(BackendKind::Auto, index).fallback;
}

DeviceReport check_devices() {
  DeviceReport report;
  for (const cuda::DeviceInfo& d : cuda::devices()) {
    const cuda::SelfTestResult verdict = cuda::device_verdict(d.index);
    report.devices.push_back({d.index, verdict.passed, cuda::format_verdict(verdict)});
  }
  if (report.devices.empty()) report.none_reason = cuda::device_unavailable_reason();
  return report;
}

}  // namespace routesolve::dispatch
