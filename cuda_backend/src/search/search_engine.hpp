#pragma once
// Host side of the batched move evaluation: packing the problem and a batch of solutions into
// one byte arena each (the layout the device buffers share, so one copy moves each), and the
// move engines that run the kernels.cuh bodies: on the host (`cuda-host`, OpenMP loop
// over blocks of the same grid) or on the device (`cuda`: kernels + CUB). Plain C++ (no CUDA types).

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "routesolve/backend.hpp"  // TransferMode
#include "routesolve/problem.hpp"
#include "kernels.cuh"

namespace routesolve::cuda::batched {

using detail::batched::ApplyView;
using detail::batched::BatchOut;
using detail::batched::BatchView;
using detail::batched::Move;
using detail::batched::PrefixView;
using detail::batched::ProblemView;

/// Arrays placed one after the other, each 256-byte aligned; `arrays` lists (offset, bytes) of
/// each, for the naive transfer mode (one copy per array).
struct Arena {
  std::vector<std::byte> bytes;
  std::vector<std::pair<std::size_t, std::size_t>> arrays;

  /// Appends `count` elements (copied from data, or zero when data is null); returns the offset.
  template <typename T>
  std::size_t add(const T* data, std::size_t count) {
    const std::size_t at = (bytes.size() + 255) / 256 * 256;
    bytes.resize(at + count * sizeof(T));
    if (data != nullptr && count > 0) std::memcpy(bytes.data() + at, data, count * sizeof(T));
    arrays.emplace_back(at, count * sizeof(T));
    return at;
  }
  template <typename T>
  std::size_t add(const std::vector<T>& v) {
    return add(v.data(), v.size());
  }
};

/// The problem packed for the engines: one arena, and the offsets of its arrays.
struct PackedProblem {
  Arena arena;
  std::uint32_t tasks = 0, vehicles = 0, dims = 0, neighbours = 0, travel_count = 0;
  std::uint32_t pickups = 0;  ///< shipment pickups (the customers priced with kPairRelocate too)
  /// (customer, neighbour, move type) triples of one solution: 7 types for every customer, the
  /// pair relocate for pickups (its scan of delivery positions counts as one).
  [[nodiscard]] std::uint64_t moves_per_solution() const {
    return std::uint64_t{neighbours} * (std::uint64_t{tasks} * detail::batched::kPairRelocate + pickups);
  }
  std::vector<std::uint64_t> matrix_n;
  std::vector<std::size_t> matrix_durations, matrix_distances, matrix_costs;  // offsets
  std::vector<TravelView> matrix_forms;  // the problem's tables: their widths or points (host addresses)
  std::size_t travel_table = 0;
  std::size_t task_loc = 0, task_setup = 0, task_service = 0, task_tw_start = 0, task_tw_end = 0,
              task_delivery = 0, task_pickup = 0, task_flags = 0, task_sibling = 0;
  std::size_t veh_start = 0, veh_end = 0, veh_travel = 0, veh_flags = 0, veh_class = 0,
              veh_tw_start = 0, veh_tw_end = 0, veh_capacity = 0, veh_max_tasks = 0,
              veh_max_duration = 0, veh_max_distance = 0, veh_fixed = 0;
  std::size_t compatible = 0, neighbour = 0;
  bool priced_anything = true;  ///< false when dims > kMaxDims (nothing can be priced)

  /// Writes the travel table (TravelView with addresses relative to `base`) into `host`, an
  /// arena-sized buffer: base = host for the host twin, the device buffer for the device.
  void write_travel_table(std::byte* host, const std::byte* base) const;
  /// The view of the arena at `base` (host arena, or its device copy).
  [[nodiscard]] ProblemView view(const std::byte* base) const;
};

/// Packs a problem. `neighbours`: K nearest tasks per task and travel index (granular lists).
PackedProblem pack_problem(const Problem& problem, unsigned neighbours);

/// One solution as the search keeps it: the task sequence of every vehicle's route.
using RouteSet = std::vector<std::vector<std::int32_t>>;

/// A batch of solutions, packed.
struct PackedBatch {
  Arena arena;
  std::uint32_t solutions = 0, routes = 0, positions = 0, tasks = 0;
  std::size_t route_offsets = 0, pos_task = 0, pos_route = 0, task_pos = 0;
  [[nodiscard]] BatchView view(const std::byte* base) const;
  /// The same arrays, writable (the second buffer of a round's application).
  [[nodiscard]] BatchOut out_view(std::byte* base) const;
};

/// Unpacks solution s of a packed batch (its arena as `base`) into a RouteSet.
RouteSet unpack_solution(const PackedBatch& layout, const std::byte* base, std::uint32_t s,
                         std::uint32_t vehicles);

/// Where ApplyView's arrays sit in one scratch arena (host vector or device buffer).
struct ApplyLayout {
  std::size_t cand = 0, used = 0, spec = 0, active = 0, applied = 0, gain = 0, length = 0, total = 0;
  std::uint32_t solutions = 0, tasks = 0, routes = 0;
  ApplyLayout() = default;
  ApplyLayout(std::uint32_t solutions, std::uint32_t tasks, std::uint32_t routes);
  [[nodiscard]] ApplyView view(std::byte* base, const Move* best) const;
};

/// Packs solutions (each RouteSet has one route per vehicle).
PackedBatch pack_batch(const PackedProblem& problem, const std::vector<const RouteSet*>& solutions);

/// The task sequence of a composed route (what price_route priced), read from a packed batch.
std::vector<std::int32_t> materialize(const BatchView& batch, const detail::batched::RouteSpec& spec);

/// Bytes of the per-position arrays for `positions` positions, and their view at `base`.
std::size_t prefix_bytes(std::uint32_t positions, std::uint32_t dims);
PrefixView prefix_view(std::byte* base, std::uint32_t positions, std::uint32_t dims);

/// Host prefix arrays of a batch (the host twin of the build kernel).
struct HostPrefix {
  std::vector<std::byte> storage;
  PrefixView view;
};
void build_prefix_host(const ProblemView& problem, const BatchView& batch, std::uint32_t routes,
                       HostPrefix& out, unsigned threads);

/// Stage times of the engines, accumulated over calls (seconds).
struct EngineTimes {
  double pack = 0.0, h2d = 0.0, kernels = 0.0, d2h = 0.0;
  std::size_t h2d_bytes = 0, h2d_copies = 0, d2h_bytes = 0, calls = 0;
  std::uint64_t moves = 0;  ///< triples priced (PackedProblem::moves_per_solution)
  std::uint64_t rounds = 0;  ///< application rounds (round())
};

/// Evaluates every (customer, neighbour, move type) of every solution of a batch and returns
/// the best improving move per (solution, customer): best[s * tasks + u] (delta kNoMove: none).
class MoveEngine {
 public:
  virtual ~MoveEngine() = default;
  [[nodiscard]] virtual std::string name() const = 0;
  /// Uploads the problem (once per solve).
  virtual void set_problem(const PackedProblem& problem) = 0;
  virtual void evaluate(const PackedBatch& batch, std::vector<Move>& best, EngineTimes& times) = 0;

  // The descent kept inside the engine (on the device for the device engine): load a batch
  // once, run rounds, fetch the result once.

  /// Takes a batch (one copy to the device); every solution active.
  virtual void load(const PackedBatch& batch, EngineTimes& times) = 0;
  /// One round on the loaded batch: prefix arrays, best move per customer (as evaluate), then
  /// per solution the greedy maximal set of non-overlapping improving moves (TakeBody, selection.cuh)
  /// applied to the batch in place of the host (new route offsets and positions, second buffer).
  /// applied[s] / gain[s]: moves applied to solution s and the sum of their deltas; a solution
  /// with none is at a local optimum and inactive from then on (priced no more).
  virtual void round(std::vector<std::uint32_t>& applied, std::vector<std::int64_t>& gain,
                     EngineTimes& times) = 0;
  /// The loaded batch as it is now, into `batch`'s arena (the layout load() got).
  virtual void fetch(PackedBatch& batch, EngineTimes& times) = 0;
};

/// The host twin: the kernels' bodies over the same grids (run_grid, an OpenMP loop over blocks).
std::unique_ptr<MoveEngine> make_host_engine(unsigned threads);

/// The device engine; Error(Device) naming the reason without a usable device (or in a
/// CPU-only build).
std::unique_ptr<MoveEngine> make_device_engine(TransferMode transfer, int device = 0);

}  // namespace routesolve::cuda::batched
