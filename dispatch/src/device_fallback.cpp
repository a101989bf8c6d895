// use_device(): the self-test verdict applied to a backend choice (device_fallback.hpp).

#include "routesolve/dispatch/device_fallback.hpp"

#include "routesolve/cuda/cuda_backend.hpp"
#include "routesolve/cuda/self_test.hpp"
#include "routesolve/error.hpp"

namespace routesolve::dispatch {

DeviceChoice use_device(BackendKind requested, int index) {
  const cuda::SelfTestResult verdict = cuda::device_verdict(index);
  if (verdict.passed) return {BackendKind::Cuda, {}};
  const std::string why = "device " + std::to_string(index) + " is unusable: " + verdict.reason;
  if (requested != BackendKind::Auto) throw Error(ErrorCode::Device, "CUDA backend requested but " + why);
  return {BackendKind::CudaHost, why + "; continued on cuda-host"};
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
