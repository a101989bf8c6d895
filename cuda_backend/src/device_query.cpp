// Device query (CUDA builds). Never throws and never aborts: a missing device or driver is an
// answer ("no device, because ..."), not an error. The answer is computed once per process.

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "device_runtime.hpp"
#include "host_pin.hpp"
#include "routesolve/cuda/cuda_backend.hpp"

namespace routesolve::cuda {
namespace {

// Device code is built for sm_80 (SASS) and sm_90 (SASS + PTX): older GPUs cannot run it.
constexpr int kMinComputeMajor = 8;

struct Query {
  std::vector<DeviceInfo> usable;
  std::string reason;  // empty when a device is usable
};

std::string describe(cudaError_t status) {
  return std::string(cudaGetErrorString(status)) + " (" + cudaGetErrorName(status) + ")";
}

Query run_query() {
  Query q;
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    (void)cudaGetLastError();
    q.reason = describe(status);
    return q;
  }
  if (count == 0) {
    q.reason = "no CUDA-capable device is detected";
    return q;
  }
  std::string rejected;
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp prop{};
    const cudaError_t s = cudaGetDeviceProperties(&prop, i);
    if (s != cudaSuccess) {
      (void)cudaGetLastError();
      rejected +=
          (rejected.empty() ? "" : "; ") + ("device " + std::to_string(i) + ": " + describe(s));
      continue;
    }
    if (prop.major < kMinComputeMajor) {
      rejected += (rejected.empty() ? "" : "; ") +
                  ("device " + std::to_string(i) + " (" + prop.name + ") has compute capability " +
                   std::to_string(prop.major) + "." + std::to_string(prop.minor) +
                   ", routesolve needs 8.0 or newer");
      continue;
    }
    DeviceInfo info;
    info.index = i;
    info.name = prop.name;
    info.compute_major = prop.major;
    info.compute_minor = prop.minor;
    info.total_memory = prop.totalGlobalMem;
    info.multiprocessors = prop.multiProcessorCount;
    q.usable.push_back(std::move(info));
  }
  if (q.usable.empty()) q.reason = rejected;
  return q;
}

const Query* query() noexcept {
  try {
    static const Query q = run_query();
    return &q;
  } catch (...) {  // allocation failure while building the answer
    return nullptr;
  }
}

}  // namespace

bool built_with_cuda() noexcept { return true; }

std::vector<DeviceInfo> devices() {
  const Query* q = query();
  return q != nullptr ? q->usable : std::vector<DeviceInfo>{};
}

bool device_available() noexcept {
  const Query* q = query();
  return q != nullptr && !q->usable.empty();
}

std::string device_unavailable_reason() {
  const Query* q = query();
  return q != nullptr ? q->reason : "the CUDA device query failed (out of host memory)";
}

}  // namespace routesolve::cuda

namespace routesolve::cuda::detail {

std::shared_ptr<void> pin_matrices(const Problem& problem) {
  std::set<const void*> seen;
  auto pins = std::make_shared<std::vector<HostRegistration>>();
  for (std::size_t t = 0; t < problem.travel_count(); ++t) {
    const TravelView v = problem.travel_by_index(t);
    for (const TravelTable& m : {v.durations, v.distances, v.costs})
      if (m != nullptr && seen.insert(m.data()).second)
        pins->emplace_back(m.data(), m.storage_bytes(v.n));
  }
  return pins;
}

double time_pinned_copy(int device, std::size_t bytes) {
  const DeviceGuard guard(device);
  const Stream stream;
  Event start, stop;
  const DeviceBuffer<std::byte> to(bytes, stream);
  const PinnedBuffer<std::byte> from(bytes);
  start.record(stream);
  RS_CUDA_CHECK(
      cudaMemcpyAsync(to.data(), from.data(), bytes, cudaMemcpyHostToDevice, stream.get()));
  stop.record(stream);
  stream.synchronize();
  return Event::seconds_between(start, stop);
}

}  // namespace routesolve::cuda::detail
