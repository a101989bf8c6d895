// The batched-search backends: "cuda-host" (host engine) and the solve path of "cuda" (device
// engine, see cuda_backend.cpp), with the stage profile both report.

#include "search_backend.hpp"

#include <algorithm>

#include "routesolve/cuda/search_backend.hpp"
#include "search_view.cuh"
#include "routesolve/cuda/cuda_backend.hpp"

namespace routesolve::cuda {
namespace search {

Solution solve_batched(const Problem& problem, const SolveOptions& options, MoveEngine& engine,
                       const char* backend_name, const BatchedSearchOptions& search) {
  SearchStats stats;
  Solution solution = batched_search(problem, options, engine, search, &stats);
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
  solution.backend = stats.fallback.empty() ? backend_name : "cuda-host";
  solution.fallback = stats.fallback;
  solution.mismatches = stats.mismatched;
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

unsigned batched_move_types() noexcept { return detail::search::kMoveTypes; }

}  // namespace routesolve::cuda
