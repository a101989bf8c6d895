// Names of the Backend contract's enumerations, for the CLI, the logs and the options files.

#include "routesolve/backend.hpp"

#include <string>

#include "routesolve/error.hpp"
#include "routesolve/text.hpp"

namespace routesolve {

namespace {

struct BackendName {
  BackendKind kind;
  std::string_view name;
};

// Every backend by the name --backend, the C API and the Python module take, in the order the
// CLI lists them.
constexpr BackendName kBackends[] = {{BackendKind::Cpu, "cpu"},
                                     {BackendKind::Cuda, "cuda"},
                                     {BackendKind::CudaHost, "cuda-host"},
                                     {BackendKind::Auto, "auto"}};


}  // namespace

std::string_view to_string(BackendKind kind) noexcept {
  for (const auto& b : kBackends)
    if (b.kind == kind) return b.name;
  return "?";
}

const std::vector<std::string>& backend_names() {
  static const std::vector<std::string> names = routesolve::text::names_of(kBackends);
  return names;
}

BackendKind parse_backend(std::string_view text) {
  for (const auto& b : kBackends)
    if (b.name == text) return b.kind;
  throw invalid_input("--backend", "unknown backend '" + std::string(text) + "' (expected one of " +
                                       routesolve::text::join(backend_names()) + ")");
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
