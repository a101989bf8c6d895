// The batched insertion kernels: tour records into the store, every row priced by the
// search's position body (insertion_kernels.cuh), and the best row per request.

#include "../device_runtime.hpp"
#include "insertion_launch.hpp"

namespace routesolve::cuda::detail::insertion {
namespace {

constexpr std::uint32_t kThreads = 128;

__global__ void __launch_bounds__(kThreads) move_records(MoveRecordBody body) {
  body(threadIdx.x, blockIdx.x, blockDim.x);
}

__global__ void __launch_bounds__(kThreads) price_rows(PriceRowBody body) {
  body(threadIdx.x, blockIdx.x, blockDim.x);
}

__global__ void __launch_bounds__(kThreads)
    best_rows(BatchView batch, const std::int64_t* delta, const std::uint64_t* j, BestRow* best) {
  // Plain arrays: __shared__ variables take no constructors.
  __shared__ std::int64_t deltas[kThreads];
  __shared__ std::uint64_t rows[kThreads], js[kThreads];
  const std::uint32_t r = blockIdx.x;
  BestRow mine;
  for (std::uint64_t row = batch.request_rows[r] + threadIdx.x; row < batch.request_rows[r + 1];
       row += blockDim.x) {
    const BestRow here{delta[row], row, j[row]};
    if (before(here, mine)) mine = here;
  }
  deltas[threadIdx.x] = mine.delta;
  rows[threadIdx.x] = mine.row;
  js[threadIdx.x] = mine.j;
  __syncthreads();
  for (std::uint32_t half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) {
      const BestRow other{deltas[threadIdx.x + half], rows[threadIdx.x + half],
                          js[threadIdx.x + half]};
      const BestRow here{deltas[threadIdx.x], rows[threadIdx.x], js[threadIdx.x]};
      if (before(other, here)) {
        deltas[threadIdx.x] = other.delta;
        rows[threadIdx.x] = other.row;
        js[threadIdx.x] = other.j;
      }
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) best[r] = BestRow{deltas[0], rows[0], js[0]};
}

}  // namespace

void launch_insertion(const BatchView& batch, const Move* moves, std::uint32_t move_count,
                      const std::byte* records, std::byte* store, std::int64_t* delta,
                      std::uint64_t* j, BestRow* best, cudaStream_t stream) {
  if (move_count > 0) {
    move_records<<<move_count, kThreads, 0, stream>>>(MoveRecordBody{moves, records, store});
    RS_CUDA_CHECK_LAUNCH();
  }
  if (batch.rows > 0) {
    const auto blocks = static_cast<std::uint32_t>((batch.rows + kThreads - 1) / kThreads);
    price_rows<<<blocks, kThreads, 0, stream>>>(PriceRowBody{batch, delta, j});
    RS_CUDA_CHECK_LAUNCH();
  }
  if (batch.requests > 0) {
    best_rows<<<batch.requests, kThreads, 0, stream>>>(batch, delta, j, best);
    RS_CUDA_CHECK_LAUNCH();
  }
}

}  // namespace routesolve::cuda::detail::insertion
