// Device path of the batched route evaluation: transfers, launch and timing around the kernel of
// route_eval.cu. CUDA builds only (the stub in device_stub.cpp stands in otherwise).
//
// Pinned mode: the small arrays (matrix table, CSR arrays) are packed into one pinned staging
// buffer laid out like the front of the one device buffer and moved by a single cudaMemcpyAsync;
// each matrix is copied straight from the caller's memory (no host copy of it: the cuda backend
// pins the problem's matrices for the solve), on the evaluator's non-blocking stream; the
// results come back through pinned memory. Staging and device buffer grow together
// (PairedBuffer: a failed growth leaves both as they were). Naive mode: one allocation and one
// synchronous cudaMemcpy per array from pageable memory, kernel included, on the legacy default
// stream, as code written without the transfer in mind does. Copies and kernel are timed with
// events on the stream they run on.

#include <chrono>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "device_runtime.hpp"
#include "route_eval.cuh"
#include "route_eval_launch.hpp"
#include "routesolve/cuda/cuda_backend.hpp"
#include "routesolve/cuda/route_eval.hpp"
#include "routesolve/error.hpp"
#include "routesolve/timing.hpp"

namespace routesolve::cuda {
namespace {

using detail::DeviceBuffer;
using detail::DeviceGuard;
using detail::DeviceSpan;
using detail::Event;
using detail::RouteEvalView;
using detail::Stream;

constexpr std::size_t kAlign = 256;

std::size_t align_up(std::size_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; }

/// Byte offsets of every array inside the one staging / device input buffer.
struct Layout {
  struct Matrices {
    std::size_t durations = 0, distances = 0, costs = 0;
    bool has_distances = false;
  };
  /// The small arrays lie in [0, small): what the staging buffer holds; the matrices follow.
  std::size_t table = 0, offsets = 0, visits = 0, travel = 0, start = 0, end = 0, small = 0,
              total = 0;
  std::vector<Matrices> matrices;

  explicit Layout(const RouteBatch& batch) {
    std::size_t at = 0;
    const auto place = [&at](std::size_t bytes) {
      const std::size_t here = at;
      at = align_up(at + bytes);
      return here;
    };
    table = place(batch.travel.size() * sizeof(TravelView));
    offsets = place(batch.route_offsets.size() * sizeof(std::uint32_t));
    visits = place(batch.visits.size() * sizeof(std::uint32_t));
    travel = place(batch.route_travel.size() * sizeof(std::uint32_t));
    start = place(batch.route_start.size() * sizeof(std::int32_t));
    end = place(batch.route_end.size() * sizeof(std::int32_t));
    small = at;
    for (const TravelView& m : batch.travel) {
      // 32- or 64-bit entries as the table holds them, or the points of a computed table.
      Matrices placed;
      placed.durations = place(m.durations.storage_bytes(m.n));
      placed.has_distances = m.distances != nullptr;
      if (placed.has_distances) placed.distances = place(m.distances.storage_bytes(m.n));
      placed.costs = place(m.costs.storage_bytes(m.n));
      matrices.push_back(placed);
    }
    total = at;
  }
};

template <typename T>
DeviceSpan<const T> span_at(const std::byte* base, std::size_t offset, std::size_t count) {
  return {reinterpret_cast<const T*>(base + offset), count};
}

template <typename T>
void put(std::byte* base, std::size_t offset, const T* src, std::size_t count) {
  if (count > 0) std::memcpy(base + offset, src, count * sizeof(T));
}

int checked_device(int device) {
  const std::vector<DeviceInfo> usable = devices();
  if (usable.empty())
    throw Error(ErrorCode::Device,
                "CUDA device evaluation requested but " + device_unavailable_reason());
  for (const DeviceInfo& info : usable)
    if (info.index == device) return device;
  throw Error(ErrorCode::Device, "CUDA device " + std::to_string(device) + " is not usable (" +
                                     std::to_string(usable.size()) + " usable devices)");
}

}  // namespace

struct DeviceRouteEvaluator::Impl {
  /// Constructed under a DeviceGuard of `d` (the stream and events are its own).
  Impl(const DeviceEvalOptions& o, int d)
      : options(o),
        device(d),
        stream(o.transfer == TransferMode::Naive ? Stream::legacy() : Stream()) {}

  std::vector<RouteTotals> evaluate(const RouteBatch& batch, DeviceEvalTimings& timings);
  void evaluate_pinned(const RouteBatch& batch, DeviceEvalTimings& timings,
                       std::vector<RouteTotals>& out);
  void evaluate_naive(const RouteBatch& batch, DeviceEvalTimings& timings,
                      std::vector<RouteTotals>& out);

  DeviceEvalOptions options;
  int device;
  Stream stream;  // declared before the buffers: they are freed on it
  Event start, copied, computed, done;
  // Pinned mode workspace, grown to the largest batch seen: the inputs (staging: the small
  // arrays only) and the results.
  detail::CudaBufferAllocator allocator{true};
  detail::PairedBuffer inputs{allocator};
  detail::PairedBuffer results{allocator};
};

std::vector<RouteTotals> DeviceRouteEvaluator::Impl::evaluate(const RouteBatch& batch,
                                                              DeviceEvalTimings& timings) {
  validate(batch);
  timings = DeviceEvalTimings{};
  const std::size_t routes = batch.size();
  if (routes == 0) return {};
  const DeviceGuard guard(device);

  std::vector<RouteTotals> totals(routes);
  if (options.transfer == TransferMode::Pinned) {
    evaluate_pinned(batch, timings, totals);
  } else {
    evaluate_naive(batch, timings, totals);
  }
  timings.h2d = Event::seconds_between(start, copied);
  timings.kernel = Event::seconds_between(copied, computed);
  timings.d2h = Event::seconds_between(computed, done);
  return totals;
}

void DeviceRouteEvaluator::Impl::evaluate_pinned(const RouteBatch& batch,
                                                 DeviceEvalTimings& timings,
                                                 std::vector<RouteTotals>& out) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t routes = batch.size();
  const Layout layout(batch);
  const std::size_t result_bytes = routes * sizeof(RouteTotals);
  if (inputs.device_capacity() < layout.total || results.device_capacity() < result_bytes)
    detail::check_device_memory("the route evaluation", device,
                                {layout.total + result_bytes, layout.small + result_bytes});
  inputs.reserve(layout.small, layout.total);
  results.reserve(result_bytes);

  // Pack the small arrays. The matrix table holds device addresses: the layout is the device
  // buffer's.
  std::byte* host = inputs.host();
  const std::byte* dev = inputs.device();
  std::vector<TravelView> table(batch.travel.size());
  for (std::size_t t = 0; t < batch.travel.size(); ++t) {
    const TravelView& m = batch.travel[t];
    const Layout::Matrices& at = layout.matrices[t];
    table[t] =
        TravelView{m.n, m.durations.moved_to(dev + at.durations),
                   at.has_distances ? m.distances.moved_to(dev + at.distances) : TravelTable(),
                   m.costs.moved_to(dev + at.costs)};
  }
  put(host, layout.table, table.data(), table.size());
  put(host, layout.offsets, batch.route_offsets.data(), batch.route_offsets.size());
  put(host, layout.visits, batch.visits.data(), batch.visits.size());
  put(host, layout.travel, batch.route_travel.data(), batch.route_travel.size());
  put(host, layout.start, batch.route_start.data(), batch.route_start.size());
  put(host, layout.end, batch.route_end.data(), batch.route_end.size());
  timings.pack = seconds_since(t0);

  RouteEvalView view;
  view.travel = span_at<TravelView>(dev, layout.table, batch.travel.size());
  view.route_offsets = span_at<std::uint32_t>(dev, layout.offsets, batch.route_offsets.size());
  view.visits = span_at<std::uint32_t>(dev, layout.visits, batch.visits.size());
  view.route_travel = span_at<std::uint32_t>(dev, layout.travel, routes);
  view.route_start = span_at<std::int32_t>(dev, layout.start, routes);
  view.route_end = span_at<std::int32_t>(dev, layout.end, routes);

  std::size_t copies = 1;
  start.record(stream);
  RS_CUDA_CHECK(
      cudaMemcpyAsync(inputs.device(), host, layout.small, cudaMemcpyHostToDevice, stream.get()));
  for (std::size_t t = 0; t < batch.travel.size(); ++t) {
    const TravelView& m = batch.travel[t];
    const Layout::Matrices& at = layout.matrices[t];
    const auto copy = [&](std::size_t offset, const TravelTable& from) {
      const std::size_t bytes = from.storage_bytes(m.n);
      if (bytes == 0) return;
      RS_CUDA_CHECK(cudaMemcpyAsync(inputs.device() + offset, from.data(), bytes,
                                    cudaMemcpyHostToDevice, stream.get()));
      ++copies;
    };
    copy(at.durations, m.durations);
    if (at.has_distances) copy(at.distances, m.distances);
    copy(at.costs, m.costs);
  }
  copied.record(stream);
  auto* results_dev = reinterpret_cast<RouteTotals*>(results.device());
  detail::launch_route_eval(view, {results_dev, routes}, stream.get());
  computed.record(stream);
  RS_CUDA_CHECK(cudaMemcpyAsync(results.host(), results_dev, result_bytes, cudaMemcpyDeviceToHost,
                                stream.get()));
  done.record(stream);
  stream.synchronize();
  timings.h2d_bytes = layout.total;
  timings.h2d_copies = copies;
  std::memcpy(out.data(), results.host(), result_bytes);
}

void DeviceRouteEvaluator::Impl::evaluate_naive(const RouteBatch& batch, DeviceEvalTimings& timings,
                                                std::vector<RouteTotals>& out) {
  // Pageable sources, one synchronous cudaMemcpy per array on the legacy default stream (the
  // evaluator's stream in this mode, so that the kernel is ordered after the copies): the
  // behaviour this mode exists to measure.
  const std::size_t routes = batch.size();
  std::vector<DeviceBuffer<std::byte>> matrices;
  std::vector<TravelView> table(batch.travel.size());
  std::size_t bytes = 0, copies = 0;
  const auto upload = [&](auto* dst, const auto* src, std::size_t count) {
    if (count == 0) return;
    RS_CUDA_CHECK(cudaMemcpy(dst, src, count * sizeof(*src), cudaMemcpyHostToDevice));
    bytes += count * sizeof(*src);
    ++copies;
  };
  const auto upload_matrix = [&](const TravelTable& src, std::size_t n) -> TravelTable {
    if (src == nullptr) return {};
    const std::size_t table_bytes = src.storage_bytes(n);
    matrices.emplace_back(table_bytes, stream);
    upload(matrices.back().data(), static_cast<const std::byte*>(src.data()), table_bytes);
    return src.moved_to(matrices.back().data());
  };

  start.record(stream);
  for (std::size_t t = 0; t < batch.travel.size(); ++t) {
    const TravelView& m = batch.travel[t];
    table[t].n = m.n;
    table[t].durations = upload_matrix(m.durations, m.n);
    table[t].distances = upload_matrix(m.distances, m.n);
    table[t].costs = upload_matrix(m.costs, m.n);
  }
  DeviceBuffer<TravelView> d_table(table.size(), stream);
  DeviceBuffer<std::uint32_t> d_offsets(batch.route_offsets.size(), stream);
  DeviceBuffer<std::uint32_t> d_visits(batch.visits.size(), stream);
  DeviceBuffer<std::uint32_t> d_travel(routes, stream);
  DeviceBuffer<std::int32_t> d_start(routes, stream);
  DeviceBuffer<std::int32_t> d_end(routes, stream);
  DeviceBuffer<RouteTotals> d_results(routes, stream);
  upload(d_table.data(), table.data(), table.size());
  upload(d_offsets.data(), batch.route_offsets.data(), batch.route_offsets.size());
  upload(d_visits.data(), batch.visits.data(), batch.visits.size());
  upload(d_travel.data(), batch.route_travel.data(), routes);
  upload(d_start.data(), batch.route_start.data(), routes);
  upload(d_end.data(), batch.route_end.data(), routes);
  copied.record(stream);

  RouteEvalView view;
  view.travel = d_table.cview();
  view.route_offsets = d_offsets.cview();
  view.visits = d_visits.cview();
  view.route_travel = d_travel.cview();
  view.route_start = d_start.cview();
  view.route_end = d_end.cview();
  detail::launch_route_eval(view, d_results.view(), stream.get());
  computed.record(stream);
  RS_CUDA_CHECK(cudaMemcpy(out.data(), d_results.data(), routes * sizeof(RouteTotals),
                           cudaMemcpyDeviceToHost));
  done.record(stream);
  stream.synchronize();
  timings.h2d_bytes = bytes;
  timings.h2d_copies = copies;
}

DeviceRouteEvaluator::DeviceRouteEvaluator(const DeviceEvalOptions& options) {
  const int device = checked_device(options.device);
  const DeviceGuard guard(device);
  impl_ = std::make_unique<Impl>(options, device);
}

namespace {

/// Frees an evaluator's stream, events and buffers on its own device.
template <typename Impl>
void release(std::unique_ptr<Impl>& impl) noexcept {
  if (impl == nullptr) return;
  const DeviceGuard guard(impl->device, std::nothrow);
  impl.reset();
}

}  // namespace

DeviceRouteEvaluator::~DeviceRouteEvaluator() { release(impl_); }
DeviceRouteEvaluator::DeviceRouteEvaluator(DeviceRouteEvaluator&&) noexcept = default;
DeviceRouteEvaluator& DeviceRouteEvaluator::operator=(DeviceRouteEvaluator&& other) noexcept {
  if (this != &other) {
    release(impl_);
    impl_ = std::move(other.impl_);
  }
  return *this;
}

std::vector<RouteTotals> DeviceRouteEvaluator::evaluate(const RouteBatch& batch,
                                                        DeviceEvalTimings* timings) {
  DeviceEvalTimings local;
  return impl_->evaluate(batch, timings != nullptr ? *timings : local);
}

std::vector<RouteTotals> evaluate_routes_device(const RouteBatch& batch,
                                                const DeviceEvalOptions& options,
                                                DeviceEvalTimings* timings) {
  validate(batch);  // input errors before device errors
  DeviceRouteEvaluator evaluator(options);
  return evaluator.evaluate(batch, timings);
}

}  // namespace routesolve::cuda
