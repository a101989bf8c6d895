// Stand-in for the device runtime in builds without nvcc (ROUTESOLVE_CUDA=OFF or no CUDA
// toolkit): no devices, a reason that says so, and device evaluation that throws Error(Device).

#include <memory>
#include <string>
#include <vector>

#include "host_pin.hpp"
#include "routesolve/cuda/cuda_backend.hpp"
#include "routesolve/cuda/route_eval.hpp"
#include "routesolve/error.hpp"

namespace routesolve::cuda {
namespace {

constexpr const char* kReason =
    "routesolve was built without CUDA (ROUTESOLVE_CUDA=OFF or no nvcc)";

[[noreturn]] void no_device() {
  throw Error(ErrorCode::Device, std::string("CUDA device evaluation requested but ") + kReason);
}

}  // namespace

bool built_with_cuda() noexcept { return false; }
std::vector<DeviceInfo> devices() { return {}; }
bool device_available() noexcept { return false; }
std::string device_unavailable_reason() { return kReason; }

struct DeviceRouteEvaluator::Impl {};

DeviceRouteEvaluator::DeviceRouteEvaluator(const DeviceEvalOptions& /*options*/) { no_device(); }
DeviceRouteEvaluator::~DeviceRouteEvaluator() = default;
DeviceRouteEvaluator::DeviceRouteEvaluator(DeviceRouteEvaluator&&) noexcept = default;
DeviceRouteEvaluator& DeviceRouteEvaluator::operator=(DeviceRouteEvaluator&&) noexcept = default;

std::vector<RouteTotals> DeviceRouteEvaluator::evaluate(const RouteBatch& /*batch*/,
                                                        DeviceEvalTimings* /*timings*/) {
  no_device();
}

std::vector<RouteTotals> evaluate_routes_device(const RouteBatch& batch,
                                                const DeviceEvalOptions& options,
                                                DeviceEvalTimings* timings) {
  validate(batch);  // input errors before device errors, as in the CUDA build
  DeviceRouteEvaluator evaluator(options);
  return evaluator.evaluate(batch, timings);
}

}  // namespace routesolve::cuda

namespace routesolve::cuda::detail {

std::shared_ptr<void> pin_matrices(const Problem& /*problem*/) { return {}; }

double time_pinned_copy(int /*device*/, std::size_t /*bytes*/) {
  throw Error(ErrorCode::Device, std::string("a pinned copy was timed but ") + kReason);
}

}  // namespace routesolve::cuda::detail
