// PhastMatrixEngine: validation, the cached RPHAST selection, and the dispatch to the host twin
// (phast_host.cpp) or the device driver (phast_device.cpp, CUDA builds).

#include "routesolve/timing.hpp"
#include "routesolve/cuda/matrix_engine.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <thread>

#include "phast_host.hpp"
#include "routesolve/cuda/cuda_backend.hpp"
#include "routesolve/error.hpp"
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
                          "node " + std::to_string(ids[i]) + " out of range (the network has " + std::to_string(n) +
                              " nodes)");
}

}  // namespace

std::string_view to_string(MatrixDevice device) noexcept {
  return device == MatrixDevice::Cuda ? "cuda" : "cuda-host";
}

struct PhastMatrixEngine::Impl {
  const ContractionHierarchy* ch = nullptr;
  PhastOptions options;
  unsigned width = 0;
  unsigned threads = 1;
  std::optional<detail::Selection> selection;
  std::string device_name;
#if defined(ROUTESOLVE_WITH_CUDA)
  std::unique_ptr<detail::DevicePhast> device;
  std::unique_ptr<detail::UpwardSearch> search;
  bool uploaded = false;
#endif
};

PhastMatrixEngine::PhastMatrixEngine(const RoadGraph& graph, const ContractionHierarchy& ch, const PhastOptions& options)
    : impl_(std::make_unique<Impl>()) {
  Impl& e = *impl_;
  e.ch = &ch;
  e.options = options;
  if (ch.node_count() != graph.node_count() || ch.graph_fingerprint != graph_fingerprint(graph))
    throw invalid_input("contraction hierarchy",
                        "was built for another graph (" + std::to_string(ch.node_count()) + " nodes vs " +
                            std::to_string(graph.node_count()) + ", or different arcs): rebuild it");
  const bool on_device = options.device == MatrixDevice::Cuda;
  e.width = options.tile_width != 0 ? options.tile_width : (on_device ? kDeviceDefaultWidth : kHostDefaultWidth);
  if (e.width % 8 != 0 || e.width > 256 ||
      (on_device && e.width != 32 && e.width != 64 && e.width != 128 && e.width != 256))
    throw invalid_input("tile_width", std::to_string(e.width) +
                                          (on_device ? ": the device takes 32, 64, 128 or 256"
                                                     : ": must be a multiple of 8 up to 256"));
  e.threads = options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  if (!on_device) {
    e.device_name = format("cuda-host (%u thread%s)", e.threads, e.threads == 1 ? "" : "s");
    return;
  }
  if (!device_available())
    throw Error(ErrorCode::Device,
                "the cuda matrix backend needs a CUDA device, and none is usable: " + device_unavailable_reason());
#if defined(ROUTESOLVE_WITH_CUDA)
  e.device = std::make_unique<detail::DevicePhast>(options.device_index, options.transfer);
  e.search = std::make_unique<detail::UpwardSearch>(ch.node_count());
  e.device_name = e.device->device_name();
#endif
}

PhastMatrixEngine::~PhastMatrixEngine() = default;
PhastMatrixEngine::PhastMatrixEngine(PhastMatrixEngine&&) noexcept = default;
PhastMatrixEngine& PhastMatrixEngine::operator=(PhastMatrixEngine&&) noexcept = default;

const PhastOptions& PhastMatrixEngine::options() const noexcept { return impl_->options; }

NodeMatrices PhastMatrixEngine::compute(const std::vector<NodeId>& sources, const std::vector<NodeId>& targets,
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
    e.uploaded = false;
#endif
    p.selection = seconds_since(at);
  }
  const detail::Selection& sel = *e.selection;
  const std::size_t tiles = (sources.size() + e.width - 1) / e.width;

  if (e.options.device == MatrixDevice::Host) {
    const auto at = Clock::now();
    detail::HostStageTimes t;
    detail::host_sweeps(ch, sel, sources, e.width, e.threads, &m, &t);
    const double wall = seconds_since(at);
    const double busy = t.upward + t.sweep + t.unpack;
    const double scale = busy > 0.0 ? wall / busy : 0.0;
    p.upward = t.upward * scale;
    p.sweep = t.sweep * scale;
    p.d2h = t.unpack * scale;
  } else {
#if defined(ROUTESOLVE_WITH_CUDA)
    if (!e.uploaded) {
      e.device->upload(sel, &p);
      e.uploaded = true;
    }
    const std::uint32_t width = e.width;
    e.device->run(
        tiles, width,
        [&](std::size_t tile, std::vector<detail::Seed>* seeds) {
          const std::size_t first = tile * width;
          const std::size_t columns = std::min<std::size_t>(width, sources.size() - first);
          for (std::size_t c = 0; c < columns; ++c)
            e.search->seeds(ch, sel, sources[first + c], static_cast<std::uint32_t>(c), seeds);
        },
        [&](std::size_t tile, const detail::Key* out) {
          const std::size_t first = tile * width;
          detail::unpack_tile(out, width, std::min<std::size_t>(width, sources.size() - first), first, &m);
        },
        &p);
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
  out += part("ch load", p.ch_load) + ", " + part("selection", p.selection) + ", " + part("upward", p.upward) +
         ", " + part("h2d", p.h2d) + ", " + part("sweeps", p.sweep) + ", " + part("d2h", p.d2h);
  out += format("; total %.2f ms; %zu tiles of %zu, %zu levels, %zu selected nodes, %zu arcs", p.total * 1e3, p.tiles,
                p.tile_width, p.levels, p.selected_nodes, p.selected_arcs);
  if (p.sweep > 0.0)
    out += format("; %.3g relaxations/s in the sweeps", static_cast<double>(p.relaxations) / p.sweep);
  if (p.h2d_copies + p.d2h_copies > 0)
    out += format("; h2d %zu B in %zu copies, d2h %zu B in %zu copies", p.h2d_bytes, p.h2d_copies, p.d2h_bytes,
                  p.d2h_copies);
  return out;
}

}  // namespace routesolve::cuda
