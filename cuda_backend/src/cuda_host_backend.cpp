// The "cuda-host" backend: the search driver with the batched insertion engine's host twin.

#include <algorithm>
#include <optional>
#include <string>

#include "insertion/batched_solve.hpp"
#include "routesolve/cuda/search_backend.hpp"

namespace routesolve::cuda {

namespace {

class CudaHostBackend final : public Backend {
 public:
  [[nodiscard]] std::string_view name() const noexcept override { return "cuda-host"; }
  [[nodiscard]] std::optional<std::string> supports(const Problem& problem) const override {
    return insertion::batched_unsupported(problem);
  }
  Solution solve(const Problem& problem, const SolveOptions& options) override {
    // The host twin prices one request per call from every chain's thread at once.
    const auto engine = insertion::make_host_engine(1);
    return insertion::solve_batched(problem, options, *engine, "cuda-host", 0, false);
  }
};

}  // namespace

std::unique_ptr<Backend> make_cuda_host_backend() { return std::make_unique<CudaHostBackend>(); }

}  // namespace routesolve::cuda
