#pragma once
// The device self-test and the process's verdict on each device. Plain C++: no CUDA types.
//
// Before a process trusts a device, it runs small random problems through every kernel family
// a solve or a matrix uses, with pinned and with naive transfers (PHAST seed, level sweeps and
// gather on a random graph and its hierarchy, in three source tiles through the double buffer;
// the batched route evaluation, routes longer than a warp among them; the search's batched
// insertion pricing, jobs and shipments, three calls on one engine whose tour store is reused
// and then grows) and compares every result exactly with the host twin. A mismatch, a launch
// error or an allocation failure makes the device unusable for the rest of the process.
//
// The device side is an interface (SelfTestDevice) so that the comparison runs without a GPU
// too: tests inject a device backed by the host twin, faulty on purpose or not. A cuda solve
// opens its device through the same interface (open_device), so that it runs the engines the
// self-test checked, and tests inject faults into whole solves the same way.

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "routesolve/contraction_hierarchy.hpp"
#include "routesolve/cuda/route_eval.hpp"
#include "routesolve/road_graph.hpp"

namespace routesolve::cuda {

namespace insertion {
class BatchedEngine;
}
}  // namespace routesolve::cuda
namespace routesolve::search {
class InsertionEngine;
}
namespace routesolve::cuda {

/// A device's rates, as the `--backend auto` cost model (dispatch/auto_policy.hpp) reads them:
/// measured on the device by its self-test, or read from the calibration file that
/// `routesolve device-check --calibrate` wrote for it. Never constants.
struct DeviceRates {
  bool measured = false;          ///< false: nothing measured (auto does not pick the device)
  double round_overhead_s = 0.0;  ///< one insertion-pricing call of one row: launches, copies, sync
  double device_row_s = 0.0;      ///< each further position priced in the same call
  double h2d_bytes_per_s = 0.0;   ///< one host-to-device copy from pinned memory
  double fixed_s = 0.0;           ///< opening the device: context, streams, first buffers
  std::string source;             ///< "self-test", or the calibration file's path
};

/// One device as the self-test drives it: each kernel family on its own inputs.
class SelfTestDevice {
 public:
  virtual ~SelfTestDevice() = default;
  /// Its name for the verdict line ("NVIDIA H200", ...).
  [[nodiscard]] virtual std::string name() const = 0;
  /// PHAST seed, sweeps and gather: durations and distances, sources x targets, in tiles of 32
  /// sources (so that more sources take several tiles), its data moved as `transfer` says.
  virtual NodeMatrices phast(const RoadGraph& graph, const ContractionHierarchy& ch,
                             const std::vector<NodeId>& sources, const std::vector<NodeId>& targets,
                             TransferMode transfer) = 0;
  /// The batched route evaluation, its data moved as `transfer` says.
  virtual std::vector<RouteTotals> evaluate_routes(const RouteBatch& batch,
                                                   TransferMode transfer) = 0;
  /// The search driver's batched insertion engine on the device, its data moved as `transfer`
  /// says, its tour store at least `min_store` bytes once allocated (0: the engine's default).
  virtual std::unique_ptr<insertion::BatchedEngine> insertion_engine(TransferMode transfer,
                                                                     std::size_t min_store) = 0;
  /// Seconds of one host-to-device copy of `bytes` from pinned memory, copy completed.
  virtual double copy_seconds(std::size_t bytes) = 0;
};

/// The real CUDA device `index` (its engines are made on first use; they throw Error(Device)
/// naming the reason where the device is unusable or the build has no CUDA).
std::unique_ptr<SelfTestDevice> make_cuda_self_test_device(int index);

struct SelfTestResult {
  int index = 0;  ///< the device index
  bool passed = false;
  std::string device;    ///< the device's name (empty when it could not be opened)
  std::string reason;    ///< why it failed: the first check that did not match, or the error
  double seconds = 0.0;  ///< time the self-test took
  DeviceRates rates;     ///< measured after the checks passed (rates.measured)
};

/// Runs every check on `device` against the host twin, then, when all passed, measures its rates
/// (measure_rates with `repetitions`; fixed_s is the self-test's own time, which opened the
/// device). Never throws: an exception of the device becomes the reason. `seed` picks the
/// random problems.
SelfTestResult run_self_test(SelfTestDevice& device, int index = 0, unsigned long long seed = 1,
                             int repetitions = 3);

/// The device's insertion-pricing rates on a random problem: the fastest of `repetitions`
/// calls of one request (round_overhead_s) and of a batch of many (the slope: device_row_s),
/// and one pinned copy of 8 MiB (h2d_bytes_per_s). fixed_s is left 0 (the caller knows it).
DeviceRates measure_rates(SelfTestDevice& device, int repetitions, unsigned long long seed = 7);

/// The process's verdict on device `index`: the self-test runs the first time a device index is
/// asked for (once, thread-safe: other callers wait for it) and later calls return the same
/// verdict. An index no device has fails with the reason.
SelfTestResult device_verdict(int index);

/// Marks device `index` unusable for the rest of the process (a result that did not check out
/// during a solve); the first reason stays.
void mark_device_unusable(int index, const std::string& reason);

/// How device_verdict opens a device; the default opens the real CUDA device.
using SelfTestDeviceFactory = std::function<std::unique_ptr<SelfTestDevice>(int index)>;

/// Replaces the factory (an empty one restores the real devices) and forgets every verdict.
/// For tests, which inject a device backed by the host twin.
void set_self_test_device_factory(SelfTestDeviceFactory factory);

/// Device `index` as this process opens it: the real CUDA device, or the device a test injected
/// (set_self_test_device_factory). Error(Device) naming the reason when it cannot be opened.
std::unique_ptr<SelfTestDevice> open_device(int index);

/// True while a test's factory replaces the real devices.
bool devices_replaced();

/// Self-test runs of this process so far (each device index once).
std::size_t self_test_runs();

/// "device N (NAME): passed in X ms" or "device N (NAME): FAILED: REASON".
std::string format_verdict(const SelfTestResult& result);

}  // namespace routesolve::cuda
