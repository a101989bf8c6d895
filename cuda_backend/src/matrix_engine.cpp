// PhastMatrixEngine: validation, the cached RPHAST selection, and the dispatch to the host twin
// (phast_host.cpp) or the device driver (phast_device.cpp, CUDA builds).

#include "routesolve/cuda/matrix_engine.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "phast_host.hpp"
#include "routesolve/cuda/cuda_backend.hpp"
#include "routesolve/error.hpp"
#include "routesolve/timing.hpp"
#if defined(ROUTESOLVE_WITH_CUDA)
#include "phast_device.hpp"
#include "phast_launch.hpp"
#endif

namespace routesolve::cuda {
namespace {

/// printf-style formatting into a std::string (the backend does not link fmt).
template <typename... Args>
std::string format(const char* pattern, Args... args) {
  const int n = std::snprintf(nullptr, 0, pattern, args...);
  std::string out(static_cast<std::size_t>(std::max(n, 0)) + 1, '\0');
  std::snprintf(out.data(), out.size(), pattern, args...);
  out.pop_back();
  return out;
}

constexpr unsigned kHostDefaultWidth = 32;
constexpr unsigned kDeviceDefaultWidth = 256;

void check_ids(const std::vector<NodeId>& ids, std::size_t n, const char* field) {
  for (std::size_t i = 0; i < ids.size(); ++i)
    if (ids[i] >= n)
      throw invalid_input(std::string(field) + "[" + std::to_string(i) + "]",
                          "node " + std::to_string(ids[i]) + " out of range (the network has " +
                              std::to_string(n) + " nodes)");
}

}  // namespace

std::pair<std::size_t, std::size_t> tile_share(std::size_t tiles, std::size_t devices,
                                               std::size_t d) noexcept {
  if (devices == 0) return {0, 0};
  const std::size_t base = tiles / devices, extra = tiles % devices;
  const std::size_t first = d * base + std::min(d, extra);
  return {first, first + base + (d < extra ? 1 : 0)};
}

namespace {

/// Runs job(d) for every d < count, one thread each (the caller's thread for a single one);
/// rethrows the first exception once all have finished.
template <typename Job>
void on_each_device(std::size_t count, const Job& job) {
  if (count == 1) {
    job(0);
    return;
  }
  std::vector<std::exception_ptr> errors(count);
  std::vector<std::thread> threads;
  threads.reserve(count);
  for (std::size_t d = 0; d < count; ++d)
    threads.emplace_back([&, d] {
      try {
        job(d);
      } catch (...) {
        errors[d] = std::current_exception();
      }
    });
  for (std::thread& t : threads) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

/// Rows [first, first + part.rows) of `m` from `part` (rows are sources: one block each).
void place_rows(const NodeMatrices& part, std::size_t first, NodeMatrices* m) {
  const std::size_t at = first * m->cols, cells = part.rows * part.cols;
  std::copy_n(part.durations.begin(), cells,
              m->durations.begin() + static_cast<std::ptrdiff_t>(at));
  std::copy_n(part.distances.begin(), cells,
              m->distances.begin() + static_cast<std::ptrdiff_t>(at));
}

}  // namespace

std::string_view to_string(MatrixDevice device) noexcept {
  return device == MatrixDevice::Cuda ? "cuda" : "cuda-host";
}

struct PhastMatrixEngine::Impl {
  const ContractionHierarchy* ch = nullptr;
  PhastOptions options;
  std::vector<int> indices;  ///< the devices (or virtual devices) the tiles are split over
  unsigned width = 0;
  unsigned threads = 1;
  std::optional<detail::Selection> selection;
  std::string device_name;
#if defined(ROUTESOLVE_WITH_CUDA)
  /// One per device: its driver, its upward search (not shared between threads), its upload.
  struct Slot {
    std::unique_ptr<detail::DevicePhast> device;
    std::unique_ptr<detail::UpwardSearch> search;
    bool uploaded = false;
  };
  std::vector<Slot> slots;
#endif
};

PhastMatrixEngine::PhastMatrixEngine(const RoadGraph& graph, const ContractionHierarchy& ch,
                                     const PhastOptions& options)
    : impl_(std::make_unique<Impl>()) {
  Impl& e = *impl_;
  e.ch = &ch;
  e.options = options;
  if (ch.node_count() != graph.node_count() || ch.graph_fingerprint != graph_fingerprint(graph))
    throw invalid_input("contraction hierarchy",
                        "was built for another graph (" + std::to_string(ch.node_count()) +
                            " nodes vs " + std::to_string(graph.node_count()) +
                            ", or different arcs): rebuild it");
  const bool on_device = options.device == MatrixDevice::Cuda;
  e.width = options.tile_width != 0 ? options.tile_width
                                    : (on_device ? kDeviceDefaultWidth : kHostDefaultWidth);
  if (e.width % 8 != 0 || e.width > 256 ||
      (on_device && e.width != 32 && e.width != 64 && e.width != 128 && e.width != 256))
    throw invalid_input("tile_width", std::to_string(e.width) +
                                          (on_device ? ": the device takes 32, 64, 128 or 256"
                                                     : ": must be a multiple of 8 up to 256"));
  e.threads =
      options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  e.indices = options.device_indices.empty() ? std::vector<int>{options.device_index}
                                             : options.device_indices;
  if (!on_device) {
    e.device_name = format("cuda-host (%u thread%s)", e.threads, e.threads == 1 ? "" : "s");
    if (e.indices.size() > 1)
      e.device_name += format(" split over %zu virtual devices", e.indices.size());
    return;
  }
  if (!device_available())
    throw Error(ErrorCode::Device,
                "the cuda matrix backend needs a CUDA device, and none is usable: " +
                    device_unavailable_reason());
#if defined(ROUTESOLVE_WITH_CUDA)
  for (const int index : e.indices) {
    Impl::Slot slot;
    slot.device = std::make_unique<detail::DevicePhast>(index, options.transfer);
    slot.search = std::make_unique<detail::UpwardSearch>(ch.node_count());
    e.device_name += (e.device_name.empty() ? "" : " + ") + slot.device->device_name();
    e.slots.push_back(std::move(slot));
  }
#endif
}

PhastMatrixEngine::~PhastMatrixEngine() = default;
PhastMatrixEngine::PhastMatrixEngine(PhastMatrixEngine&&) noexcept = default;
PhastMatrixEngine& PhastMatrixEngine::operator=(PhastMatrixEngine&&) noexcept = default;

const PhastOptions& PhastMatrixEngine::options() const noexcept { return impl_->options; }

NodeMatrices PhastMatrixEngine::compute(const std::vector<NodeId>& sources,
                                        const std::vector<NodeId>& targets,
                                        MatrixProfile* profile) {
  Impl& e = *impl_;
  const auto start = Clock::now();
  const ContractionHierarchy& ch = *e.ch;
  check_ids(sources, ch.node_count(), "sources");
  check_ids(targets, ch.node_count(), "targets");
  MatrixProfile local;
  MatrixProfile& p = profile != nullptr ? *profile : local;
  const double ch_load = p.ch_load;
  p = MatrixProfile{};
  p.ch_load = ch_load;
  p.device = e.device_name;
  p.tile_width = e.width;

  NodeMatrices m;
  m.rows = sources.size();
  m.cols = targets.size();
  m.durations.assign(m.rows * m.cols, kUnreachable);
  m.distances.assign(m.rows * m.cols, kUnreachable);
  if (m.rows == 0 || m.cols == 0) {
    p.total = seconds_since(start);
    return m;
  }

  // RPHAST selection, once per target set.
  if (e.selection && e.selection->targets == targets) {
    p.selection_reused = true;
  } else {
    const auto at = Clock::now();
    e.selection = detail::select_targets(ch, targets);
#if defined(ROUTESOLVE_WITH_CUDA)
    for (Impl::Slot& slot : e.slots) slot.uploaded = false;
#endif
    p.selection = seconds_since(at);
  }
  const detail::Selection& sel = *e.selection;
  const std::size_t tiles = (sources.size() + e.width - 1) / e.width;

  const std::size_t devices = e.indices.size();
  if (e.options.device == MatrixDevice::Host) {
    const auto at = Clock::now();
    std::vector<detail::HostStageTimes> times(devices);
    const unsigned threads = std::max(1u, e.threads / static_cast<unsigned>(devices));
    on_each_device(devices, [&](std::size_t d) {
      const auto [first, last] = tile_share(tiles, devices, d);
      if (devices == 1) {
        detail::host_sweeps(ch, sel, sources, e.width, threads, &m, &times[d]);
        return;
      }
      const std::size_t begin = first * e.width, end = std::min(sources.size(), last * e.width);
      if (begin >= end) return;
      const std::vector<NodeId> share(sources.begin() + static_cast<std::ptrdiff_t>(begin),
                                      sources.begin() + static_cast<std::ptrdiff_t>(end));
      NodeMatrices part;
      part.rows = share.size();
      part.cols = m.cols;
      part.durations.assign(part.rows * part.cols, kUnreachable);
      part.distances.assign(part.rows * part.cols, kUnreachable);
      detail::host_sweeps(ch, sel, share, e.width, threads, &part, &times[d]);
      place_rows(part, begin, &m);
    });
    const double wall = seconds_since(at);
    detail::HostStageTimes t;
    for (const detail::HostStageTimes& x : times) {
      t.upward += x.upward;
      t.sweep += x.sweep;
      t.unpack += x.unpack;
    }
    // Host stage times: no transfer happens on the host, the unpacking is its own stage.
    const double busy = t.upward + t.sweep + t.unpack;
    const double scale = busy > 0.0 ? wall / busy : 0.0;
    p.upward = t.upward * scale;
    p.sweep = t.sweep * scale;
    p.unpack = t.unpack * scale;
  } else {
#if defined(ROUTESOLVE_WITH_CUDA)
    const std::uint32_t width = e.width;
    std::vector<MatrixProfile> parts(devices);
    on_each_device(devices, [&](std::size_t d) {
      Impl::Slot& slot = e.slots[d];
      MatrixProfile& part = parts[d];
      if (!slot.uploaded) {
        slot.device->upload(sel, &part);
        slot.uploaded = true;
      }
      const auto [first, last] = tile_share(tiles, devices, d);
      if (first == last) return;
      slot.device->run(
          last - first, width,
          [&](std::size_t tile, std::vector<detail::Seed>* seeds) {
            const std::size_t at = (first + tile) * width;
            const std::size_t columns = std::min<std::size_t>(width, sources.size() - at);
            for (std::size_t c = 0; c < columns; ++c)
              slot.search->seeds(ch, sel, sources[at + c], static_cast<std::uint32_t>(c), seeds);
          },
          [&](std::size_t tile, const detail::Key* out) {
            const std::size_t at = (first + tile) * width;
            detail::unpack_tile(out, width, std::min<std::size_t>(width, sources.size() - at), at,
                                &m);
          },
          &part);
    });
    // The devices run at once: stage times are the slowest device's, volumes add up.
    for (const MatrixProfile& part : parts) {
      p.upward = std::max(p.upward, part.upward);
      p.h2d = std::max(p.h2d, part.h2d);
      p.sweep = std::max(p.sweep, part.sweep);
      p.d2h = std::max(p.d2h, part.d2h);
      p.unpack = std::max(p.unpack, part.unpack);
      p.h2d_bytes += part.h2d_bytes;
      p.h2d_copies += part.h2d_copies;
      p.d2h_bytes += part.d2h_bytes;
      p.d2h_copies += part.d2h_copies;
    }
#endif
  }
  p.selected_nodes = sel.nodes();
  p.selected_arcs = sel.arcs();
  p.levels = sel.levels();
  p.tiles = tiles;
  p.relaxations = static_cast<std::uint64_t>(sel.arcs()) * sources.size();
  p.total = seconds_since(start);
  return m;
}

std::string format_profile(const MatrixProfile& p) {
  const double all = p.ch_load + p.total;
  const auto part = [all](const char* name, double s) {
    return format("%s %.2f ms (%.0f%%)", name, s * 1e3, all > 0.0 ? 100.0 * s / all : 0.0);
  };
  std::string out = p.device + ": ";
  out += part("ch load", p.ch_load) + ", " + part("selection", p.selection) + ", " +
         part("upward", p.upward) + ", " + part("h2d", p.h2d) + ", " + part("sweeps", p.sweep) +
         ", " + part("d2h", p.d2h) + ", " + part("unpack", p.unpack);
  out += format("; total %.2f ms; %zu tiles of %zu, %zu levels, %zu selected nodes, %zu arcs",
                p.total * 1e3, p.tiles, p.tile_width, p.levels, p.selected_nodes, p.selected_arcs);
  if (p.sweep > 0.0)
    out +=
        format("; %.3g relaxations/s in the sweeps", static_cast<double>(p.relaxations) / p.sweep);
  if (p.h2d_copies + p.d2h_copies > 0)
    out += format("; h2d %zu B in %zu copies, d2h %zu B in %zu copies", p.h2d_bytes, p.h2d_copies,
                  p.d2h_bytes, p.d2h_copies);
  return out;
}

}  // namespace routesolve::cuda
