#pragma once
// Test doubles of a device: the host twin behind the self-test's device interface and the
// search's insertion engine, each able to get one result wrong on purpose (a flipped PHAST
// entry, route total or insertion choice), to fail allocating, or, once a test arms it (after
// the self-test), to throw what a faulty device throws (a launch error, an illegal address, an
// allocation failure) during a solve; and a count of the device work they were asked for.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "insertion/insertion_engines.hpp"
#include "routesolve/cuda/matrix_engine.hpp"
#include "routesolve/cuda/self_test.hpp"
#include "routesolve/error.hpp"

namespace routesolve::test {

/// A device exception, as the CUDA runtime checks report it.
enum class Throw { None, LaunchError, IllegalAddress, NoMemory };

inline Error device_exception(Throw kind) {
  switch (kind) {
    case Throw::LaunchError:
      return Error(ErrorCode::Device,
                   "insertion.cu:57: cudaLaunchKernel: unspecified launch failure (test double)");
    case Throw::IllegalAddress:
      return Error(ErrorCode::Device,
                   "device_insertion.cpp:299: cudaStreamSynchronize: an illegal memory access was "
                   "encountered "
                   "(test double)");
    case Throw::NoMemory:
    case Throw::None:
      break;
  }
  return Error(ErrorCode::OutOfMemory,
               "the cuda insertion engine needs 80 GiB of device memory, 2 GiB free (test double)");
}

/// The device work the doubles of one ScopedTwinDevices were asked for, and the switch that arms
/// their exceptions (off during the self-test, which must pass).
struct DeviceUse {
  std::atomic<bool> armed{false};
  std::atomic<std::uint64_t> opened{0};        ///< devices opened (self-test, solves)
  std::atomic<std::uint64_t> engines{0};       ///< insertion engines made
  std::atomic<std::uint64_t> price_calls{0};   ///< insertion engine calls
  std::atomic<std::uint64_t> route_checks{0};  ///< route evaluations
};

struct Faults {
  bool phast = false;             ///< one PHAST duration off by one
  bool route = false;             ///< one route's distance off by one
  bool no_memory = false;         ///< the insertion engine cannot be allocated
  bool insertion = false;         ///< one insertion choice's delta off by one
  bool missed = false;            ///< one found insertion reported as not found
  std::uint64_t flip_after = 0;   ///< the two above from this call of an insertion engine on
  Throw in_search = Throw::None;  ///< thrown by the insertion engine's throw_at-th call once armed
  std::uint64_t throw_at = 0;     ///< 0: the first call once armed (the model's upload)
  Throw in_check = Throw::None;   ///< thrown by the route evaluation once armed
  Throw on_open = Throw::None;    ///< thrown when the device is opened once armed
};

/// The insertion engine's host twin, with the faults asked for (from its `after`-th call on).
class FaultyInsertion final : public cuda::insertion::BatchedEngine {
 public:
  explicit FaultyInsertion(Faults faults, std::uint64_t after = 0,
                           std::shared_ptr<DeviceUse> use = nullptr)
      : twin_(cuda::insertion::make_host_engine(1)),
        faults_(faults),
        after_(after),
        use_(std::move(use)) {
    if (use_) ++use_->engines;
  }
  [[nodiscard]] std::string name() const override { return "faulty insertion twin"; }
  [[nodiscard]] const cuda::insertion::InsertionStats& stats() const noexcept override {
    return twin_->stats();
  }
  void price(std::span<const search::InsertionRequest> requests,
             std::span<search::InsertionChoice> out) override {
    if (use_) {
      ++use_->price_calls;
      if (use_->armed && faults_.in_search != Throw::None && armed_calls_++ == faults_.throw_at)
        throw device_exception(faults_.in_search);
    }
    twin_->price(requests, out);
    if (calls_++ < after_) return;
    for (search::InsertionChoice& c : out) {
      if (!c.found()) continue;
      if (faults_.insertion) {
        c.delta -= 1;  // priced one better than it is
        ++flipped;
        return;
      }
      if (faults_.missed) {
        c = search::InsertionChoice{};
        ++flipped;
        return;
      }
    }
  }

  std::uint64_t flipped = 0;  ///< results made wrong so far

 private:
  std::unique_ptr<cuda::insertion::BatchedEngine> twin_;
  Faults faults_;
  std::uint64_t after_;
  std::shared_ptr<DeviceUse> use_;
  std::uint64_t calls_ = 0, armed_calls_ = 0;
};

/// The host twin as a self-test device.
class TwinDevice final : public cuda::SelfTestDevice {
 public:
  explicit TwinDevice(Faults faults = {}, std::shared_ptr<DeviceUse> use = nullptr)
      : faults_(faults), use_(std::move(use)) {
    if (!use_) return;
    ++use_->opened;
    if (use_->armed && faults_.on_open != Throw::None) throw device_exception(faults_.on_open);
  }
  [[nodiscard]] std::string name() const override { return "host twin double"; }
  NodeMatrices phast(const RoadGraph& graph, const ContractionHierarchy& ch,
                     const std::vector<NodeId>& sources, const std::vector<NodeId>& targets,
                     TransferMode) override {
    cuda::PhastOptions options;
    options.threads = 1;
    options.tile_width = 8;  // another tiling than the self-test's reference: same results
    cuda::PhastMatrixEngine engine(graph, ch, options);
    NodeMatrices m = engine.compute(sources, targets);
    if (faults_.phast && !m.durations.empty()) m.durations[m.durations.size() / 2] += 1;
    return m;
  }
  std::vector<cuda::RouteTotals> evaluate_routes(const cuda::RouteBatch& batch,
                                                 TransferMode) override {
    if (use_) {
      ++use_->route_checks;
      if (use_->armed && faults_.in_check != Throw::None) throw device_exception(faults_.in_check);
    }
    std::vector<cuda::RouteTotals> out = cuda::evaluate_routes_host(batch);
    if (faults_.route && !out.empty()) out.back().distance += 1;
    return out;
  }
  std::unique_ptr<cuda::insertion::BatchedEngine> insertion_engine(TransferMode,
                                                                   std::size_t) override {
    if (faults_.no_memory)
      throw Error(ErrorCode::OutOfMemory, "cudaMallocAsync: out of memory (test double)");
    return std::make_unique<FaultyInsertion>(faults_, faults_.flip_after, use_);
  }
  /// A host memcpy stands in for the pinned copy.
  double copy_seconds(std::size_t bytes) override {
    std::vector<std::byte> from(bytes, std::byte{1}), to(bytes);
    const auto t0 = std::chrono::steady_clock::now();
    std::memcpy(to.data(), from.data(), bytes);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return to[bytes / 2] == std::byte{1} ? s : 0.0;
  }

 private:
  Faults faults_;
  std::shared_ptr<DeviceUse> use_;
};

/// Injects twin devices with `faults` into the process's verdicts for the scope, then restores
/// the real devices (every verdict is forgotten both times).
class ScopedTwinDevices {
 public:
  explicit ScopedTwinDevices(Faults faults, std::shared_ptr<DeviceUse> use = nullptr) {
    cuda::set_self_test_device_factory(
        [faults, use](int) { return std::make_unique<TwinDevice>(faults, use); });
  }
  ~ScopedTwinDevices() { cuda::set_self_test_device_factory({}); }
  ScopedTwinDevices(const ScopedTwinDevices&) = delete;
  ScopedTwinDevices& operator=(const ScopedTwinDevices&) = delete;
};

}  // namespace routesolve::test
