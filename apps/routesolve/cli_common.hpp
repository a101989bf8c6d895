#pragma once
// Pieces shared by the routesolve subcommands: run options, progress display, loading and
// solving one fleet file with validation, writing outputs atomically.

#include <CLI/CLI.hpp>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "routesolve/dispatch/solve_spec.hpp"
#include "routesolve/io/atomic_file.hpp"
#include "routesolve/io/writers.hpp"
#include "routesolve/network/matrix_provider.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"
#include "routesolve/solve.hpp"

namespace routesolve::app {

/// Set by SIGINT/SIGTERM: solvers stop and the best solution so far is written.
extern std::atomic<bool> g_stop;

/// Installs the SIGINT/SIGTERM handlers that set g_stop.
void install_signal_handlers();

/// Options shared by `solve` and `batch`.
struct RunOptions {
  std::string format = "auto";
  std::string output_format = "json";
  std::string backend =
      "auto";  ///< the search's backend, and the matrices' engine unless matrix_engine is given
  std::string matrix_engine;  ///< the matrix engine on a road network; empty: as backend
  std::string objective = "cost";
  double time_limit = 0.0;
  std::uint64_t iterations = 0;
  unsigned chains = 0;
  std::uint64_t seed = 1;
  unsigned threads = 1;
  bool truncate = false;
  bool quiet = false;
  bool verbose = false;  ///< best cost over time on stderr
  bool profile = false;
  std::string profile_out;   ///< solve: the stage profile as JSON (stage_profile.hpp)
  std::string trace;         ///< solve: the best solution over time, as CSV
  int device = 0;            ///< cuda: the CUDA device index
  std::vector<int> devices;  ///< cuda: --devices, the matrix engine's devices (first: the search's)
  std::string calibration_dir;  ///< auto: the device calibrations' folder (empty: the default)
  std::string transfer =
      "batched";        ///< cuda: batched (pinned) or naive transfers, matrices and search
  std::string network;  ///< road network (OSM, DIMACS, edge list, .rsnet) for coordinate-only input
  double max_snap = 1000.0;  ///< metres between a stop and the road it is attached to
  // solve only: checkpoint / resume (docs/RELIABILITY.md)
  std::string checkpoint;          ///< write the search state here (atomically) from time to time
  double checkpoint_every = 60.0;  ///< seconds between checkpoints
  std::string resume;              ///< continue from this checkpoint
  bool decompose =
      false;  ///< solve: groups of routes improved over the MPI ranks (docs/SCALING.md)
  unsigned decompose_rounds = 0;  ///< solve --decompose: rounds (0: the default)
  bool check = false;             ///< solve: plan mode, the vehicles' steps as whole routes
  bool geometry = false;          ///< each route's geometry (encoded polyline) in the JSON output
  /// The balance objective's weight (ProblemSpec::balance); negative: the file's options.balance.
  double balance = -1.0;
  /// The reported timeline, "vroom" or "earliest" (ProblemSpec::timeline); empty: the file's
  /// options.timeline, else VROOM's.
  std::string timeline;
  /// Given on the command line (else a resumed solve takes them from the checkpoint).
  bool seed_given = false, threads_given = false, time_limit_given = false, objective_given = false;
};

/// Registers the RunOptions flags on a subcommand.
void add_run_options(CLI::App& cmd, RunOptions& o);

/// A one-line progress bar on stderr; silent when stderr is not a terminal or with --quiet.
class ProgressBar {
 public:
  explicit ProgressBar(bool enabled);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;
  void update(double fraction, const std::string& text);
  void finish();

 private:
  bool enabled_;
  bool shown_ = false;
};

SolveOptions make_solve_options(const RunOptions& o);

/// The matrices' options of a run (network, engine, device, threads, snapping).
dispatch::MatrixOptions make_matrix_options(const RunOptions& o);

/// What the tool runs: dispatch's validated solve and its figures.
using Outcome = dispatch::Outcome;

/// Reads a fleet file into a validated problem, computing matrices from coordinates if needed
/// (from the road network of o.network when given, else great-circle).
ProblemPtr load_problem(const std::filesystem::path& input, const RunOptions& o);

/// Reads one fleet file and runs dispatch's validated solve on it (dispatch::solve_spec), with
/// the run's notes on stderr, checkpoints, --trace and progress. `solver` replaces
/// routesolve::solve when given (reoptimise). The geometry flag is --geometry or the file's.
Outcome solve_one(const std::filesystem::path& input, const RunOptions& o, ProgressBar* bar,
                  std::function<dispatch::Solved(const Problem&, const SolveOptions&)> solver = {});

/// Writes a solution to a file (atomically: temporary file + rename) or to stdout for "" / "-".
void write_output(const Outcome& out, const std::filesystem::path& file, io::OutputFormat format);

/// Cost in output units.
double output_cost(const Problem& problem, Cost cost);

/// The CUDA device a run uses, for the matrices and the search alike: the first of `devices`
/// when given, else `device`; under mpirun, device 0 (the default) means the rank's local device.
int chosen_device(int device, const std::vector<int>& devices);

/// Prints the stage profile of a solution on stderr.
void print_profile(const Solution& s);

/// solve: prints the stage table (--profile) and writes it as JSON (--profile-out); total_seconds
/// is the wall time of the run from reading the input to writing the output.
void report_profile(const Solution& s, const RunOptions& o, const std::string& input,
                    double total_seconds);

/// `solve`, `batch` and `validate`; each sets *exit_status when it runs.
void add_fleet_commands(CLI::App& app, int* exit_status);

/// `batch` (batch_command.cpp): many fleet files, over the MPI ranks under mpirun.
void add_batch_command(CLI::App& app, int* exit_status);

/// `network build` and `network info`; each sets *exit_status when it runs.
void add_network_commands(CLI::App& app, int* exit_status);

/// `matrix` (matrix_command.cpp).
void add_matrix_command(CLI::App& app, int* exit_status);

/// `generate`: a fleet scenario on a road network or the synthetic city (generate_command.cpp).
void add_generate_command(CLI::App& app, int* exit_status);

/// `reoptimise`: a plan under way re-optimised from now (reoptimise_command.cpp).
void add_reoptimise_command(CLI::App& app, int* exit_status);

/// `device-check`: the self-test of every CUDA device, one line each (device_check_command.cpp).
void add_device_check_command(CLI::App& app, int* exit_status);

/// `serve`: the HTTP routing service (serve_command.cpp, service/).
void add_serve_command(CLI::App& app, int* exit_status);

}  // namespace routesolve::app
