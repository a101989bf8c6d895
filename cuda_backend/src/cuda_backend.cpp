// The "cuda" backend.
//
// The search is the driver every backend shares (search/solve.hpp), its chains in lockstep and
// their recreate requests priced by the device insertion engine (insertion/insertion.cu) on
// options.device.index, every choice checked on the host (insertion::CheckedEngine);
// options.device.transfer = Naive switches the engine to pageable, per-array copies. After
// the search, every route's travel duration, distance and arc cost is re-evaluated on the device
// with the batched route-evaluation kernel, and checked to equal both the host twin and the
// figures of the solution exactly; any difference is a bug (Error Internal). The profile gets
// the search's stages (batched_solve.hpp), then "check" (the route re-evaluation).
//
// Memory: the problem's matrices are the one host copy (pinned for the solve, host_pin.hpp);
// the engine holds the one device copy during the search and is gone before the route check
// uploads its own.
//
// Faults: the device is opened through the process's device factory (self_test.hpp: the real
// device, or a test's double). A device exception during the search (launch error, illegal
// address, allocation failure) under options.backend == Auto sends the rest of the search to
// the host twin from where it is (the solution says why); under an explicit cuda it is
// Error(Device). The same holds for the route check after the search.

#include "routesolve/cuda/cuda_backend.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "host_pin.hpp"
#include "insertion/batched_solve.hpp"
#include "insertion/insertion_engines.hpp"
#include "routesolve/cuda/route_eval.hpp"
#include "routesolve/cuda/self_test.hpp"
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
  [[nodiscard]] std::string_view name() const noexcept override { return "cuda"; }
  [[nodiscard]] std::optional<std::string> supports(const Problem& problem) const override {
    return insertion::batched_unsupported(problem);
  }

  Solution solve(const Problem& problem, const SolveOptions& options) override {
    // Every device choice is checked on the host; a mismatch sends the rest of the search to the
    // host twin (and the solution says so).
    const std::shared_ptr<void> pinned = detail::pin_matrices(problem);
    int multiprocessors = 1;
    for (const DeviceInfo& d : devices())
      if (d.index == options.device.index) multiprocessors = d.multiprocessors;
    const bool contain = options.backend == BackendKind::Auto;
    const std::unique_ptr<SelfTestDevice> device = open_device(options.device.index);
    Solution solution;
    {
      insertion::CheckedEngine engine(
          device->insertion_engine(options.device.transfer, 0), std::max(1u, options.threads), 64,
          contain ? insertion::OnDeviceFault::ContinueOnHost : insertion::OnDeviceFault::Fail);
      solution = insertion::solve_checked(
          problem, options, engine, insertion::device_chains(problem, options, multiprocessors));
    }
    bool on_device = solution.fallback.empty();
    const auto t0 = std::chrono::steady_clock::now();

    const RouteBatch batch = make_route_batch(problem, solution.routes);
    const std::vector<RouteTotals> host = evaluate_routes_host(batch);
    std::vector<RouteTotals> totals;
    if (on_device) {  // a device that failed once is not asked again
      try {
        totals = device->evaluate_routes(batch, options.device.transfer);
      } catch (const Error& e) {
        if (e.code() != ErrorCode::Device && e.code() != ErrorCode::OutOfMemory) throw;
        const std::string what = "the route check on cuda device " +
                                 std::to_string(options.device.index) + " failed (" + e.what() +
                                 ")";
        if (!contain) throw Error(ErrorCode::Device, what);
        solution.fallback = what + "; the routes were checked on the host twin";
        on_device = false;
      }
    }
    for (std::size_t r = 0; r < solution.routes.size(); ++r) {
      const Route& route = solution.routes[r];
      const RouteTotals reported{route.duration, route.distance,
                                 route.cost - problem.fixed_cost(route.vehicle)};
      if (on_device && totals[r] != host[r])
        mismatch(r, "device evaluation differs from the host twin", host[r], totals[r]);
      if (host[r] != reported)
        mismatch(r, "batched evaluation differs from the route's figures", reported, host[r]);
    }

    solution.profile.push_back(
        {"check", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()});
    return solution;
  }
};

}  // namespace

std::unique_ptr<Backend> make_cuda_backend() {
  if (!device_available() && !devices_replaced())
    throw Error(ErrorCode::Device, "CUDA backend requested but " + device_unavailable_reason());
  return std::make_unique<CudaBackend>();
}

}  // namespace routesolve::cuda
