#pragma once
// Launchers of the batched move-evaluation kernels (move_eval.cu). CUDA builds only.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "kernels.cuh"

namespace routesolve::cuda::detail::batched {

/// Bytes of scratch launch_evaluate needs for `segments` (solution, customer) pairs of K moves
/// (and launch_round, with the batch's `routes` and `solutions`).
std::size_t evaluate_workspace_bytes(std::uint64_t segments, std::uint32_t k, std::uint32_t routes = 0,
                                     std::uint32_t solutions = 0);

/// On `stream`, asynchronously: prefix arrays of every route (BuildBody, one thread per route),
/// one thread per (solution, customer, neighbour) pricing its move types (PriceBody),
/// cub::DeviceSegmentedReduce::Min over each customer's K deltas, and the gather of the first
/// best Move per customer into `best` (GatherBody; solutions x tasks). Checks every launch.
void launch_evaluate(const ProblemView& problem, const BatchView& batch, const PrefixView& prefix,
                     std::uint32_t routes, DeviceSpan<std::byte> workspace, DeviceSpan<Move> best,
                     cudaStream_t stream);

/// One descent round on `stream`, asynchronously: launch_evaluate's work (solutions with
/// apply.active[s] == 0 priced as "no move") into apply.best, then the candidates sorted by delta
/// (KeysBody, cub::DeviceSegmentedRadixSort, stable: the host twin's order) and take_moves
/// (TakeBody, one thread per solution), route_length (LengthBody, one per route),
/// cub::DeviceScan::ExclusiveSum of the lengths into out.route_offsets, and write_route
/// (WriteBody, one per route) into `out`, the batch's second buffer.
void launch_round(const ProblemView& problem, const BatchView& batch, const PrefixView& prefix,
                  std::uint32_t routes, DeviceSpan<std::byte> workspace, const ApplyView& apply,
                  const BatchOut& out, cudaStream_t stream);

}  // namespace routesolve::cuda::detail::batched
