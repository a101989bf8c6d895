// Batched move evaluation and application on the device: the search_view.cuh functors in kernels,
// with CUB for the segmented ArgMin, the candidates' sort and the offsets' scan (see move_eval_launch.hpp).

#include <algorithm>

#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_segmented_reduce.cuh>

#include "../device_runtime.hpp"
#include "move_eval_launch.hpp"

namespace routesolve::cuda::detail::search {
namespace {

constexpr unsigned kBlock = 128;

using ArgMinPair = cub::KeyValuePair<int, i64>;

__global__ void __launch_bounds__(kBlock)
    build_kernel(ProblemView p, BatchView b, PrefixView x, u32 routes) {
  const u32 r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < routes) build_route(p, b, x, r);
}

__global__ void __launch_bounds__(kBlock)
    price_kernel(ProblemView p, BatchView b, PrefixView x, std::uint64_t n, const u8* active, Move* moves,
                 i64* deltas) {
  const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::uint64_t per_solution = static_cast<std::uint64_t>(p.tasks) * p.neighbours;
  const auto sol = static_cast<u32>(i / per_solution);
  const std::uint64_t rest = i % per_solution;
  const auto u = static_cast<i32>(rest / p.neighbours);
  const auto k = static_cast<u32>(rest % p.neighbours);
  const Move m = active != nullptr && active[sol] == 0u ? Move{} : best_move(p, b, x, sol, u, k);
  moves[i] = m;
  deltas[i] = m.delta;
}

__global__ void offsets_kernel(int* offsets, std::uint64_t segments, u32 k) {
  const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i <= segments) offsets[i] = static_cast<int>(i * k);
}

/// The first of the segment's moves with the minimum delta (the ArgMin's value): the same
/// choice as the host twin's loop, whatever index convention the reduction uses.
__global__ void gather_kernel(const ArgMinPair* mins, const Move* moves, std::uint64_t segments, u32 k,
                              Move* best) {
  const std::uint64_t s = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (s >= segments) return;
  Move out;
  const i64 value = mins[s].value;
  if (value != kNoMove) {
    for (u32 j = 0; j < k; ++j)
      if (moves[s * k + j].delta == value) {
        out = moves[s * k + j];
        break;
      }
  }
  best[s] = out;
}

__global__ void fill_kernel(Move* best, std::uint64_t n) {
  const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) best[i] = Move{};
}

/// Sort keys: every customer's best delta (kNoMove: none) with the customer as value, and the
/// solutions' segment offsets.
__global__ void __launch_bounds__(kBlock)
    keys_kernel(const Move* best, std::uint64_t n, u32 tasks, i64* keys, u32* values, int* segments, u32 solutions) {
  const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    keys[i] = best[i].delta;
    values[i] = static_cast<u32>(i % tasks);
  }
  if (i <= solutions) segments[i] = static_cast<int>(i * tasks);
}

/// One thread per solution walks its sorted customers (take_moves).
__global__ void take_kernel(ProblemView p, BatchView b, PrefixView x, ApplyView a) {
  const u32 s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < b.solutions) take_moves(p, b, x, a, s, p.tasks);
}

__global__ void __launch_bounds__(kBlock) length_kernel(BatchView b, ApplyView a, u32 routes) {
  const u32 r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r <= routes) route_length(b, a, r, routes);
}

__global__ void __launch_bounds__(kBlock) write_kernel(ProblemView p, BatchView b, ApplyView a, BatchOut out,
                                                       u32 routes) {
  const u32 r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < routes) write_route(p, b, a, out, r);
}

struct Workspace {
  std::size_t moves = 0, deltas = 0, offsets = 0, mins = 0, temp = 0, temp_bytes = 0, total = 0;
  std::size_t scan_temp = 0, scan_bytes = 0;
  std::size_t keys_in = 0, keys_out = 0, values = 0, sort_segments = 0, sort_temp = 0, sort_bytes = 0;
  Workspace(std::uint64_t segments, u32 k, u32 routes = 0, u32 solutions = 0) {
    const std::uint64_t n = segments * k;
    std::size_t at = 0;
    const auto place = [&at](std::size_t bytes) {
      const std::size_t here = at;
      at = (at + bytes + 255) / 256 * 256;
      return here;
    };
    moves = place(n * sizeof(Move));
    deltas = place(n * sizeof(i64));
    offsets = place((segments + 1) * sizeof(int));
    mins = place(segments * sizeof(ArgMinPair));
    RS_CUDA_CHECK(cub::DeviceSegmentedReduce::ArgMin(nullptr, temp_bytes, static_cast<const i64*>(nullptr),
                                                     static_cast<ArgMinPair*>(nullptr),
                                                     static_cast<std::int64_t>(segments),
                                                     static_cast<const int*>(nullptr),
                                                     static_cast<const int*>(nullptr)));
    temp = place(temp_bytes);
    if (routes > 0) {
      RS_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, static_cast<const u32*>(nullptr),
                                                  static_cast<u32*>(nullptr), static_cast<int>(routes + 1)));
      scan_temp = place(scan_bytes);
    }
    if (solutions > 0) {
      keys_in = place(segments * sizeof(i64));
      keys_out = place(segments * sizeof(i64));
      values = place(segments * sizeof(u32));
      sort_segments = place((std::size_t{solutions} + 1) * sizeof(int));
      RS_CUDA_CHECK(cub::DeviceSegmentedRadixSort::SortPairs(
          nullptr, sort_bytes, static_cast<const i64*>(nullptr), static_cast<i64*>(nullptr),
          static_cast<const u32*>(nullptr), static_cast<u32*>(nullptr), static_cast<int>(segments),
          static_cast<int>(solutions), static_cast<const int*>(nullptr), static_cast<const int*>(nullptr)));
      sort_temp = place(sort_bytes);
    }
    total = at;
  }
};

unsigned blocks_for(std::uint64_t n) { return static_cast<unsigned>((n + kBlock - 1) / kBlock); }

}  // namespace

std::size_t evaluate_workspace_bytes(std::uint64_t segments, std::uint32_t k, std::uint32_t routes,
                                     std::uint32_t solutions) {
  return Workspace(segments, k, routes, solutions).total;
}

namespace {

void evaluate_on(const ProblemView& problem, const BatchView& batch, const PrefixView& prefix,
                 std::uint32_t routes, DeviceSpan<std::byte> workspace, DeviceSpan<Move> best,
                 const u8* active, cudaStream_t stream);

}  // namespace

void launch_evaluate(const ProblemView& problem, const BatchView& batch, const PrefixView& prefix,
                     std::uint32_t routes, DeviceSpan<std::byte> workspace, DeviceSpan<Move> best,
                     cudaStream_t stream) {
  evaluate_on(problem, batch, prefix, routes, workspace, best, nullptr, stream);
}

void launch_round(const ProblemView& problem, const BatchView& batch, const PrefixView& prefix,
                  std::uint32_t routes, DeviceSpan<std::byte> workspace, const ApplyView& apply,
                  const BatchOut& out, cudaStream_t stream) {
  const DeviceSpan<Move> best{const_cast<Move*>(apply.best.data()), apply.best.size()};
  evaluate_on(problem, batch, prefix, routes, workspace, best, apply.active.data(), stream);
  const std::uint64_t segments = static_cast<std::uint64_t>(batch.solutions) * problem.tasks;
  const Workspace w(segments, problem.neighbours, routes, batch.solutions);
  std::byte* base = workspace.data();
  if (segments > 0) {
    // Candidates of every solution in goes_first order: a stable radix sort by delta of the
    // customers in index order (the host twin's heap sort by (delta, customer) is the same order).
    auto* keys_in = reinterpret_cast<i64*>(base + w.keys_in);
    auto* keys_out = reinterpret_cast<i64*>(base + w.keys_out);
    auto* values = reinterpret_cast<u32*>(base + w.values);
    auto* seg = reinterpret_cast<int*>(base + w.sort_segments);
    keys_kernel<<<blocks_for(std::max<std::uint64_t>(segments, std::uint64_t{batch.solutions} + 1)), kBlock, 0,
                  stream>>>(apply.best.data(), segments, problem.tasks, keys_in, values, seg, batch.solutions);
    RS_CUDA_CHECK_LAUNCH();
    std::size_t sort_bytes = w.sort_bytes;
    RS_CUDA_CHECK(cub::DeviceSegmentedRadixSort::SortPairs(base + w.sort_temp, sort_bytes, keys_in, keys_out, values,
                                                           apply.cand.data(), static_cast<int>(segments),
                                                           static_cast<int>(batch.solutions), seg, seg + 1, 0,
                                                           static_cast<int>(sizeof(i64) * 8), stream));
  }
  take_kernel<<<blocks_for(batch.solutions), kBlock, 0, stream>>>(problem, batch, prefix, apply);
  RS_CUDA_CHECK_LAUNCH();
  length_kernel<<<blocks_for(std::uint64_t{routes} + 1), kBlock, 0, stream>>>(batch, apply, routes);
  RS_CUDA_CHECK_LAUNCH();
  std::size_t scan_bytes = w.scan_bytes;
  RS_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(base + w.scan_temp, scan_bytes, apply.length.data(),
                                              out.route_offsets.data(), static_cast<int>(routes + 1), stream));
  write_kernel<<<blocks_for(routes), kBlock, 0, stream>>>(problem, batch, apply, out, routes);
  RS_CUDA_CHECK_LAUNCH();
}

namespace {

void evaluate_on(const ProblemView& problem, const BatchView& batch, const PrefixView& prefix,
                 std::uint32_t routes, DeviceSpan<std::byte> workspace, DeviceSpan<Move> best,
                 const u8* active, cudaStream_t stream) {
  const std::uint64_t segments = static_cast<std::uint64_t>(batch.solutions) * problem.tasks;
  const u32 k = problem.neighbours;
  if (routes > 0) {
    build_kernel<<<blocks_for(routes), kBlock, 0, stream>>>(problem, batch, prefix, routes);
    RS_CUDA_CHECK_LAUNCH();
  }
  if (segments == 0) return;
  if (k == 0) {  // nothing to price: no move anywhere
    fill_kernel<<<blocks_for(segments), kBlock, 0, stream>>>(best.data(), segments);
    RS_CUDA_CHECK_LAUNCH();
    return;
  }
  const Workspace w(segments, k);
  std::byte* base = workspace.data();
  auto* moves = reinterpret_cast<Move*>(base + w.moves);
  auto* deltas = reinterpret_cast<i64*>(base + w.deltas);
  auto* offsets = reinterpret_cast<int*>(base + w.offsets);
  auto* mins = reinterpret_cast<ArgMinPair*>(base + w.mins);
  const std::uint64_t n = segments * k;
  price_kernel<<<blocks_for(n), kBlock, 0, stream>>>(problem, batch, prefix, n, active, moves, deltas);
  RS_CUDA_CHECK_LAUNCH();
  offsets_kernel<<<blocks_for(segments + 1), kBlock, 0, stream>>>(offsets, segments, k);
  RS_CUDA_CHECK_LAUNCH();
  std::size_t temp_bytes = w.temp_bytes;
  RS_CUDA_CHECK(cub::DeviceSegmentedReduce::ArgMin(base + w.temp, temp_bytes, deltas, mins,
                                                   static_cast<std::int64_t>(segments), offsets,
                                                   offsets + 1, stream));
  gather_kernel<<<blocks_for(segments), kBlock, 0, stream>>>(mins, moves, segments, k, best.data());
  RS_CUDA_CHECK_LAUNCH();
}

}  // namespace

}  // namespace routesolve::cuda::detail::search
