#pragma once
// The Backend contract: what a solver backend is given (SolveOptions), what it reports while it
// runs (Progress) and the interface every backend implements. The dispatch layer
// (routesolve/solve.hpp) picks and runs one.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "routesolve/checkpoint.hpp"
#include "routesolve/hd/score.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"

namespace routesolve {

/// CudaHost: the search with the CUDA backend's batched insertion engine on the host (its twin).
enum class BackendKind { Cpu, Cuda, Auto, CudaHost };

/// The backend's name: "cpu", "cuda", "cuda-host" or "auto" (one table in core/src/backend.cpp).
std::string_view to_string(BackendKind kind) noexcept;
/// Every backend name, in the order the CLI lists them (what --backend and --matrix-engine take).
const std::vector<std::string>& backend_names();
/// Parses a name of backend_names(); throws invalid_input otherwise.
BackendKind parse_backend(std::string_view text);
/// Parses "cost" | "vehicles-then-cost", the objective's name in every entry point; throws
/// invalid_input (field "objective") otherwise.
Objective parse_objective(std::string_view text);

/// Progress report sent by a solver from time to time.
struct Progress {
  double elapsed_s = 0.0;
  double fraction = 0.0;  ///< 0..1 of the time budget (or of the work, when unlimited)
  Cost best_cost = 0;
  std::size_t best_routes = 0;
  std::size_t unassigned = 0;
};

/// How inputs and results cross the bus to a device.
enum class TransferMode {
  Pinned,  ///< everything packed into one pinned staging buffer, one cudaMemcpyAsync each way
  Naive,   ///< pageable memory, one allocation and one copy per array (for benchmarks)
};

/// "pinned" | "naive".
std::string_view to_string(TransferMode mode) noexcept;
/// Parses "pinned" (also "batched") | "naive"; throws invalid_input naming `field` otherwise.
TransferMode parse_transfer_mode(std::string_view text, std::string_view field = "--transfer");

/// Where device work runs and how its data travels.
struct DeviceOptions {
  int index = 0;  ///< CUDA device index (the process-wide numbering of the CUDA runtime)
  TransferMode transfer = TransferMode::Pinned;
  /// Several devices (`--devices 0,1,...`): the matrix engine splits its source tiles over them,
  /// one host thread each; the search runs on the first. Empty: `index` alone.
  std::vector<int> indices{};
  /// Where auto reads each device's calibration (`routesolve device-check --calibrate` writes
  /// it); empty: the default, $ROUTESOLVE_CALIBRATION_DIR, else ~/.config/routesolve
  /// (routesolve/dispatch/calibration.hpp).
  std::string calibration_dir{};
};

struct SolveOptions {
  BackendKind backend = BackendKind::Auto;
  DeviceOptions device;  ///< cuda backend: the device and the transfer mode
  double time_limit_s =
      0.0;  ///< 0 = a fixed amount of work (`iterations`) instead of a time budget
  /// Seconds of time_limit_s the caller spends outside solve() (reading the input, computing
  /// matrices, and what it reserves for writing the output): the solve gets the rest, so that
  /// the whole run holds the limit. The construction always completes (it is a small share at
  /// every size); when nothing is left for the search, the result is the construction's.
  double time_used_s = 0.0;
  /// Search iterations per chain (thread) when time_limit_s == 0; 0 = the backend's default
  /// (1,000). With a time limit, the search also stops after this many when it is non-zero.
  std::uint64_t iterations = 0;
  std::uint64_t seed = 1;
  unsigned threads = 1;
  /// Search chains (independent annealing searches that share their best, or regions of one
  /// solution): 0 = one per thread (cpu, cuda-host) or as many as the device batches well
  /// (cuda). More chains than threads run in lockstep on the threads. Results depend on
  /// (seed, chains), not on threads.
  unsigned chains = 0;
  Objective objective = Objective::Cost;
  /// The instants the solution reports (problem.hpp: Timeline); the routes do not depend on it.
  /// Unset: the problem's `"options": {"timeline"}`, else VROOM's (chosen_timeline()).
  std::optional<Timeline> timeline;
  /// A starting solution (VROOM's `steps` in solving mode): per vehicle index, task indices in
  /// route order, each route feasible on its own. The construction inserts the other tasks into
  /// it and the search goes on from there, free to change it. Empty: the search constructs.
  std::vector<std::vector<std::size_t>> start_routes;
  const std::atomic<bool>* stop = nullptr;           ///< set to true to stop early (SIGINT)
  std::function<void(const Progress&)> on_progress;  ///< may be empty

  /// Checkpoints of the search state (CPU backend; other backends refuse with Unsupported).
  /// Called on the solving thread at a deterministic point (between search epochs, every
  /// search thread joined): once when the construction is done, then whenever
  /// checkpoint_every_s seconds have passed since the last one. May be empty. Writing a file is
  /// the caller's business (routesolve/io/checkpoint.hpp: write_checkpoint); an exception
  /// thrown here ends the solve.
  std::function<void(const SolveCheckpoint&)> on_checkpoint;
  double checkpoint_every_s = 60.0;
  /// Resume from a checkpoint (must pass check_checkpoint against the problem, which solve()
  /// does): no construction; the search starts from its best plan with time_limit_s minus the
  /// time already spent, and returns a solution no worse than it (lexicographic objective).
  /// With time_limit_s == 0 the fixed amount of work left is done.
  std::shared_ptr<const SolveCheckpoint> resume;
};

/// The timeline a solve reports: options.timeline when set, else the problem's
/// `"options": {"timeline"}`, else Timeline::Vroom.
Timeline chosen_timeline(const Problem& problem, const SolveOptions& options);

/// A solver behind the common API.
class Backend {
 public:
  virtual ~Backend() = default;
  [[nodiscard]] virtual std::string_view name() const noexcept = 0;
  /// Nothing when this backend can solve `problem`; else what it does not support, as a phrase
  /// naming the constraint ("multi-trip vehicles (reload_locations)"). Dispatch asks before it
  /// runs a backend: auto then takes another, an explicit choice fails naming the reason.
  [[nodiscard]] virtual std::optional<std::string> supports(const Problem& /*problem*/) const {
    return std::nullopt;
  }
  /// Solves; the result has every task either routed or unassigned with a reason.
  virtual Solution solve(const Problem& problem, const SolveOptions& options) = 0;
};

}  // namespace routesolve
