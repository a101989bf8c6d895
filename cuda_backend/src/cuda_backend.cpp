// The "cuda" backend.
//
// What it does today, honestly: the search itself is the CPU backend's (batched move evaluation
// on the device is a later step). After the search, every route's travel duration, distance and
// arc cost is re-evaluated on the device with the batched route-evaluation kernel, and checked
// to equal both the host twin and the figures of the solution exactly; any difference is a bug
// (Error Internal). The profile gets "host_search", "pack", "h2d", "kernel" and "d2h" stages,
// so the device plumbing (pinned staging, one copy each way, stream, events) runs and is
// measured on every solve.

#include "routesolve/cuda/cuda_backend.hpp"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "routesolve/cpu/cpu_backend.hpp"
#include "routesolve/cuda/route_eval.hpp"
#include "routesolve/error.hpp"

namespace routesolve::cuda {
namespace {

std::string figures(const RouteTotals& t) {
  return "duration " + std::to_string(t.duration) + ", distance " + std::to_string(t.distance) +
         ", arc cost " + std::to_string(t.cost);
}

[[noreturn]] void mismatch(std::size_t r, const char* what, const RouteTotals& expected,
                           const RouteTotals& found) {
  throw Error(ErrorCode::Internal, "cuda backend: routes[" + std::to_string(r) + "]: " + what +
                                       ": expected " + figures(expected) + ", found " +
                                       figures(found));
}

class CudaBackend final : public Backend {
 public:
  CudaBackend() : cpu_(cpu::make_cpu_backend()), evaluator_(DeviceEvalOptions{}) {}

  [[nodiscard]] std::string_view name() const noexcept override { return "cuda"; }

  Solution solve(const Problem& problem, const SolveOptions& options) override {
    const auto t0 = std::chrono::steady_clock::now();
    Solution solution = cpu_->solve(problem, options);
    const double host_search =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    const RouteBatch batch = make_route_batch(problem, solution.routes);
    DeviceEvalTimings timings;
    const std::vector<RouteTotals> device = evaluator_.evaluate(batch, &timings);
    const std::vector<RouteTotals> host = evaluate_routes_host(batch);
    for (std::size_t r = 0; r < solution.routes.size(); ++r) {
      const Route& route = solution.routes[r];
      const RouteTotals reported{route.duration, route.distance,
                                 route.cost - problem.fixed_cost(route.vehicle)};
      if (device[r] != host[r])
        mismatch(r, "device evaluation differs from the host twin", host[r], device[r]);
      if (host[r] != reported)
        mismatch(r, "batched evaluation differs from the route's figures", reported, host[r]);
    }

    solution.profile.push_back({"host_search", host_search});
    solution.profile.push_back({"pack", timings.pack});
    solution.profile.push_back({"h2d", timings.h2d});
    solution.profile.push_back({"kernel", timings.kernel});
    solution.profile.push_back({"d2h", timings.d2h});
    solution.backend = "cuda";
    return solution;
  }

 private:
  std::unique_ptr<Backend> cpu_;
  DeviceRouteEvaluator evaluator_;
};

}  // namespace

std::unique_ptr<Backend> make_cuda_backend() {
  if (!device_available())
    throw Error(ErrorCode::Device, "CUDA backend requested but " + device_unavailable_reason());
  return std::make_unique<CudaBackend>();
}

}  // namespace routesolve::cuda
