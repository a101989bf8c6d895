// The matrix providers' selector (matrices.hpp): networks and hierarchies loaded once per
// process, the auto rule, and the PHAST sweeps of the CUDA backend as a road network's engine.

#include "routesolve/dispatch/matrices.hpp"

#include <filesystem>
#include <map>
#include <mutex>
#include <utility>

#include "routesolve/contraction_hierarchy.hpp"
#include "routesolve/cuda/cuda_backend.hpp"
#include "routesolve/cuda/matrix_engine.hpp"
#include "routesolve/cuda/self_test.hpp"
#include "routesolve/dispatch/device_fallback.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/road_formats.hpp"
#include "routesolve/timing.hpp"

namespace routesolve::dispatch {
namespace {

/// The network's contraction hierarchy: the "ch" section of a .rsnet cache (written by `network
/// build`), else built now. *seconds gets the load or build time (0 when loaded before).
std::shared_ptr<const ContractionHierarchy> open_ch(const std::string& file, const RoadGraph& graph,
                                                    double* seconds) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const ContractionHierarchy>> loaded;
  const std::lock_guard lock(mutex);
  *seconds = 0.0;
  if (auto it = loaded.find(file); it != loaded.end()) return it->second;
  const auto t0 = Clock::now();
  std::shared_ptr<const ContractionHierarchy> ch;
  if (io::is_network_cache(file))
    if (auto bytes = io::read_cache_section(file, kChCacheSection))
      ch = std::make_shared<const ContractionHierarchy>(ContractionHierarchy::from_bytes(*bytes));
  if (!ch || ch->graph_fingerprint != graph_fingerprint(graph))
    ch = std::make_shared<const ContractionHierarchy>(build_contraction_hierarchy(graph));
  *seconds = seconds_since(t0);
  loaded.emplace(file, ch);
  return ch;
}

/// A road provider whose stage list carries its engine's profile and the network load.
class ProfiledRoadProvider final : public network::MatrixProvider {
 public:
  ProfiledRoadProvider(std::unique_ptr<network::RoadProvider> road,
                       std::shared_ptr<EngineProfile> profile, double load_seconds)
      : road_(std::move(road)), profile_(std::move(profile)), load_seconds_(load_seconds) {}
  [[nodiscard]] std::string name() const override { return road_->name(); }
  [[nodiscard]] network::ProvidedMatrices compute(
      std::span<const Coordinates> points, const network::MatrixScale& scale) const override {
    network::ProvidedMatrices m = road_->compute(points, scale);
    std::vector<network::ProviderStage> stages;
    if (load_seconds_ > 0) stages.push_back({"network_load", load_seconds_});
    for (const auto& s : m.stages)
      if (s.name != "matrix" || !profile_) stages.push_back(s);
    if (profile_) stages.insert(stages.end(), profile_->stages.begin(), profile_->stages.end());
    m.stages = std::move(stages);
    return m;
  }
  [[nodiscard]] std::string unplaced_reason(const Coordinates& point) const override {
    return road_->unplaced_reason(point);
  }
  [[nodiscard]] std::vector<Coordinates> leg(const network::ProvidedMatrices& m,
                                             std::span<const Coordinates> points, std::size_t from,
                                             std::size_t to) const override {
    return road_->leg(m, points, from, to);
  }

 private:
  std::unique_ptr<network::RoadProvider> road_;
  std::shared_ptr<EngineProfile> profile_;
  double load_seconds_;
};

/// The sweeps a node engine runs: the device's until it faults, then the host twin's (auto), or
/// none (an explicit cuda: every later call fails with the reason, the device is not asked again).
struct Sweeps {
  std::mutex mutex;
  std::shared_ptr<cuda::PhastMatrixEngine> engine;
  bool on_device = false;
  std::string fallback;  ///< why the device was left for the host twin
  std::string failed;    ///< why there are no sweeps (explicit cuda after a fault)

  /// A device exception: its devices are unusable for the process; auto goes on on `host`,
  /// an explicit cuda fails. Called under the mutex.
  void fault(const Error& e, const std::vector<int>& indices, bool automatic,
             const RoadGraph& graph, const ContractionHierarchy& ch,
             const cuda::PhastOptions& host) {
    const std::string reason = std::string("failed during a matrix: ") + e.what();
    std::string who = "device";
    for (const int index : indices) {
      cuda::mark_device_unusable(index, reason);
      who += who.size() > 6 ? ','
                            : ' ';  // appended apart: GCC 12's -Wrestrict misfires on "x" + string
      who += std::to_string(index);
    }
    on_device = false;
    if (automatic) {
      fallback = who + " " + reason + "; the matrices continued on cuda-host";
      engine = std::make_shared<cuda::PhastMatrixEngine>(graph, ch, host);
    } else {
      failed = "CUDA backend requested but " + who + " " + reason;
      engine.reset();
    }
  }
};

}  // namespace

BackendKind resolve_matrix_backend(BackendKind requested, const std::string& network_file,
                                   int device_index, std::string* fallback) {
  if (fallback != nullptr) fallback->clear();
  if (requested != BackendKind::Auto) return requested;
  if (cuda::device_available()) {
    const DeviceChoice choice = use_device(BackendKind::Auto, device_index);
    if (fallback != nullptr) *fallback = choice.fallback;
    return choice.kind;
  }
  if (io::is_network_cache(network_file) && io::read_cache_section(network_file, kChCacheSection))
    return BackendKind::CudaHost;
  return BackendKind::Cpu;
}

std::shared_ptr<const network::RoadRouter> load_road_router(const std::string& file,
                                                            double* load_seconds) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const network::RoadRouter>> loaded;
  const std::lock_guard lock(mutex);
  if (load_seconds != nullptr) *load_seconds = 0.0;
  if (auto it = loaded.find(file); it != loaded.end()) return it->second;
  if (!std::filesystem::exists(file)) throw invalid_input(file, "road network file not found");
  const auto t0 = Clock::now();
  auto router = std::make_shared<const network::RoadRouter>(io::read_network(file));
  if (load_seconds != nullptr) *load_seconds = seconds_since(t0);
  loaded.emplace(file, router);
  return router;
}

network::NodeMatrixFunction make_node_engine(BackendKind engine, const std::string& network_file,
                                             const network::RoadRouter& router,
                                             const MatrixOptions& options,
                                             std::shared_ptr<EngineProfile> profile) {
  if (engine == BackendKind::Cpu) return {};
  if (engine == BackendKind::Auto)
    throw Error(ErrorCode::Internal, "make_node_engine: resolve auto first");
  const std::vector<int> indices = options.device.indices.empty()
                                       ? std::vector<int>{options.device.index}
                                       : options.device.indices;
  if (engine == BackendKind::Cuda)
    for (const int index : indices)
      (void)use_device(BackendKind::Cuda, index);  // throws when unusable
  cuda::PhastOptions phast;
  phast.device = engine == BackendKind::Cuda ? cuda::MatrixDevice::Cuda : cuda::MatrixDevice::Host;
  phast.transfer = options.device.transfer;
  phast.device_index = indices.front();
  if (engine == BackendKind::Cuda) phast.device_indices = indices;
  phast.threads = options.threads;
  double ch_load = 0.0;
  const auto ch = open_ch(network_file, router.graph(), &ch_load);
  // A device exception, opening the engine or in a call, marks the devices unusable; auto goes
  // on on the host twin's sweeps (the same matrices), an explicit cuda fails naming it.
  const bool automatic = options.backend == BackendKind::Auto;
  cuda::PhastOptions host = phast;
  host.device = cuda::MatrixDevice::Host;
  host.device_indices.clear();
  const RoadGraph* graph = &router.graph();
  auto sweeps = std::make_shared<Sweeps>();
  sweeps->on_device = engine == BackendKind::Cuda;
  try {
    sweeps->engine = std::make_shared<cuda::PhastMatrixEngine>(*graph, *ch, phast);
  } catch (const Error& e) {
    if (!sweeps->on_device || (e.code() != ErrorCode::Device && e.code() != ErrorCode::OutOfMemory))
      throw;
    sweeps->fault(e, indices, automatic, *graph, *ch, host);
    if (!sweeps->failed.empty()) throw Error(ErrorCode::Device, sweeps->failed);
  }
  if (profile) profile->stages = {{"ch_load", ch_load}};
  return [sweeps, ch, profile, ch_load, graph, host, indices, automatic](
             std::span<const NodeId> sources, std::span<const NodeId> targets) {
    const std::vector<NodeId> from(sources.begin(), sources.end()),
        to(targets.begin(), targets.end());
    cuda::MatrixProfile call;
    NodeMatrices m;
    std::shared_ptr<cuda::PhastMatrixEngine> running;
    bool on_device = false;
    {
      const std::lock_guard lock(sweeps->mutex);
      if (!sweeps->failed.empty()) throw Error(ErrorCode::Device, sweeps->failed);
      running = sweeps->engine;
      on_device = sweeps->on_device;
    }
    try {
      m = running->compute(from, to, &call);
    } catch (const Error& e) {
      if (!on_device || (e.code() != ErrorCode::Device && e.code() != ErrorCode::OutOfMemory))
        throw;
      {
        const std::lock_guard lock(sweeps->mutex);
        // The first call to fault switches every later one.
        if (sweeps->on_device) sweeps->fault(e, indices, automatic, *graph, *ch, host);
        if (!sweeps->failed.empty()) throw Error(ErrorCode::Device, sweeps->failed);
        running = sweeps->engine;
      }
      call = cuda::MatrixProfile{};
      m = running->compute(from, to, &call);
    }
    if (profile) {
      {
        const std::lock_guard lock(sweeps->mutex);
        profile->fallback = sweeps->fallback;
      }
      call.ch_load = ch_load;
      profile->stages = {{"ch_load", ch_load},           {"matrix_selection", call.selection},
                         {"matrix_upward", call.upward}, {"matrix_h2d", call.h2d},
                         {"matrix_sweeps", call.sweep},  {"matrix_d2h", call.d2h},
                         {"matrix_unpack", call.unpack}};
      profile->work = call.relaxations;
      profile->seconds = call.total;
      profile->summary = cuda::format_profile(call);
    }
    return m;
  };
}

std::unique_ptr<network::MatrixProvider> make_matrix_provider(const MatrixOptions& options) {
  if (options.network.empty())
    return std::make_unique<network::GreatCircleProvider>(options.speed_mps);
  double load_seconds = 0.0;
  auto router = load_road_router(options.network, &load_seconds);
  std::string fallback;
  const BackendKind engine =
      resolve_matrix_backend(options.backend, options.network, options.device.index, &fallback);
  std::shared_ptr<EngineProfile> profile =
      engine == BackendKind::Cpu ? nullptr : std::make_shared<EngineProfile>();
  network::NodeMatrixFunction nodes =
      make_node_engine(engine, options.network, *router, options, profile);
  const std::string engine_name = engine == BackendKind::Cpu
                                      ? "Boost.Graph Dijkstra"
                                      : "PHAST, " + std::string(to_string(engine)) +
                                            (fallback.empty() ? "" : " (" + fallback + ")");
  auto road = std::make_unique<network::RoadProvider>(router, options.max_snap_m, options.threads,
                                                      std::move(nodes), engine_name);
  return std::make_unique<ProfiledRoadProvider>(std::move(road), std::move(profile), load_seconds);
}

}  // namespace routesolve::dispatch
