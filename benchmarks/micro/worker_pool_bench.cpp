// The worker pool's cost per call (search/worker_pool.hpp): chains in lockstep make one call per
// recreate round and chains on threads one per epoch, so the barrier's wake-up is paid that
// often. Each call runs 8 trivial items on `workers` threads (the caller included); the time is
// wall time per call. Workers beyond the machine's cores show the cost when threads outnumber
// cores (concurrent solves, or --threads above the core count).
//
//   bench_worker_pool [--benchmark_min_time=1]

#include <benchmark/benchmark.h>

#include <cstddef>
#include <vector>

#include "routesolve/search/worker_pool.hpp"

namespace {

void BM_WorkerPoolRun(benchmark::State& state) {
  routesolve::search::WorkerPool pool(static_cast<unsigned>(state.range(0)));
  std::vector<std::size_t> done(8, 0);
  for (auto _ : state) pool.run(done.size(), [&](std::size_t i) { ++done[i]; });
  benchmark::DoNotOptimize(done.data());
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

BENCHMARK(BM_WorkerPoolRun)->Arg(1)->Arg(2)->Arg(3)->Arg(4)->UseRealTime();

BENCHMARK_MAIN();
