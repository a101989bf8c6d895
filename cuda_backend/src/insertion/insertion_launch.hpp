#pragma once
// Launchers of the batched insertion kernels (insertion.cu). CUDA builds only.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "insertion_kernels.cuh"

namespace routesolve::cuda::detail::insertion {

/// On `stream`, asynchronously: the records' moves (one block per record), PriceRowBody over
/// every row (delta, j), and the per-request lexicographic minimum of (delta, row) into `best`
/// (one block per request).
void launch_insertion(const BatchView& batch, const Move* moves, std::uint32_t move_count,
                      const std::byte* records, std::byte* store, std::int64_t* delta,
                      std::uint64_t* j, BestRow* best, cudaStream_t stream);

}  // namespace routesolve::cuda::detail::insertion
