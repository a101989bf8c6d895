#pragma once
// Travel matrices as batched (min,+) matrix operations: PHAST/RPHAST sweeps over a contraction
// hierarchy. Plain C++: no CUDA types in this header.
//
// For a tile of S sources (the columns of a dense matrix D, one row of S keys per node), the
// upward phase is a forward CH search per source (host); the downward phase visits the levels of
// the hierarchy top-down, and for every node v of a level computes
//     D[v][s] = min(D[v][s], D[u][s] + w(u, v))   over its arcs from higher levels,
// i.e. one (min,+) sparse x dense product per level; the nodes of a level are independent.
// RPHAST: the sweep is restricted to the nodes from which a target can be reached downward
// (selected once per target set), then the target rows are read. Keys are the 64-bit PathKey, so
// durations AND distances equal Dijkstra's exactly.
//
// Device::Host runs the same per-node functor in a host loop (OpenMP over tiles): `cuda-host`,
// always built and tested. Device::Cuda runs one kernel per level per tile on the GPU.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "routesolve/contraction_hierarchy.hpp"
#include "routesolve/cuda/route_eval.hpp"  // TransferMode
#include "routesolve/road_graph.hpp"

namespace routesolve::cuda {

/// Where the sweeps run.
enum class MatrixDevice {
  Host,  ///< the host twin ("cuda-host"): same functors, OpenMP threads
  Cuda,  ///< the GPU ("cuda"); Error(Device) when none is usable
};

struct PhastOptions {
  MatrixDevice device = MatrixDevice::Host;
  /// Pinned: one staged cudaMemcpyAsync per batch, result tiles through pinned double buffers on
  /// two streams. Naive: pageable memory, one copy per array / per result row, no overlap.
  TransferMode transfer = TransferMode::Pinned;
  unsigned tile_width = 0;  ///< sources per tile (multiple of 8, <= 256); 0: 32 host, 256 device
  unsigned threads = 0;     ///< host threads; 0: all hardware threads
  int device_index = 0;     ///< CUDA device
  /// Several devices: the source tiles are split over them in contiguous shares, one host thread
  /// per device, each with its own copy of the selection (empty: device_index alone). With
  /// MatrixDevice::Host the entries are virtual devices: each share runs on its own thread
  /// through the host twin, which is how the split is tested without a GPU.
  std::vector<int> device_indices{};
};

/// The tiles [first, second) that device `d` of `devices` computes out of `tiles`: contiguous
/// shares whose sizes differ by one at most, in device order.
std::pair<std::size_t, std::size_t> tile_share(std::size_t tiles, std::size_t devices,
                                               std::size_t d) noexcept;

/// Where the time of one compute() went, in seconds, and how much work it did. Host-twin stage
/// times are thread-seconds scaled to wall time (the stages run interleaved on every thread).
struct MatrixProfile {
  double ch_load = 0.0;  ///< reading/building the hierarchy: set by the caller (the engine has it)
  double selection = 0.0;  ///< RPHAST target selection and the restricted level CSR
  double upward = 0.0;     ///< forward CH searches of the sources (host)
  double h2d = 0.0;        ///< host -> device copies (graph, seeds, target ids)
  double sweep = 0.0;      ///< downward sweeps (kernels or host loop), target gather included
  double d2h = 0.0;  ///< device -> host copies of result tiles (device events; 0 on the host twin)
  double unpack = 0.0;  ///< unpacking result tiles into the matrices (host work, not a transfer)
  double total = 0.0;   ///< wall time of compute()
  std::uint64_t relaxations = 0;  ///< (min,+) relaxations of the sweeps (arcs x sources)
  std::size_t selected_nodes = 0, selected_arcs = 0, levels = 0, tiles = 0, tile_width = 0;
  std::size_t h2d_bytes = 0, h2d_copies = 0, d2h_bytes = 0, d2h_copies = 0;
  bool selection_reused = false;  ///< same target set as the previous call
  std::string device;             ///< "cuda-host (2 threads)" or the GPU's name
};

/// Text name of a device ("cuda-host", "cuda").
std::string_view to_string(MatrixDevice device) noexcept;

/// Many-to-many matrices through PHAST/RPHAST sweeps. Borrows the hierarchy (it must outlive the
/// engine). Keeps its device buffers and the last target selection between calls. Move-only;
/// compute() is not thread-safe.
class PhastMatrixEngine {
 public:
  /// Checks that `ch` belongs to `graph` (sizes and fingerprint: Error(InvalidInput) otherwise);
  /// with MatrixDevice::Cuda, throws Error(Device) naming the reason when no device is usable.
  PhastMatrixEngine(const RoadGraph& graph, const ContractionHierarchy& ch,
                    const PhastOptions& options = {});
  ~PhastMatrixEngine();
  PhastMatrixEngine(PhastMatrixEngine&&) noexcept;
  PhastMatrixEngine& operator=(PhastMatrixEngine&&) noexcept;
  PhastMatrixEngine(const PhastMatrixEngine&) = delete;
  PhastMatrixEngine& operator=(const PhastMatrixEngine&) = delete;

  [[nodiscard]] const PhastOptions& options() const noexcept;

  /// Durations (deciseconds) and distances (metres), row = source, column = target; kUnreachable
  /// where no path exists. Throws invalid_input naming sources[i] / targets[j] out of range.
  NodeMatrices compute(const std::vector<NodeId>& sources, const std::vector<NodeId>& targets,
                       MatrixProfile* profile = nullptr);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// One-line summary of a profile: stage times and shares, relaxations per second.
std::string format_profile(const MatrixProfile& profile);

}  // namespace routesolve::cuda
