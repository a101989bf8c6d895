// The batched-search backends: "cuda-host" (host engine) and the solve path of "cuda" (device
// engine, see cuda_backend.cpp), with the stage profile both report.

#include "search_backend.hpp"

#include <algorithm>

#include "routesolve/cuda/auto_policy.hpp"
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
  // The cost model of auto_policy.hpp with what a task count tells: one matrix of tasks + 1
  // locations, and no time limit (one descent: the case where the fixed cost weighs most).
  AutoInputs in;
  in.tasks = tasks;
  in.locations = tasks + 1;
  in.device = device_available();
  return estimate_auto(in).use_device;
}

bool device_pays_for(const Problem& problem, const SolveOptions& options) noexcept {
  return estimate_auto(auto_inputs(problem, options)).use_device;
}

}  // namespace routesolve::cuda
