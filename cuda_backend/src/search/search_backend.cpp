// The batched-search backends: "cuda-host" (host engine) and the solve path of "cuda" (device
// engine, see cuda_backend.cpp), with the stage profile both report.

#include "search_backend.hpp"

#include <algorithm>

#include "routesolve/cuda/batched_search.hpp"
#include "routesolve/cuda/cuda_backend.hpp"

namespace routesolve::cuda {
namespace search {

Solution solve_batched(const Problem& problem, const SolveOptions& options, MoveEngine& engine,
                       const char* backend_name) {
  SearchStats stats;
  Solution solution = batched_search(problem, options, engine, BatchedSearchOptions{}, &stats);
  const EngineTimes& e = stats.engine;
  const double device = e.h2d + e.kernels + e.d2h;
  // Stage names shared with the rest of the CUDA backend: "kernel" is the move evaluation
  // (prefix build + pricing + reduction; the host twin's loop for cuda-host), "host_search"
  // everything else after construction (packing, ruin-and-recreate, selection, verification).
  solution.profile.push_back({"construction", stats.construction});
  solution.profile.push_back({"h2d", e.h2d});
  solution.profile.push_back({"kernel", e.kernels});
  solution.profile.push_back({"d2h", e.d2h});
  solution.profile.push_back({"host_search", std::max(0.0, stats.total - device - stats.construction)});
  solution.backend = backend_name;
  return solution;
}

}  // namespace search

namespace {

class CudaHostBackend final : public Backend {
 public:
  [[nodiscard]] std::string_view name() const noexcept override { return "cuda-host"; }
  Solution solve(const Problem& problem, const SolveOptions& options) override {
    auto engine = search::make_host_engine(std::max(1u, options.threads));
    return search::solve_batched(problem, options, *engine, "cuda-host");
  }
};

}  // namespace

std::unique_ptr<Backend> make_cuda_host_backend() { return std::make_unique<CudaHostBackend>(); }

bool device_pays_for(std::size_t tasks) noexcept {
  // Cost model from the stage times of docs/BENCHMARKS.md ("Batched move evaluation"): one
  // round prices tasks x K x B x 7 = tasks x 896 moves (K 16, B 8); the host twin measured
  // 0.5-2e7 moves/s on the 2-core machine, so a round costs ~0.05-0.2 ms per task on the host,
  // where the pricing is 90% of a cuda-host solve. A device round pays a fixed cost of launches
  // and copies (estimated at ~0.3 ms: not yet measured, no device on the CI machine) and prices
  // in parallel. The device wins once a host round exceeds a few milliseconds: from ~200 tasks.
  constexpr std::size_t kMinTasks = 200;
  return tasks >= kMinTasks && device_available();
}

}  // namespace routesolve::cuda
