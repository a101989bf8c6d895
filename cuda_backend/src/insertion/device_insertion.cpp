// The device insertion engine. Per solve, once: the tasks' segments, every vehicle's travel
// matrices and capacities. Per call: the requests laid out on the host (HostBatch), the tours
// they touch mirrored in a device tour store keyed by (solution, vehicle) and refreshed only
// when their version changed (planned on the host: tour_store.hpp), and everything that moves
// (the batch's arrays and the changed tours' records) in one pinned staging buffer and one
// cudaMemcpyAsync; the kernels move the records into the store, price every row and reduce per
// request; one copy brings the best rows back. The travel matrices go up once, each straight from
// the problem's own memory (pinned by the backend for the solve): no host copy of a matrix is made.
// TransferMode::Naive instead copies every array and every changed tour from pageable memory with
// its own synchronous cudaMemcpy and runs its kernels on the legacy default stream (the transfers
// of a first port, kept measurable). CUDA builds only.

#include <cuda_runtime_api.h>

#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "../device_runtime.hpp"
#include "insertion_engines.hpp"
#include "insertion_launch.hpp"
#include "routesolve/cuda/cuda_backend.hpp"
#include "routesolve/error.hpp"
#include "routesolve/timing.hpp"
#include "tour_store.hpp"

namespace routesolve::cuda::insertion {
namespace {

using detail::DeviceBuffer;
using detail::DeviceGuard;
using detail::Event;
using detail::Stream;

constexpr std::size_t kAlign = 256;

std::size_t aligned(std::size_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; }

/// Regions placed one after the other in one buffer.
struct Layout {
  std::size_t total = 0;
  std::size_t add(std::size_t bytes) {
    const std::size_t at = total;
    total = aligned(total + bytes);
    return at;
  }
};

int checked_device(int device) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || device < 0 || device >= count) {
    (void)cudaGetLastError();
    throw Error(ErrorCode::Device,
                "no CUDA device " + std::to_string(device) + " for the insertion engine");
  }
  return device;
}

class DeviceEngine final : public BatchedEngine {
 public:
  DeviceEngine(const DeviceOptions& options, std::size_t min_store)
      : tours_(min_store != 0 ? min_store : kMinStore),
        transfer_(options.transfer),
        device_(checked_device(options.index)),
        guard_(device_),
        stream_(transfer_ == TransferMode::Naive ? Stream::legacy() : Stream()) {}

  [[nodiscard]] std::string name() const override {
    return "cuda device " + std::to_string(device_) +
           (transfer_ == TransferMode::Pinned ? std::string() : std::string(" (naive transfers)"));
  }
  [[nodiscard]] const InsertionStats& stats() const noexcept override { return stats_; }

  void price(std::span<const search::InsertionRequest> requests,
             std::span<search::InsertionChoice> out) override {
    const DeviceGuard guard(device_);
    const auto t0 = Clock::now();
    batch_.build(requests);
    if (batch_.model != nullptr && batch_.model != model_) upload_model(*batch_.model);
    ++stats_.calls;
    stats_.requests += batch_.inserted.size();
    stats_.rows += batch_.row_slot.size();
    if (batch_.inserted.empty()) return;
    place_tours();
    pack();
    stats_.pack += seconds_since(t0);
    run();
    for (std::size_t r = 0; r < batch_.inserted.size(); ++r) out[r] = batch_.choice(best_host_[r]);
  }

 private:
  /// The tour store's smallest size: room for the tours of a few hundred chains' calls.
  static constexpr std::size_t kMinStore = std::size_t{64} << 20;

  /// The model's constant data: task segments, travel matrices (once per distinct matrix),
  /// capacities. Checks the device's free memory first.
  void upload_model(const search::SegmentModel& model) {
    const Problem& p = model.problem();
    const std::size_t nv = p.vehicles().size(), nt = p.tasks().size(), dims = model.dims();
    std::map<const void*, std::size_t>
        matrices;  // host array -> offset (32- or 64-bit entries, or points)
    std::map<const void*, std::size_t> matrix_bytes;
    Layout layout;
    const std::size_t tasks_at = layout.add(nt * sizeof(RouteSegment));
    const std::size_t caps_at =
        layout.add(nv * std::max<std::size_t>(1, dims) * sizeof(std::int64_t));
    for (std::size_t v = 0; v < nv; ++v) {
      const TravelView& tv = model.travel(v);
      for (const TravelTable& m : {tv.durations, tv.distances, tv.costs})
        if (m != nullptr && !matrices.count(m.data())) {
          matrix_bytes[m.data()] =
              m.storage_bytes(tv.n);  // the cells, or a computed table's points
          matrices[m.data()] = layout.add(matrix_bytes[m.data()]);
        }
    }
    detail::check_device_memory("the cuda insertion engine", device_, {layout.total, 0});
    DeviceBuffer<std::byte> statics(layout.total, stream_);
    // The small part (task segments, capacities) staged; each matrix straight from the problem.
    std::vector<std::byte> host(caps_at +
                                nv * std::max<std::size_t>(1, dims) * sizeof(std::int64_t));
    if (nt > 0) std::memcpy(host.data() + tasks_at, &model.task(0), nt * sizeof(RouteSegment));
    for (std::size_t v = 0; v < nv; ++v)
      for (std::size_t d = 0; d < dims; ++d)
        std::memcpy(host.data() + caps_at + (v * dims + d) * sizeof(std::int64_t),
                    &model.limits(v).capacity[d], sizeof(std::int64_t));
    const auto copy = [&](std::size_t at, const void* from, std::size_t bytes) {
      if (transfer_ == TransferMode::Naive) {
        RS_CUDA_CHECK(cudaMemcpy(statics.data() + at, from, bytes, cudaMemcpyHostToDevice));
      } else {
        RS_CUDA_CHECK(cudaMemcpyAsync(statics.data() + at, from, bytes, cudaMemcpyHostToDevice,
                                      stream_.get()));
      }
      stats_.h2d_bytes += bytes;
      ++stats_.h2d_copies;
    };
    start_.record(stream_);
    copy(0, host.data(), host.size());
    for (const auto& [m, at] : matrices) copy(at, m, matrix_bytes.at(m));
    stop_.record(stream_);
    stream_.synchronize();
    stats_.h2d += Event::seconds_between(start_, stop_);
    // Committed only now: a failure above leaves the previous model's data in place.
    statics_ = std::move(statics);
    model_ = &model;
    const std::byte* base = statics_.data();
    task_segments_ = reinterpret_cast<const RouteSegment*>(base + tasks_at);
    travel_.assign(nv, TravelView{});
    limits_.assign(nv, SegmentLimits{});
    for (std::size_t v = 0; v < nv; ++v) {
      const TravelView& tv = model.travel(v);
      TravelView d;
      d.n = tv.n;
      auto placed = [&](const TravelTable& m) {
        return m ? m.moved_to(base + matrices.at(m.data())) : TravelTable();
      };
      d.durations = placed(tv.durations);
      d.distances = placed(tv.distances);
      d.costs = placed(tv.costs);
      travel_[v] = d;
      limits_[v] = model.limits(v);
      limits_[v].capacity =
          reinterpret_cast<const std::int64_t*>(base + caps_at + v * dims * sizeof(std::int64_t));
    }
    tours_.clear(store_.size());
  }

  /// A store location for every slot's tour and the records of the changed ones (plan_), the
  /// store allocated at the plan's size first when it grows.
  void place_tours() {
    plan_ = &tours_.place(batch_);
    if (plan_->grow) {
      // Nothing of the old store is needed: it goes before the larger one is allocated.
      store_ = DeviceBuffer<std::byte>();
      try {
        detail::check_device_memory("the cuda insertion engine's tour store", device_,
                                    {plan_->capacity, 0});
        store_ = DeviceBuffer<std::byte>(plan_->capacity, stream_);
      } catch (...) {
        tours_.clear(0);  // no store: every record is placed again next time
        throw;
      }
    }
    tours_.report(stats_);
  }

  /// The call's arrays, with device addresses, into one staging area (pinned or pageable).
  void pack() {
    const std::size_t ns = batch_.slots.size(), nr = batch_.inserted.size(),
                      rows = batch_.row_slot.size();
    Layout l;
    at_.slots = l.add(ns * sizeof(hd::TourView));
    at_.slot_request = l.add(ns * sizeof(std::uint32_t));
    at_.inserted = l.add(nr * sizeof(hd::Inserted));
    at_.keys = l.add(nr * sizeof(std::uint64_t));
    at_.thresholds = l.add(nr * sizeof(std::uint32_t));
    at_.row_slot = l.add(rows * sizeof(std::uint32_t));
    at_.row_k = l.add(rows * sizeof(std::uint32_t));
    at_.request_rows = l.add((nr + 1) * sizeof(std::uint64_t));
    at_.moves = l.add(plan_->moves.size() * sizeof(Move));
    at_.records = l.add(plan_->records.size());
    at_.up = l.total;
    // Device-only scratch after the uploaded part.
    at_.delta = l.add(rows * sizeof(std::int64_t));
    at_.j = l.add(rows * sizeof(std::uint64_t));
    at_.best = l.add(nr * sizeof(BestRow));
    // The staging (uploaded part, then the best rows coming back) and the device buffer grow
    // together: a failed growth leaves both as they were (PairedBuffer).
    const std::size_t host_bytes = std::max(at_.up, nr * sizeof(BestRow));
    if (io_.host_capacity() < host_bytes || io_.device_capacity() < l.total)
      detail::check_device_memory("the cuda insertion engine's batch", device_,
                                  {l.total, transfer_ == TransferMode::Pinned ? host_bytes : 0});
    io_.reserve(host_bytes, l.total);
    staging_ = io_.host();
    std::byte* base = io_.device();
    auto* slots = reinterpret_cast<hd::TourView*>(staging_ + at_.slots);
    for (std::size_t s = 0; s < ns; ++s) {
      hd::TourView t = at_record(batch_.slots[s], store_.data() + plan_->slot_offset[s]);
      t.travel = travel_[t.vehicle];
      t.limits = limits_[t.vehicle];
      slots[s] = t;
    }
    auto* inserted = reinterpret_cast<hd::Inserted*>(staging_ + at_.inserted);
    for (std::size_t r = 0; r < nr; ++r) {
      hd::Inserted x = batch_.inserted[r];
      const std::size_t task = batch_.request_task[r];
      x.segment = task_segments_ + task;
      if (x.sibling != nullptr) x.sibling = task_segments_ + model_->problem().task(task).sibling;
      inserted[r] = x;
    }
    auto put = [&](std::size_t at, const void* data, std::size_t bytes) {
      if (bytes > 0) std::memcpy(staging_ + at, data, bytes);
    };
    put(at_.slot_request, batch_.slot_request.data(), ns * sizeof(std::uint32_t));
    put(at_.keys, batch_.blink_keys.data(), nr * sizeof(std::uint64_t));
    put(at_.thresholds, batch_.blink_thresholds.data(), nr * sizeof(std::uint32_t));
    put(at_.row_slot, batch_.row_slot.data(), rows * sizeof(std::uint32_t));
    put(at_.row_k, batch_.row_k.data(), rows * sizeof(std::uint32_t));
    put(at_.request_rows, batch_.request_rows.data(), (nr + 1) * sizeof(std::uint64_t));
    put(at_.moves, plan_->moves.data(), plan_->moves.size() * sizeof(Move));
    put(at_.records, plan_->records.data(), plan_->records.size());
    view_ = BatchView{};
    view_.slots = reinterpret_cast<const hd::TourView*>(base + at_.slots);
    view_.slot_request = reinterpret_cast<const std::uint32_t*>(base + at_.slot_request);
    view_.inserted = reinterpret_cast<const hd::Inserted*>(base + at_.inserted);
    view_.blink_keys = reinterpret_cast<const std::uint64_t*>(base + at_.keys);
    view_.blink_thresholds = reinterpret_cast<const std::uint32_t*>(base + at_.thresholds);
    view_.row_slot = reinterpret_cast<const std::uint32_t*>(base + at_.row_slot);
    view_.row_k = reinterpret_cast<const std::uint32_t*>(base + at_.row_k);
    view_.request_rows = reinterpret_cast<const std::uint64_t*>(base + at_.request_rows);
    view_.task_segments.segments = task_segments_;
    view_.dims = model_->dims();
    view_.rows = rows;
    view_.requests = static_cast<std::uint32_t>(nr);
  }

  void run() {
    std::byte* base = io_.device();
    const std::size_t nr = batch_.inserted.size();
    start_.record(stream_);
    if (transfer_ == TransferMode::Pinned) {
      RS_CUDA_CHECK(cudaMemcpyAsync(base, staging_, at_.up, cudaMemcpyHostToDevice, stream_.get()));
      ++stats_.h2d_copies;
    } else {
      // One copy per array and one per changed tour, from pageable memory.
      const std::size_t regions[] = {
          at_.slots, at_.slot_request, at_.inserted, at_.keys,    at_.thresholds, at_.row_slot,
          at_.row_k, at_.request_rows, at_.moves,    at_.records, at_.up};
      for (std::size_t k = 0; k + 1 < std::size(regions); ++k) {
        if (regions[k] == at_.records) break;
        RS_CUDA_CHECK(cudaMemcpy(base + regions[k], staging_ + regions[k],
                                 regions[k + 1] - regions[k], cudaMemcpyHostToDevice));
        ++stats_.h2d_copies;
      }
      for (const Move& m : plan_->moves) {
        RS_CUDA_CHECK(cudaMemcpy(base + at_.records + m.src, staging_ + at_.records + m.src,
                                 m.bytes, cudaMemcpyHostToDevice));
        ++stats_.h2d_copies;
      }
    }
    stats_.h2d_bytes += at_.up;
    copied_.record(stream_);
    auto* best = reinterpret_cast<BestRow*>(base + at_.best);
    detail::insertion::launch_insertion(
        view_, reinterpret_cast<const Move*>(base + at_.moves),
        static_cast<std::uint32_t>(plan_->moves.size()), base + at_.records, store_.data(),
        reinterpret_cast<std::int64_t*>(base + at_.delta),
        reinterpret_cast<std::uint64_t*>(base + at_.j), best, stream_.get());
    priced_.record(stream_);
    best_host_.resize(nr);
    if (transfer_ == TransferMode::Pinned) {
      RS_CUDA_CHECK(cudaMemcpyAsync(staging_, best, nr * sizeof(BestRow), cudaMemcpyDeviceToHost,
                                    stream_.get()));
      stop_.record(stream_);
      stream_.synchronize();
      std::memcpy(best_host_.data(), staging_, nr * sizeof(BestRow));
    } else {
      RS_CUDA_CHECK(
          cudaMemcpy(best_host_.data(), best, nr * sizeof(BestRow), cudaMemcpyDeviceToHost));
      stop_.record(stream_);
      stream_.synchronize();
    }
    stats_.d2h_bytes += nr * sizeof(BestRow);
    stats_.h2d += Event::seconds_between(start_, copied_);
    stats_.kernels += Event::seconds_between(copied_, priced_);
    stats_.d2h += Event::seconds_between(priced_, stop_);
  }

  struct Offsets {
    std::size_t slots = 0, slot_request = 0, inserted = 0, keys = 0, thresholds = 0, row_slot = 0,
                row_k = 0, request_rows = 0, moves = 0, records = 0, up = 0, delta = 0, j = 0,
                best = 0;
  };

  TourStore tours_;
  TransferMode transfer_;
  int device_;
  DeviceGuard guard_;  // streams, events and buffers below are created on device_
  Stream stream_;
  Event start_, copied_, priced_, stop_;
  const search::SegmentModel* model_ = nullptr;
  DeviceBuffer<std::byte> statics_, store_;
  detail::CudaBufferAllocator allocator_{transfer_ == TransferMode::Pinned};
  detail::PairedBuffer io_{allocator_};  // staging (pinned, or pageable when naive) + device
  std::byte* staging_ = nullptr;
  const RouteSegment* task_segments_ = nullptr;
  std::vector<TravelView> travel_;
  std::vector<SegmentLimits> limits_;
  const TourStore::Plan* plan_ = nullptr;
  HostBatch batch_;
  std::vector<BestRow> best_host_;
  Offsets at_;
  BatchView view_;
  InsertionStats stats_;
};

}  // namespace

std::unique_ptr<BatchedEngine> make_device_engine(const DeviceOptions& options,
                                                  std::size_t min_store) {
  return std::make_unique<DeviceEngine>(options, min_store);
}

}  // namespace routesolve::cuda::insertion
