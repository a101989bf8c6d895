// Names of the Backend contract's enumerations, for the CLI, the logs and the options files.

#include "routesolve/backend.hpp"

#include <string>

#include "routesolve/error.hpp"

namespace routesolve {

std::string_view to_string(BackendKind kind) noexcept {
  switch (kind) {
    case BackendKind::Cpu:
      return "cpu";
    case BackendKind::Cuda:
      return "cuda";
    case BackendKind::Auto:
      return "auto";
    case BackendKind::CudaHost:
      return "cuda-host";
  }
  return "?";
}

BackendKind parse_backend(std::string_view text) {
  if (text == "cpu") return BackendKind::Cpu;
  if (text == "cuda") return BackendKind::Cuda;
  if (text == "auto") return BackendKind::Auto;
  if (text == "cuda-host") return BackendKind::CudaHost;
  throw invalid_input("--backend", "unknown backend '" + std::string(text) +
                                       "' (expected cpu, cuda, cuda-host or auto)");
}

Timeline chosen_timeline(const Problem& problem, const SolveOptions& options) {
  if (options.timeline) return *options.timeline;
  return problem.spec().timeline.value_or(Timeline::Vroom);
}

Objective parse_objective(std::string_view text) {
  if (text == "cost") return Objective::Cost;
  if (text == "vehicles-then-cost") return Objective::VehiclesThenCost;
  throw invalid_input("objective", "expected \"cost\" or \"vehicles-then-cost\", got \"" +
                                       std::string(text) + "\"");
}

std::string_view to_string(TransferMode mode) noexcept {
  return mode == TransferMode::Naive ? "naive" : "pinned";
}

TransferMode parse_transfer_mode(std::string_view text, std::string_view field) {
  if (text == "pinned" || text == "batched") return TransferMode::Pinned;
  if (text == "naive") return TransferMode::Naive;
  throw invalid_input(std::string(field), "unknown transfer mode '" + std::string(text) +
                                              "' (expected batched (pinned) or naive)");
}

}  // namespace routesolve
