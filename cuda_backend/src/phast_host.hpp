#pragma once
// Host half of the PHAST/RPHAST matrices, shared by both devices: the RPHAST target selection
// (restricted level CSR in sweep order), the forward CH searches that seed each tile, the
// unpacking of result tiles into matrices, and the host twin of the sweep kernels. Plain C++;
// compiled in the host-twin object library (OpenMP, Thrust's OpenMP system).

#include <cstddef>
#include <cstdint>
#include <vector>

#include "phast.cuh"
#include "routesolve/contraction_hierarchy.hpp"
#include "routesolve/road_graph.hpp"

namespace routesolve::cuda::detail {

/// RPHAST selection for one target set: the nodes from which a target can be reached through
/// downward arcs, in sweep order (rank descending), with their arcs renumbered locally.
struct Selection {
  std::vector<NodeId> targets;               ///< the target set it was made for
  std::vector<std::uint32_t> first_in;       ///< nodes() + 1 entries
  std::vector<std::uint32_t> tail;           ///< local tail of each arc
  std::vector<Key> weight;                   ///< key of each arc
  std::vector<std::uint32_t> level_first;    ///< level segments of local nodes, top level first
  std::vector<std::uint32_t> local_of_rank;  ///< rank -> local index, kNoNode when not selected
  std::vector<std::uint32_t> target_local;   ///< local index of each target

  [[nodiscard]] std::size_t nodes() const noexcept {
    return first_in.empty() ? 0 : first_in.size() - 1;
  }
  [[nodiscard]] std::size_t arcs() const noexcept { return tail.size(); }
  [[nodiscard]] std::size_t levels() const noexcept {
    return level_first.empty() ? 0 : level_first.size() - 1;
  }
  [[nodiscard]] SweepGraphView view() const noexcept {
    return {{first_in.data(), first_in.size()},
            {tail.data(), tail.size()},
            {weight.data(), weight.size()}};
  }
};

/// Builds the selection (targets must be valid node ids).
Selection select_targets(const ContractionHierarchy& ch, const std::vector<NodeId>& targets);

/// Forward search in the upward graph from one node; reusable (stamped arrays).
class UpwardSearch {
 public:
  explicit UpwardSearch(std::size_t nodes);
  /// Appends a seed for every selected node the search reaches from `source` (a node id).
  void seeds(const ContractionHierarchy& ch, const Selection& selection, NodeId source,
             std::uint32_t column, std::vector<Seed>* out);
  std::uint64_t relaxations = 0;

 private:
  std::vector<Key> dist_;
  std::vector<std::uint32_t> stamp_;
  std::uint32_t current_ = 0;
  std::vector<std::pair<Key, std::uint32_t>> heap_;
  std::vector<std::uint32_t> reached_;
};

/// Writes a result tile (targets x width keys, row j = target j) into the matrix rows of the
/// sources [first_source, first_source + columns).
void unpack_tile(const Key* tile_out, std::size_t width, std::size_t columns,
                 std::size_t first_source, NodeMatrices* matrices);

/// Thread-seconds spent in each stage of the host twin.
struct HostStageTimes {
  double upward = 0.0, sweep = 0.0, unpack = 0.0;
  std::uint64_t upward_relaxations = 0;
};

// The host twin of the three kernels (phast.cu): each walks its kernel's launch grid
// (seed_grid, sweep_grid, gather_grid) through the kernel's body, on the calling thread, over a
// tile in host memory. Sweep and gather walk each block in lane groups of `lanes` threads (1, 8,
// 16, 32 or 64; any other value runs one lane at a time); by default host_lanes(width).

/// The most lanes of a host lane group.
inline constexpr std::uint32_t kMaxHostLanes = 32;

/// The largest power of two up to kMaxHostLanes that divides `width`: every lane group then lies
/// in one row of the tile (L consecutive columns of one node or target).
std::uint32_t host_lanes(std::uint32_t width) noexcept;

/// The seed kernel: tile[seed.node * width + seed.column] = seed.key.
void seed_tile(const std::vector<Seed>& seeds, Key* tile, std::uint32_t width);

/// The sweep kernel once per level, levels top-down (level_first: levels + 1 entries).
void sweep_levels(const RelaxNode& relax_node, const std::uint32_t* level_first,
                  std::size_t levels);
void sweep_levels(const RelaxNode& relax_node, const std::uint32_t* level_first, std::size_t levels,
                  std::uint32_t lanes);

/// The gather kernel: out[j * width + c] = tile[target_local[j] * width + c].
void gather_targets(const Key* tile, std::uint32_t width,
                    const std::vector<std::uint32_t>& target_local, Key* out);
void gather_targets(const Key* tile, std::uint32_t width,
                    const std::vector<std::uint32_t>& target_local, Key* out, std::uint32_t lanes);

/// The host twin: tiles of `width` sources spread over `threads` OpenMP threads; on each, the
/// upward searches, then the device's tile pipeline (kNoKey fill, seed, level sweeps, gather)
/// and unpack_tile. Fills *matrices (sized by the caller: sources x targets).
void host_sweeps(const ContractionHierarchy& ch, const Selection& selection,
                 const std::vector<NodeId>& sources, unsigned width, unsigned threads,
                 NodeMatrices* matrices, HostStageTimes* times);

}  // namespace routesolve::cuda::detail
