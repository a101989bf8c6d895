#pragma once
// The road networks a service holds: loaded once at start (dispatch caches them per process),
// looked up by name, and their matrix engines, one per worker thread (a PHAST engine keeps
// buffers between calls and is not thread-safe).

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "routesolve/backend.hpp"
#include "routesolve/network/road_router.hpp"
#include "routesolve/service/service.hpp"

namespace routesolve::service {

class Networks {
 public:
  Networks(std::vector<NetworkSpec> specs, BackendKind matrix_backend, int device, unsigned threads,
           double max_snap_m);

  /// Loads every network and its hierarchy (on the calling thread); then ready() is true, or
  /// error() names what failed.
  void load();
  [[nodiscard]] bool ready() const noexcept { return ready_; }
  [[nodiscard]] std::string error() const;
  [[nodiscard]] const std::vector<NetworkSpec>& specs() const noexcept { return specs_; }

  /// The file of network `name` ("" picks the first; "" when the service holds none). Throws
  /// invalid_input("network", ...) naming the known ones for an unknown name.
  [[nodiscard]] std::string file_of(const std::string& name) const;

  /// The loaded router of a network file.
  [[nodiscard]] std::shared_ptr<const network::RoadRouter> router(const std::string& file) const;

  /// This thread's node engine for a network file (empty: the router's Dijkstra).
  network::NodeMatrixFunction engine(const std::string& file) const;

  /// A matrix provider over network `file` with this thread's engine.
  std::unique_ptr<network::MatrixProvider> provider(const std::string& file) const;

  /// Snaps and computes the matrices between points (deciseconds, metres).
  network::PointMatrices point_matrices(const std::string& file,
                                        std::span<const Coordinates> points) const;

  [[nodiscard]] double max_snap_m() const noexcept { return max_snap_m_; }

 private:
  std::vector<NetworkSpec> specs_;
  BackendKind requested_;
  int device_;
  unsigned threads_;
  double max_snap_m_;
  std::map<std::string, BackendKind> engine_kind_;  ///< per file, resolved at load
  std::atomic<bool> ready_{false};
  mutable std::mutex mutex_;
  std::string error_;
};

}  // namespace routesolve::service
