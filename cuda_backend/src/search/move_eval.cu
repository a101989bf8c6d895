// Batched move evaluation and application on the device: the kernel bodies of kernels.cuh in
// one generic kernel, with CUB for the segmented minimum, the candidates' sort and the offsets'
// scan (see move_eval_launch.hpp). The host twin runs the same bodies (host_engine.cpp).

#include <algorithm>

#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_segmented_reduce.cuh>

#include "../device_memory.hpp"
#include "../device_runtime.hpp"
#include "move_eval_launch.hpp"

namespace routesolve::cuda::detail::batched {
namespace {

/// Thread threadIdx.x of block blockIdx.x runs the body.
template <typename Body>
__global__ void __launch_bounds__(kBlock) grid_kernel(Body body) {
  body(threadIdx.x, blockIdx.x);
}

/// The body over engine_grid(n) on `stream` (nothing when n is 0).
template <typename Body>
void launch(const Body& body, std::uint64_t n, cudaStream_t stream) {
  if (n == 0) return;
  const Grid grid = engine_grid(n);
  grid_kernel<<<grid.blocks, grid.threads, 0, stream>>>(body);
  RS_CUDA_CHECK_LAUNCH();
}

struct Workspace {
  std::size_t moves = 0, deltas = 0, offsets = 0, mins = 0, temp = 0, temp_bytes = 0, total = 0;
  std::size_t scan_temp = 0, scan_bytes = 0;
  std::size_t keys_in = 0, keys_out = 0, values = 0, sort_segments = 0, sort_temp = 0, sort_bytes = 0;
  Workspace(std::uint64_t segments, u32 k, u32 routes = 0, u32 solutions = 0) {
    // CUB's segment counts and our offsets are 32-bit: refuse before sizing anything.
    check_offset_limit("the batched move evaluation", segments, std::max<u32>(k, 1));
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
    mins = place(segments * sizeof(i64));
    RS_CUDA_CHECK(cub::DeviceSegmentedReduce::Min(nullptr, temp_bytes, static_cast<const i64*>(nullptr),
                                                  static_cast<i64*>(nullptr), static_cast<int>(segments),
                                                  static_cast<const int*>(nullptr), static_cast<const int*>(nullptr)));
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

void evaluate_on(const ProblemView& problem, const BatchView& batch, const PrefixView& prefix,
                 std::uint32_t routes, DeviceSpan<std::byte> workspace, DeviceSpan<Move> best,
                 const u8* active, cudaStream_t stream) {
  const std::uint64_t segments = static_cast<std::uint64_t>(batch.solutions) * problem.tasks;
  const u32 k = problem.neighbours;
  launch(BuildBody{problem, batch, prefix, routes}, routes, stream);
  if (segments == 0) return;
  if (k == 0) {  // nothing to price: no move anywhere
    launch(FillBody{best.data(), segments}, segments, stream);
    return;
  }
  const Workspace w(segments, k);
  std::byte* base = workspace.data();
  auto* moves = reinterpret_cast<Move*>(base + w.moves);
  auto* deltas = reinterpret_cast<i64*>(base + w.deltas);
  auto* offsets = reinterpret_cast<int*>(base + w.offsets);
  auto* mins = reinterpret_cast<i64*>(base + w.mins);
  const std::uint64_t n = segments * k;
  launch(PriceBody{problem, batch, prefix, n, active, moves, deltas}, n, stream);
  launch(OffsetsBody{offsets, segments, k}, segments + 1, stream);
  std::size_t temp_bytes = w.temp_bytes;
  RS_CUDA_CHECK(cub::DeviceSegmentedReduce::Min(base + w.temp, temp_bytes, deltas, mins,
                                                static_cast<int>(segments), offsets, offsets + 1, stream));
  launch(GatherBody{mins, moves, segments, k, best.data()}, segments, stream);
}

}  // namespace

std::size_t evaluate_workspace_bytes(std::uint64_t segments, std::uint32_t k, std::uint32_t routes,
                                     std::uint32_t solutions) {
  return Workspace(segments, k, routes, solutions).total;
}

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
    // customers in index order (the host twin's std::stable_sort gives the same order).
    auto* keys_in = reinterpret_cast<i64*>(base + w.keys_in);
    auto* keys_out = reinterpret_cast<i64*>(base + w.keys_out);
    auto* values = reinterpret_cast<u32*>(base + w.values);
    auto* seg = reinterpret_cast<int*>(base + w.sort_segments);
    launch(KeysBody{apply.best.data(), segments, problem.tasks, keys_in, values, seg, batch.solutions},
           std::max<std::uint64_t>(segments, std::uint64_t{batch.solutions} + 1), stream);
    std::size_t sort_bytes = w.sort_bytes;
    RS_CUDA_CHECK(cub::DeviceSegmentedRadixSort::SortPairs(base + w.sort_temp, sort_bytes, keys_in, keys_out, values,
                                                           apply.cand.data(), static_cast<int>(segments),
                                                           static_cast<int>(batch.solutions), seg, seg + 1, 0,
                                                           static_cast<int>(sizeof(i64) * 8), stream));
  }
  launch(TakeBody{problem, batch, prefix, apply}, batch.solutions, stream);
  launch(LengthBody{batch, apply, routes}, std::uint64_t{routes} + 1, stream);
  std::size_t scan_bytes = w.scan_bytes;
  RS_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(base + w.scan_temp, scan_bytes, apply.length.data(),
                                              out.route_offsets.data(), static_cast<int>(routes + 1), stream));
  launch(WriteBody{problem, batch, apply, out, routes}, routes, stream);
}

}  // namespace routesolve::cuda::detail::batched
