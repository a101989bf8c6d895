// Device driver of the PHAST/RPHAST matrices: transfers, two streams, per-level launches.
// CUDA builds only; g++ against the runtime API (the kernels are in phast.cu).
//
// Pinned mode: the level CSR and the target ids are packed into one pinned staging buffer laid
// out like the device buffer: one cudaMemcpyAsync per target set. Per tile, the seeds (upward
// search results, computed on the host while the previous tile sweeps) go over in one copy; the
// tile is filled, seeded, swept level by level, and the target rows are gathered into one of two
// device result buffers; the copy stream brings that buffer back into one of two pinned buffers
// while the compute stream already sweeps the next tile. Naive mode: pageable memory, one copy per
// array and per result row, everything synchronous on one stream.

#include "phast_device.hpp"

#include <chrono>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "device_runtime.hpp"
#include "phast_launch.hpp"
#include "routesolve/timing.hpp"

namespace routesolve::cuda::detail {
namespace {

constexpr std::size_t kAlign = 256;

std::size_t align_up(std::size_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; }

/// Grows a device buffer (stream-ordered: safe while earlier work on the stream still runs).
template <typename T>
void reserve(DeviceBuffer<T>& buffer, std::size_t count, const Stream& stream) {
  if (buffer.size() < count) buffer = DeviceBuffer<T>(count, stream);
}

}  // namespace

struct DevicePhast::Impl {
  int device;
  TransferMode mode;
  std::string name;
  Stream compute, copy;  // declared before the buffers: they are freed on these streams

  // The uploaded selection. Pinned mode: every array in one buffer, staged in pinned memory
  // (grown together: PairedBuffer).
  CudaBufferAllocator allocator{true};
  PairedBuffer graph{allocator};
  DeviceBuffer<std::uint32_t> first_in, tail, target_local;  // naive mode
  DeviceBuffer<Key> weight;
  SweepGraphView view;
  DeviceSpan<const std::uint32_t> targets;
  std::vector<std::uint32_t> level_first;
  std::size_t nodes = 0;

  // Tiles.
  DeviceBuffer<Key> tile;
  DeviceBuffer<Seed> seeds_dev[2];
  DeviceBuffer<Key> out_dev[2];
  PinnedBuffer<Seed> seeds_pinned[2];
  PinnedBuffer<Key> out_pinned[2];
  Event h2d_start[2], h2d_done[2], gathered[2], d2h_start[2], d2h_done[2];
  std::vector<Seed> seeds_host;
  std::vector<Key> out_host;  // naive mode

  // Constructed under a DeviceGuard of `device_index` (the streams and events are its own).
  // Naive mode runs on the legacy default stream, where its synchronous pageable copies run.
  Impl(int device_index, TransferMode m)
      : device(device_index),
        mode(m),
        compute(m == TransferMode::Naive ? Stream::legacy() : Stream()) {
    cudaDeviceProp prop{};
    RS_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    name = prop.name;
  }
  ~Impl() {
    (void)cudaStreamSynchronize(compute.get());
    (void)cudaStreamSynchronize(copy.get());
  }

  void sweep_tile(std::size_t seed_count, std::uint32_t width, std::size_t b) {
    const cudaStream_t s = compute.get();
    RS_CUDA_CHECK(
        cudaMemsetAsync(tile.data(), 0xff, nodes * width * sizeof(Key), s));  // all kNoKey
    launch_seed({seeds_dev[b].data(), seed_count}, tile.data(), width, s);
    for (std::size_t l = 0; l + 1 < level_first.size(); ++l)
      launch_sweep_level(view, tile.data(), width, level_first[l],
                         level_first[l + 1] - level_first[l], s);
  }
};

DevicePhast::DevicePhast(int device_index, TransferMode mode) {
  const DeviceGuard guard(device_index);
  impl_ = std::make_unique<Impl>(device_index, mode);
}

DevicePhast::~DevicePhast() {
  const DeviceGuard guard(impl_->device,
                          std::nothrow);  // streams synchronised, buffers freed there
  impl_.reset();
}

std::string DevicePhast::device_name() const { return impl_->name; }

void DevicePhast::upload(const Selection& sel, MatrixProfile* profile) {
  Impl& d = *impl_;
  const DeviceGuard guard(d.device);
  const auto start = Clock::now();
  d.nodes = sel.nodes();
  d.level_first = sel.level_first;
  std::size_t bytes = 0, copies = 0;
  if (d.mode == TransferMode::Pinned) {
    const std::size_t o_first = 0;
    const std::size_t o_tail = align_up(o_first + sel.first_in.size() * sizeof(std::uint32_t));
    const std::size_t o_weight = align_up(o_tail + sel.tail.size() * sizeof(std::uint32_t));
    const std::size_t o_targets = align_up(o_weight + sel.weight.size() * sizeof(Key));
    const std::size_t total = align_up(o_targets + sel.target_local.size() * sizeof(std::uint32_t));
    d.compute.synchronize();  // the staging buffer may still feed the previous upload
    if (d.graph.device_capacity() < total)
      check_device_memory("the PHAST matrix engine", d.device,
                          {total + d.nodes * 256 * sizeof(Key), total});
    d.graph.reserve(total);
    std::byte* h = d.graph.host();
    const auto put = [h](std::size_t at, const auto& v) {
      if (!v.empty()) std::memcpy(h + at, v.data(), v.size() * sizeof(v[0]));
    };
    put(o_first, sel.first_in);
    put(o_tail, sel.tail);
    put(o_weight, sel.weight);
    put(o_targets, sel.target_local);
    RS_CUDA_CHECK(
        cudaMemcpyAsync(d.graph.device(), h, total, cudaMemcpyHostToDevice, d.compute.get()));
    const std::byte* g = d.graph.device();
    d.view =
        SweepGraphView{{reinterpret_cast<const std::uint32_t*>(g + o_first), sel.first_in.size()},
                       {reinterpret_cast<const std::uint32_t*>(g + o_tail), sel.tail.size()},
                       {reinterpret_cast<const Key*>(g + o_weight), sel.weight.size()}};
    d.targets = {reinterpret_cast<const std::uint32_t*>(g + o_targets), sel.target_local.size()};
    bytes = total;
    copies = 1;
  } else {
    const auto send = [&](auto& buffer, const auto& v) {
      buffer = std::decay_t<decltype(buffer)>(v.size(), d.compute);
      if (!v.empty())
        RS_CUDA_CHECK(
            cudaMemcpy(buffer.data(), v.data(), v.size() * sizeof(v[0]), cudaMemcpyHostToDevice));
      bytes += v.size() * sizeof(v[0]);
      ++copies;
    };
    send(d.first_in, sel.first_in);
    send(d.tail, sel.tail);
    send(d.weight, sel.weight);
    send(d.target_local, sel.target_local);
    d.view = SweepGraphView{d.first_in.cview(), d.tail.cview(), d.weight.cview()};
    d.targets = d.target_local.cview();
  }
  d.compute.synchronize();
  if (profile != nullptr) {
    profile->h2d += seconds_since(start);
    profile->h2d_bytes += bytes;
    profile->h2d_copies += copies;
  }
}

void DevicePhast::run(std::size_t tiles, std::uint32_t width, const SeedFn& make_seeds,
                      const UnpackFn& unpack, MatrixProfile* profile) {
  Impl& d = *impl_;
  const DeviceGuard guard(d.device);
  if (!valid_device_width(width))
    throw Error(ErrorCode::Internal, "PHAST device tile width " + std::to_string(width));
  const std::size_t targets = d.targets.size();
  const std::size_t out_count = targets * width;
  reserve(d.tile, d.nodes * width, d.compute);
  double upward = 0.0, h2d = 0.0, sweep = 0.0, d2h = 0.0, unpacked = 0.0;
  std::size_t h2d_bytes = 0, h2d_copies = 0, d2h_bytes = 0, d2h_copies = 0;

  if (d.mode == TransferMode::Naive) {
    // Per tile: the seeds up and the result tile down, each one synchronous cudaMemcpy from
    // pageable memory on the legacy default stream (the sweeps' stream in this mode); no overlap.
    for (std::size_t i = 0; i < tiles; ++i) {
      auto at = Clock::now();
      d.seeds_host.clear();
      make_seeds(i, &d.seeds_host);
      upward += seconds_since(at);
      reserve(d.seeds_dev[0], d.seeds_host.size(), d.compute);
      reserve(d.out_dev[0], out_count, d.compute);
      d.h2d_start[0].record(d.compute);
      if (!d.seeds_host.empty())
        RS_CUDA_CHECK(cudaMemcpy(d.seeds_dev[0].data(), d.seeds_host.data(),
                                 d.seeds_host.size() * sizeof(Seed), cudaMemcpyHostToDevice));
      d.h2d_done[0].record(d.compute);
      h2d_bytes += d.seeds_host.size() * sizeof(Seed);
      ++h2d_copies;
      d.sweep_tile(d.seeds_host.size(), width, 0);
      launch_gather(d.tile.data(), width, d.targets, d.out_dev[0].data(), d.compute.get());
      d.gathered[0].record(d.compute);
      d.out_host.resize(out_count);
      RS_CUDA_CHECK(cudaMemcpy(d.out_host.data(), d.out_dev[0].data(), out_count * sizeof(Key),
                               cudaMemcpyDeviceToHost));
      d.d2h_done[0].record(d.compute);
      d.compute.synchronize();
      h2d += Event::seconds_between(d.h2d_start[0], d.h2d_done[0]);
      sweep += Event::seconds_between(d.h2d_done[0], d.gathered[0]);
      d2h += Event::seconds_between(d.gathered[0], d.d2h_done[0]);
      ++d2h_copies;
      d2h_bytes += out_count * sizeof(Key);
      at = Clock::now();
      unpack(i, d.out_host.data());
      unpacked += seconds_since(at);
    }
  } else {
    bool pending[2] = {false, false};  // buffer b holds a tile whose results are not unpacked yet
    const auto finish = [&](std::size_t tile_index) {
      const std::size_t b = tile_index % 2;
      RS_CUDA_CHECK(cudaEventSynchronize(d.d2h_done[b].get()));
      h2d += Event::seconds_between(d.h2d_start[b], d.h2d_done[b]);
      sweep += Event::seconds_between(d.h2d_done[b], d.gathered[b]);
      d2h += Event::seconds_between(d.d2h_start[b], d.d2h_done[b]);
      const auto at = Clock::now();
      unpack(tile_index, d.out_pinned[b].data());
      unpacked += seconds_since(at);
      pending[b] = false;
    };
    for (std::size_t i = 0; i < tiles; ++i) {
      const std::size_t b = i % 2;
      auto at = Clock::now();
      d.seeds_host.clear();
      make_seeds(i, &d.seeds_host);  // overlaps the device's work on tile i - 1
      upward += seconds_since(at);
      if (pending[b]) finish(i - 2);  // normally done in the previous iteration already
      const std::size_t count = d.seeds_host.size();
      if (d.seeds_pinned[b].size() < count)
        d.seeds_pinned[b] = PinnedBuffer<Seed>(count + count / 4);
      reserve(d.seeds_dev[b], count, d.compute);
      reserve(d.out_dev[b], out_count, d.compute);
      if (d.out_pinned[b].size() < out_count) d.out_pinned[b] = PinnedBuffer<Key>(out_count);
      if (count > 0)
        std::memcpy(d.seeds_pinned[b].data(), d.seeds_host.data(), count * sizeof(Seed));

      const cudaStream_t s = d.compute.get();
      d.h2d_start[b].record(d.compute);
      if (count > 0)
        RS_CUDA_CHECK(cudaMemcpyAsync(d.seeds_dev[b].data(), d.seeds_pinned[b].data(),
                                      count * sizeof(Seed), cudaMemcpyHostToDevice, s));
      d.h2d_done[b].record(d.compute);
      d.sweep_tile(count, width, b);
      launch_gather(d.tile.data(), width, d.targets, d.out_dev[b].data(), s);
      d.gathered[b].record(d.compute);
      RS_CUDA_CHECK(cudaStreamWaitEvent(d.copy.get(), d.gathered[b].get(), 0));
      d.d2h_start[b].record(d.copy);
      RS_CUDA_CHECK(cudaMemcpyAsync(d.out_pinned[b].data(), d.out_dev[b].data(),
                                    out_count * sizeof(Key), cudaMemcpyDeviceToHost, d.copy.get()));
      d.d2h_done[b].record(d.copy);
      pending[b] = true;
      h2d_bytes += count * sizeof(Seed);
      h2d_copies += count > 0 ? 1 : 0;
      d2h_bytes += out_count * sizeof(Key);
      ++d2h_copies;
      if (i > 0 && pending[1 - b]) finish(i - 1);  // tile i sweeps while tile i - 1 is unpacked
    }
    if (tiles > 0 && pending[(tiles - 1) % 2]) finish(tiles - 1);
  }
  if (profile != nullptr) {
    profile->upward += upward;
    profile->h2d += h2d;
    profile->sweep += sweep;
    profile->d2h += d2h;
    profile->unpack += unpacked;
    profile->h2d_bytes += h2d_bytes;
    profile->h2d_copies += h2d_copies;
    profile->d2h_bytes += d2h_bytes;
    profile->d2h_copies += d2h_copies;
  }
}

}  // namespace routesolve::cuda::detail
