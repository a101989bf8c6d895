#include "networks.hpp"

#include <cctype>
#include <filesystem>
#include <thread>

#include "routesolve/dispatch/matrices.hpp"
#include "routesolve/error.hpp"

namespace routesolve::service {

NetworkSpec parse_network_spec(const std::string& text) {
  const std::size_t eq = text.find('=');
  NetworkSpec spec;
  if (eq == std::string::npos) {
    spec.file = text;
    std::string name = std::filesystem::path(text).filename().string();
    spec.name = name.substr(0, name.find('.'));
  } else {
    spec.name = text.substr(0, eq);
    spec.file = text.substr(eq + 1);
  }
  if (spec.name.empty() || spec.file.empty())
    throw invalid_input("--network", "expected NAME=FILE or FILE, got \"" + text + "\"");
  for (const char c : spec.name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_')
      throw invalid_input(
          "--network",
          "a network name holds letters, digits, '-' and '_' only: \"" + spec.name + "\"");
  return spec;
}

Networks::Networks(std::vector<NetworkSpec> specs, BackendKind matrix_backend, int device,
                   unsigned threads, double max_snap_m)
    : specs_(std::move(specs)),
      requested_(matrix_backend),
      device_(device),
      threads_(threads == 0 ? 1 : threads),
      max_snap_m_(max_snap_m) {
  for (std::size_t i = 0; i < specs_.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (specs_[i].name == specs_[j].name)
        throw invalid_input("--network", "the name \"" + specs_[i].name + "\" is given twice");
}

void Networks::load() {
  try {
    std::map<std::string, BackendKind> kinds;
    for (const NetworkSpec& spec : specs_) {
      const auto router = dispatch::load_road_router(spec.file);
      if (!router->has_coordinates())
        throw invalid_input(spec.file,
                            "the network has no coordinates: points cannot be snapped to it");
      kinds[spec.file] = dispatch::resolve_matrix_backend(requested_, spec.file, device_);
    }
    {
      const std::lock_guard lock(mutex_);
      engine_kind_ = std::move(kinds);
    }
    // The hierarchies are loaded (or built) once per process: do it now, not on the first request.
    for (const NetworkSpec& spec : specs_) (void)engine(spec.file);
    ready_ = true;
  } catch (const std::exception& e) {
    const std::lock_guard lock(mutex_);
    error_ = e.what();
  }
}

std::string Networks::error() const {
  const std::lock_guard lock(mutex_);
  return error_;
}

std::string Networks::file_of(const std::string& name) const {
  if (specs_.empty()) {
    if (name.empty()) return "";
    throw invalid_input("network",
                        "unknown network \"" + name + "\": the service holds no road network");
  }
  if (name.empty()) return specs_.front().file;
  std::string known;
  for (const NetworkSpec& s : specs_) {
    if (s.name == name) return s.file;
    known += (known.empty() ? "" : ", ") + s.name;
  }
  throw invalid_input("network",
                      "unknown network \"" + name + "\" (the service holds: " + known + ")");
}

std::shared_ptr<const network::RoadRouter> Networks::router(const std::string& file) const {
  return dispatch::load_road_router(file);
}

network::NodeMatrixFunction Networks::engine(const std::string& file) const {
  thread_local std::map<std::string, network::NodeMatrixFunction> engines;
  if (auto it = engines.find(file); it != engines.end()) return it->second;
  BackendKind kind = BackendKind::Cpu;
  {
    const std::lock_guard lock(mutex_);
    if (auto it = engine_kind_.find(file); it != engine_kind_.end()) kind = it->second;
  }
  dispatch::MatrixOptions options;
  options.network = file;
  options.backend = requested_;  // auto goes on on the host after a device fault
  options.device.index = device_;
  options.threads = threads_;
  options.max_snap_m = max_snap_m_;
  network::NodeMatrixFunction engine =
      dispatch::make_node_engine(kind, file, *router(file), options);
  engines.emplace(file, engine);
  return engine;
}

std::unique_ptr<network::MatrixProvider> Networks::provider(const std::string& file) const {
  network::NodeMatrixFunction nodes = engine(file);
  const std::string name = nodes ? "PHAST" : "Boost.Graph Dijkstra";
  return std::make_unique<network::RoadProvider>(router(file), max_snap_m_, threads_,
                                                 std::move(nodes), name);
}

network::PointMatrices Networks::point_matrices(const std::string& file,
                                                std::span<const Coordinates> points) const {
  return network::point_matrices(*router(file), points, max_snap_m_, threads_, engine(file));
}

}  // namespace routesolve::service
