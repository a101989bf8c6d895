// The reference CPU backend: the search driver (search/solve.hpp) with the segment engine, one
// search chain per thread, every insertion position priced in O(1) from route segments.

#include "routesolve/cpu/cpu_backend.hpp"

#include "routesolve/search/insertion_engine.hpp"
#include "routesolve/search/solve.hpp"

namespace routesolve::cpu {

namespace {

class CpuBackend final : public Backend {
 public:
  [[nodiscard]] std::string_view name() const noexcept override { return "cpu"; }
  Solution solve(const Problem& problem, const SolveOptions& options) override {
    const std::unique_ptr<search::InsertionEngine> engine = search::make_segment_engine();
    return search::solve(problem, options, search::Engine{"cpu", engine.get(), false});
  }
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend() { return std::make_unique<CpuBackend>(); }

}  // namespace routesolve::cpu
