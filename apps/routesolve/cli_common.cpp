// Shared pieces of the routesolve subcommands (see cli_common.hpp).

#include "cli_common.hpp"

#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>

#include "routesolve/distributed/decompose.hpp"
#include "routesolve/distributed/world.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/checkpoint.hpp"
#include "routesolve/io/formats.hpp"
#include "routesolve/timing.hpp"
#include "stage_profile.hpp"

namespace fs = std::filesystem;

namespace routesolve::app {

std::atomic<bool> g_stop{false};

namespace {
extern "C" void on_signal(int /*signal*/) { g_stop.store(true); }
bool stderr_is_terminal() { return isatty(fileno(stderr)) != 0; }
}  // namespace

void install_signal_handlers() {
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
}

void add_run_options(CLI::App& cmd, RunOptions& o) {
  cmd.add_option("--format", o.format, "Input format")
      ->check(CLI::IsMember(io::input_format_names()))
      ->capture_default_str();
  cmd.add_option("--output-format", o.output_format, "Output format")
      ->check(CLI::IsMember(io::output_format_names()))
      ->capture_default_str();
  cmd.add_flag("-g,--geometry", o.geometry,
               "JSON output: each route's geometry as an encoded polyline (precision 5), along the "
               "roads with "
               "--network (also the problem's \"options\": {\"g\": true})");
  cmd.add_option(
         "--balance", o.balance,
         "Balance objective: add W cost units per time unit of the longest route's working time "
         "(the problem's \"options\": {\"balance\": W} otherwise; 0: none)")
      ->check(CLI::Range(0.0, 1e9));
  cmd.add_option("--timeline", o.timeline,
                 "Reported times: vroom (VROOM's: the earliest end, every step as late as it "
                 "allows, so the "
                 "least waiting) or earliest (every step at its earliest instant from the shift "
                 "start); the "
                 "problem's \"options\": {\"timeline\": ...} otherwise, else vroom. The routes are "
                 "the same")
      ->check(CLI::IsMember({"vroom", "earliest"}));
  cmd.add_option("--time-limit", o.time_limit,
                 "Search time limit in seconds (0: none, the fixed work of --iterations)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd.add_option(
         "--iterations", o.iterations,
         "Search iterations per thread: the fixed work without a time limit, a cap with one "
         "(0: 1,000 without a time limit, no cap with one)")
      ->capture_default_str();
  cmd.add_option("--seed", o.seed, "Random seed")->capture_default_str();
  cmd.add_option("--threads", o.threads, "Worker threads")
      ->check(CLI::Range(1u, 1024u))
      ->capture_default_str();
  cmd.add_option(
         "--chains", o.chains,
         "Search chains (0: one per thread; cuda: as many as the device batches well); more chains "
         "than threads run in lockstep")
      ->check(CLI::Range(0u, 65536u))
      ->capture_default_str();
  cmd.add_option("--backend", o.backend,
                 "Backend of the search, and the matrix engine on a road network unless "
                 "--matrix-engine is given")
      ->check(CLI::IsMember(backend_names()))
      ->capture_default_str();
  cmd.add_option("--matrix-engine", o.matrix_engine,
                 "Matrix engine on a road network: cpu (Boost.Graph Dijkstra), cuda-host (PHAST on "
                 "the host), cuda "
                 "(PHAST on the device) or auto (default: as --backend)")
      ->check(CLI::IsMember(backend_names()));
  cmd.add_option("--objective", o.objective, "Objective")
      ->check(CLI::IsMember({"cost", "vehicles-then-cost"}))
      ->capture_default_str();
  cmd.add_flag(
      "--truncate-distances", o.truncate,
      "Solomon / Li & Lim: truncate each arc to one decimal (distance-only best-known convention)");
  cmd.add_flag("--profile", o.profile, "Print the time spent per stage on stderr");
  cmd.add_option("--transfer", o.transfer,
                 "cuda backend: batched (pinned, one copy per batch) or naive (pageable, one copy "
                 "per array) "
                 "transfers, for the matrices and the search")
      ->check(CLI::IsMember({"batched", "naive"}))
      ->capture_default_str();
  cmd.add_option("--calibration-dir", o.calibration_dir,
                 "auto: the folder of the device calibrations (device-check --calibrate; default: "
                 "$ROUTESOLVE_CALIBRATION_DIR, else ~/.config/routesolve)");
  cmd.add_option("--device", o.device,
                 "cuda backend: the CUDA device index, for the matrices and the search")
      ->check(CLI::Range(0, 1023))
      ->capture_default_str();
  cmd.add_option("--devices", o.devices,
                 "cuda backend: several CUDA devices (0,1,...): the matrix sweeps are split over "
                 "them, the search "
                 "runs on the first")
      ->delimiter(',')
      ->check(CLI::Range(0, 1023))
      ->excludes("--device");
  cmd.add_option(
      "--network", o.network,
      "Road network (.osm.pbf, .gr, edge list or .rsnet cache): travel matrices for input "
      "with coordinates and no matrices");
  cmd.add_option("--max-snap", o.max_snap,
                 "With --network: largest distance in metres from a stop to its road (farther: "
                 "unreachable)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd.add_flag("-q,--quiet", o.quiet, "No progress or notes on stderr");
  cmd.add_flag("--verbose", o.verbose, "Best cost over time on stderr (one line per improvement)");
}

ProgressBar::ProgressBar(bool enabled) : enabled_(enabled && stderr_is_terminal()) {}
ProgressBar::~ProgressBar() { finish(); }

void ProgressBar::update(double fraction, const std::string& text) {
  if (!enabled_) return;
  fraction = std::clamp(fraction, 0.0, 1.0);
  constexpr int kWidth = 30;
  const int filled = static_cast<int>(fraction * kWidth + 0.5);
  std::string bar(static_cast<std::size_t>(filled), '#');
  bar.resize(kWidth, '.');
  fmt::print(stderr, "\r[{}] {:3.0f}% {:<50.50}", bar, fraction * 100.0, text);
  std::fflush(stderr);
  shown_ = true;
}

void ProgressBar::finish() {
  if (enabled_ && shown_) fmt::print(stderr, "\r{:90}\r", "");
  shown_ = false;
}

SolveOptions make_solve_options(const RunOptions& o) {
  SolveOptions options;
  options.backend = parse_backend(o.backend);
  options.time_limit_s = o.time_limit;
  options.iterations = o.iterations;
  options.chains = o.chains;
  options.seed = o.seed;
  options.threads = o.threads;
  options.device.transfer = parse_transfer_mode(o.transfer);
  options.device.index = chosen_device(o.device, o.devices);
  options.device.indices = o.devices;
  options.device.calibration_dir = o.calibration_dir;
  options.objective = parse_objective(o.objective);
  options.stop = &g_stop;
  return options;
}

namespace {

/// Prints a warning on stderr once per text for the process (a batch meets the same unusable
/// device with every file).
void warn_once(const std::string& text) {
  static std::mutex mutex;
  static std::set<std::string> printed;
  const std::lock_guard lock(mutex);
  if (printed.insert(text).second) fmt::print(stderr, "warning: {}\n", text);
}

}  // namespace

dispatch::MatrixOptions make_matrix_options(const RunOptions& o) {
  dispatch::MatrixOptions m;
  m.network = o.network;
  m.backend = parse_backend(o.matrix_engine.empty() ? o.backend : o.matrix_engine);
  m.device = {.index = chosen_device(o.device, o.devices),
              .transfer = parse_transfer_mode(o.transfer),
              .indices = o.devices,
              .calibration_dir = o.calibration_dir};
  m.threads = o.threads;
  m.max_snap_m = o.max_snap;
  return m;
}

namespace {

/// The fleet file as a spec (the reader picked by --format or the content), --balance applied.
ProblemSpec read_spec(const fs::path& input, const RunOptions& o) {
  io::ReadOptions read;
  read.format = io::parse_input_format(o.format);
  read.truncate_one_decimal = o.truncate;
  ProblemSpec spec = io::read_problem(input, read);
  if (o.balance >= 0.0) spec.balance = o.balance;
  spec.plan = o.check;  // plan mode keeps the steps' service bounds as they are
  if (!o.timeline.empty()) spec.timeline = timeline_from_string(o.timeline);
  return spec;
}

/// Notes on stderr (unless --quiet), warnings once per process (even with --quiet).
dispatch::PrepareOptions prepare_options(const fs::path& input, const RunOptions& o) {
  dispatch::PrepareOptions how;
  how.source = input.string();
  how.on_note = [quiet = o.quiet](const dispatch::Note& n) {
    if (n.warning) {
      warn_once(n.text);
    } else if (!quiet) {
      fmt::print(stderr, "note: {}\n", n.text);
    }
  };
  return how;
}

}  // namespace

ProblemPtr load_problem(const fs::path& input, const RunOptions& o) {
  return dispatch::prepare_problem(read_spec(input, o), make_matrix_options(o),
                                   prepare_options(input, o))
      .problem;
}

Outcome solve_one(const fs::path& input, const RunOptions& o, ProgressBar* bar,
                  std::function<dispatch::Solved(const Problem&, const SolveOptions&)> solver) {
  dispatch::SolveRun run;
  run.started = std::chrono::steady_clock::now();
  ProblemSpec spec = read_spec(input, o);
  const double parse_seconds = seconds_since(*run.started);
  SolveOptions options = make_solve_options(o);
  if (!o.resume.empty()) {
    // The checkpoint's seed, threads, objective and time limit, unless given again.
    auto state = std::make_shared<SolveCheckpoint>(io::read_checkpoint(o.resume));
    if (!o.seed_given) options.seed = state->seed;
    if (!o.threads_given) options.threads = state->threads;
    if (!o.objective_given) options.objective = state->objective;
    if (!o.time_limit_given) options.time_limit_s = state->time_limit_s;
    if (options.objective != state->objective)
      throw invalid_input(
          o.resume,
          "the checkpoint was written with another --objective: resume it with the same one");
    options.resume = std::move(state);
  }
  if (!o.checkpoint.empty()) {
    const fs::path file = o.checkpoint;
    options.on_checkpoint = [file](const SolveCheckpoint& c) { io::write_checkpoint(file, c); };
    options.checkpoint_every_s = o.checkpoint_every;
  }
  // --trace: one row per change of the best solution (search seconds, cost, routes, unassigned).
  auto trace = std::make_shared<std::string>("elapsed_s,cost,routes,unassigned\n");
  if (bar != nullptr || o.verbose || !o.trace.empty()) {
    run.before_solve = [bar, name = input.filename().string(), &o, trace](const Problem& problem,
                                                                          SolveOptions& so) {
      const double cost_scale = problem.cost_scale();
      auto last = std::make_shared<std::pair<Cost, std::size_t>>(-1, 0);
      auto traced = std::make_shared<std::pair<Cost, std::size_t>>(-1, 0);
      so.on_progress = [bar, name, &o, cost_scale, last, trace, traced](const Progress& p) {
        if (!o.trace.empty() && (p.best_cost != traced->first || p.unassigned != traced->second)) {
          *traced = {p.best_cost, p.unassigned};
          *trace += fmt::format("{:.4f},{:.3f},{},{}\n", p.elapsed_s,
                                static_cast<double>(p.best_cost) / cost_scale, p.best_routes,
                                p.unassigned);
        }
        if (o.verbose && (p.best_cost != last->first || p.unassigned != last->second)) {
          *last = {p.best_cost, p.unassigned};
          fmt::print(stderr, "{}: {:8.3f}s best cost {:.3f}, {} routes, {} unassigned\n", name,
                     p.elapsed_s, static_cast<double>(p.best_cost) / cost_scale, p.best_routes,
                     p.unassigned);
        }
        if (bar != nullptr)
          bar->update(p.fraction, fmt::format("{}: {} routes, {} unassigned, {:.1f}s", name,
                                              p.best_routes, p.unassigned, p.elapsed_s));
      };
    };
  }
  run.check_plan = o.check;
  if (o.decompose) {
    // Every rank takes part; rank 0 gets the solution, the others are done here.
    run.solver = [&o](const Problem& problem, const SolveOptions& so) {
      distributed::DecomposeOptions d;
      if (o.decompose_rounds > 0) d.rounds = o.decompose_rounds;
      dispatch::Solved solved;
      Solution solution = distributed::decompose_solve(problem, so, d);
      if (distributed::rank() == 0) solved.solution = std::move(solution);
      return solved;
    };
  } else {
    run.solver = std::move(solver);
  }
  Outcome out = dispatch::solve_spec(std::move(spec), make_matrix_options(o), std::move(options),
                                     run, prepare_options(input, o));
  if (!out.solved) return out;
  if (!o.trace.empty()) io::write_file_atomically(o.trace, *trace);
  out.geometry = out.geometry || o.geometry;
  out.solution.profile.insert(out.solution.profile.begin(), {"parse", parse_seconds});
  return out;
}

/// The road geometry of the solution's legs, for GeoJSON output on a road network.
io::LegLines leg_lines(const Outcome& out, io::OutputFormat format) {
  io::LegLines lines;
  const bool drawn =
      format == io::OutputFormat::GeoJson || (format == io::OutputFormat::Json && out.geometry);
  if (!drawn || !out.matrices) return lines;
  return io::road_legs(out.solution, *out.matrices->provider, out.matrices->fill);
}

void write_output(const Outcome& out, const fs::path& file, io::OutputFormat format) {
  if (file.empty() || file == "-") {
    io::write_solution(std::cout, *out.problem, out.solution, format, leg_lines(out, format),
                       out.geometry);
    std::cout.flush();
    return;
  }
  // Unique temporary file + rename, so an interrupted run never leaves half a file.
  io::write_atomically(file, [&](std::ostream& f) {
    io::write_solution(f, *out.problem, out.solution, format, leg_lines(out, format), out.geometry);
  });
}

int chosen_device(int device, const std::vector<int>& devices) {
  if (!devices.empty()) return devices.front();
  // Under mpirun each rank takes its node's devices in turn unless one was named.
  return distributed::distributed() && device == 0 ? distributed::local_device() : device;
}

double output_cost(const Problem& problem, Cost cost) {
  return static_cast<double>(cost) / problem.cost_scale();
}

void print_profile(const Solution& s) {
  StageTable table = make_stage_table(s.profile, 0.0, s.backend, "");
  table.mismatches = s.mismatches;
  table.fallback = s.fallback;
  fmt::print(stderr, "{}", format_stage_table(table));
}

void report_profile(const Solution& s, const RunOptions& o, const std::string& input,
                    double total_seconds) {
  StageTable table = make_stage_table(s.profile, total_seconds, s.backend, input);
  table.mismatches = s.mismatches;
  table.fallback = s.fallback;
  if (o.profile) fmt::print(stderr, "{}", format_stage_table(table));
  if (o.profile_out.empty()) return;
  // Temporary file + rename, like every other output: never half a profile.
  io::write_file_atomically(o.profile_out, stage_table_json(table));
}

}  // namespace routesolve::app
