// solve() and make_backend(): the dispatch layer picks a backend and runs it. It links both
// backends; neither backend nor core includes anything of this layer.

#include "routesolve/solve.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "routesolve/cpu/cpu_backend.hpp"
#include "routesolve/cuda/cuda_backend.hpp"
#include "routesolve/cuda/search_backend.hpp"
#include "routesolve/dispatch/auto_policy.hpp"
#include "routesolve/dispatch/device_fallback.hpp"
#include "routesolve/error.hpp"
#include "routesolve/fixed_steps.hpp"

namespace routesolve {

std::unique_ptr<Backend> make_backend(BackendKind kind) {
  switch (kind) {
    case BackendKind::Cpu:
      return cpu::make_cpu_backend();
    case BackendKind::Cuda:
      return cuda::make_cuda_backend();  // throws Error(Device) naming the reason when none
    case BackendKind::CudaHost:
      return cuda::make_cuda_host_backend();
    case BackendKind::Auto:
      // Without a problem to look at, auto is the CPU backend; solve() below applies the size
      // policy (dispatch::device_pays_for). Auto never fails for lack of a device.
      return cpu::make_cpu_backend();
  }
  throw Error(ErrorCode::Internal, "make_backend: unknown backend kind");
}

namespace {

Solution solve_tasks(const Problem& problem, const SolveOptions& options);

}  // namespace

Solution solve(const Problem& problem, const SolveOptions& given) {
  // The state of a day under way is reoptimise()'s input (routesolve/reoptimise.hpp).
  const std::string_view by_reoptimise =
      "is re-optimisation input: give the problem and the plan to reoptimise";
  if (!problem.spec().done.empty()) throw invalid_input("done", by_reoptimise);
  for (std::size_t v = 0; v < problem.spec().vehicles.size(); ++v) {
    const VehicleSpec& vs = problem.spec().vehicles[v];
    if (vs.current_location || vs.current_load)
      throw invalid_input("vehicles[" + std::to_string(v) + "]." +
                              (vs.current_location ? "current_location" : "current_load"),
                          by_reoptimise);
  }
  SolveOptions options = given;
  options.timeline = chosen_timeline(problem, given);
  if (!problem.has_steps()) return solve_tasks(problem, options);
  // Given steps (fixed_steps.hpp): a starting solution, after each vehicle's fixed prefix.
  if (options.on_checkpoint || options.resume)
    throw Error(ErrorCode::Unsupported,
                "checkpoint and resume are not supported with vehicle steps");
  options.start_routes = starting_routes(problem);
  const bool fixed = std::any_of(problem.vehicles().begin(), problem.vehicles().end(),
                                 [](const Vehicle& v) { return v.fixed_steps > 0; });
  if (!fixed) return solve_tasks(problem, options);
  // Fixed steps start their vehicles' routes: the search solves the rest, and the join
  // schedules each whole route once for the output.
  const StepSplit split = split_steps(problem);
  const ProblemPtr rest = Problem::create(split.rest);
  SolveOptions rest_options = options;
  rest_options.timeline = Timeline::Earliest;  // only the rest's order is used
  rest_options.start_routes = rest_routes(problem, split, *rest, options.start_routes);
  return join_steps(problem, split, *rest, solve_tasks(*rest, rest_options), *options.timeline);
}

namespace {

Solution solve_tasks(const Problem& problem, const SolveOptions& options) {
  // auto: the device when one is usable and the problem is large enough for the batched insertion
  // pricing to pay for its transfers and launches (cost model: dispatch/auto_policy.hpp).
  // Checkpoint / resume: the CPU backend's search state only (docs/RELIABILITY.md).
  const bool checkpointing = static_cast<bool>(options.on_checkpoint) || options.resume != nullptr;
  BackendKind kind = options.backend == BackendKind::Auto && !checkpointing &&
                             dispatch::device_pays_for(problem, options)
                         ? BackendKind::Cuda
                     : options.backend == BackendKind::Auto ? BackendKind::Cpu
                                                            : options.backend;
  // A constraint the backend does not support (Backend::supports): auto takes the cpu backend,
  // the reference that supports every constraint; an explicit choice fails naming it. The device
  // backend is asked through its host twin, which runs the same search and needs no device.
  const auto asked = make_backend(kind == BackendKind::Cuda ? BackendKind::CudaHost : kind);
  if (const std::optional<std::string> why = asked->supports(problem)) {
    if (options.backend != BackendKind::Auto)
      throw Error(ErrorCode::Unsupported, "backend '" + std::string(to_string(kind)) +
                                              "' does not support " + *why +
                                              "; use --backend cpu or auto");
    kind = BackendKind::Cpu;
  }
  if (checkpointing && kind != BackendKind::Cpu)
    throw Error(
        ErrorCode::Unsupported,
        std::string(options.resume ? "--resume" : "--checkpoint") +
            ": checkpoint and resume are supported by the cpu backend only, not by backend '" +
            std::string(to_string(kind)) + "' (use --backend cpu or auto)");
  if (options.on_checkpoint && !(options.checkpoint_every_s > 0.0))
    throw invalid_input("--checkpoint-every", "must be a positive number of seconds");
  if (options.resume) check_checkpoint(problem, *options.resume);
  // The device only after it passed its self-test and while it has not failed: auto continues
  // on cuda-host, explicit cuda fails naming the reason (dispatch/device_fallback.hpp).
  if (kind == BackendKind::Cuda) return dispatch::solve_on_device(problem, options);
  const auto backend = make_backend(kind);
  Solution solution = backend->solve(problem, options);
  if (solution.backend.empty()) solution.backend = std::string(backend->name());
  return solution;
}

}  // namespace

}  // namespace routesolve
