// routesolve: the batch tool. Arguments -> io -> solve -> validate -> io.
//   routesolve solve INPUT [-o OUT] ...          one fleet file
//   routesolve batch INPUT... --out-dir DIR ...  many fleet files or folders, with a summary
//   routesolve validate INPUT SOLUTION           check a solution, print each violation

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "routesolve/error.hpp"
#include "routesolve/io/benchmark_formats.hpp"
#include "routesolve/io/formats.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "routesolve/io/writers.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/solve.hpp"
#include "routesolve/validator.hpp"

namespace fs = std::filesystem;
using namespace routesolve;

namespace {

std::atomic<bool> g_stop{false};

extern "C" void on_signal(int /*signal*/) { g_stop.store(true); }

/// Options shared by `solve` and `batch`.
struct RunOptions {
  std::string format = "auto";
  std::string output_format = "json";
  std::string backend = "auto";
  std::string objective = "cost";
  double time_limit = 0.0;
  std::uint64_t seed = 1;
  unsigned threads = 1;
  bool truncate = false;
  bool quiet = false;
  bool profile = false;
};

void add_run_options(CLI::App& cmd, RunOptions& o) {
  cmd.add_option("--format", o.format, "Input format")
      ->check(CLI::IsMember({"auto", "vroom", "cvrplib", "solomon", "lilim"}))
      ->capture_default_str();
  cmd.add_option("--output-format", o.output_format, "Output format")
      ->check(CLI::IsMember({"json", "csv", "geojson", "svg", "sol"}))
      ->capture_default_str();
  cmd.add_option("--time-limit", o.time_limit, "Search time limit in seconds (0: stop at the local optimum)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd.add_option("--seed", o.seed, "Random seed")->capture_default_str();
  cmd.add_option("--threads", o.threads, "Worker threads")->check(CLI::Range(1u, 1024u))->capture_default_str();
  cmd.add_option("--backend", o.backend, "Backend")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}))
      ->capture_default_str();
  cmd.add_option("--objective", o.objective, "Objective")
      ->check(CLI::IsMember({"cost", "vehicles-then-cost"}))
      ->capture_default_str();
  cmd.add_flag("--truncate-distances", o.truncate,
               "Solomon / Li & Lim: truncate each arc to one decimal (distance-only best-known convention)");
  cmd.add_flag("--profile", o.profile, "Print the time spent per stage on stderr");
  cmd.add_flag("-q,--quiet", o.quiet, "No progress or notes on stderr");
}

bool stderr_is_terminal() { return isatty(fileno(stderr)) != 0; }

/// A one-line progress bar on stderr; silent when stderr is not a terminal or with --quiet.
class ProgressBar {
 public:
  explicit ProgressBar(bool enabled) : enabled_(enabled && stderr_is_terminal()) {}
  ~ProgressBar() { finish(); }
  void update(double fraction, const std::string& text) {
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
  void finish() {
    if (enabled_ && shown_) fmt::print(stderr, "\r{:90}\r", "");
    shown_ = false;
  }

 private:
  bool enabled_;
  bool shown_ = false;
};

SolveOptions make_solve_options(const RunOptions& o) {
  SolveOptions options;
  options.backend = parse_backend(o.backend);
  options.time_limit_s = o.time_limit;
  options.seed = o.seed;
  options.threads = o.threads;
  options.objective = o.objective == "vehicles-then-cost" ? Objective::VehiclesThenCost : Objective::Cost;
  options.stop = &g_stop;
  return options;
}

/// Reads a fleet file into a validated problem, computing matrices from coordinates if needed.
ProblemPtr load_problem(const fs::path& input, const RunOptions& o) {
  io::ReadOptions read;
  read.format = io::parse_input_format(o.format);
  read.truncate_one_decimal = o.truncate;
  ProblemSpec spec = io::read_problem(input, read);
  if (fill_matrices_from_coordinates(spec)) {
    if (!o.quiet)
      fmt::print(stderr,
                 "note: {}: no travel matrices given; using great-circle distances at 50 km/h "
                 "(pass a road network for real travel times)\n",
                 input.string());
  }
  return Problem::create(std::move(spec));
}

struct Outcome {
  ProblemPtr problem;
  Solution solution;
  double seconds = 0.0;
};

/// Solves one problem and checks the result with the independent validator.
Outcome solve_one(const fs::path& input, const RunOptions& o, ProgressBar* bar) {
  const auto t0 = std::chrono::steady_clock::now();
  Outcome out;
  out.problem = load_problem(input, o);
  SolveOptions options = make_solve_options(o);
  if (bar != nullptr) {
    const std::string name = input.filename().string();
    options.on_progress = [bar, name, &o](const Progress& p) {
      bar->update(p.fraction, fmt::format("{}: {} routes, {} unassigned, {:.1f}s", name, p.best_routes,
                                          p.unassigned, p.elapsed_s));
      (void)o;
    };
  }
  out.solution = solve(*out.problem, options);
  const ValidationReport report = validate(*out.problem, out.solution);
  if (!report.ok())
    throw Error(ErrorCode::Internal, input.string() + ": the solver's solution failed validation:\n" + report.to_text());
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

void write_output(const Outcome& out, const fs::path& file, io::OutputFormat format) {
  if (file.empty() || file == "-") {
    io::write_solution(std::cout, *out.problem, out.solution, format);
    std::cout.flush();
    return;
  }
  // Write to a temporary file and rename, so an interrupted run never leaves half a file.
  const fs::path tmp = file.string() + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary);
    if (!f) throw Error(ErrorCode::InvalidInput, file.string() + ": cannot open for writing");
    io::write_solution(f, *out.problem, out.solution, format);
    f.flush();
    if (!f) throw Error(ErrorCode::InvalidInput, file.string() + ": write failed");
  }
  fs::rename(tmp, file);
}

double output_cost(const Problem& problem, Cost cost) { return static_cast<double>(cost) / problem.cost_scale(); }

void print_profile(const Solution& s) {
  double total = 0.0;
  for (const auto& st : s.profile) total += st.seconds;
  fmt::print(stderr, "stage profile ({}):\n", s.backend);
  for (const auto& st : s.profile)
    fmt::print(stderr, "  {:<16} {:10.4f} s {:6.1f}%\n", st.stage, st.seconds,
               total > 0 ? 100.0 * st.seconds / total : 0.0);
}

int run_solve(const std::string& input, const std::string& output, const RunOptions& o) {
  ProgressBar bar(!o.quiet);
  Outcome out = solve_one(input, o, &bar);
  bar.finish();
  write_output(out, output, io::parse_output_format(o.output_format));
  if (!o.quiet) {
    fmt::print(stderr, "{}: cost {:.3f}, {} routes, {} unassigned, {:.2f} s ({})\n", input,
               output_cost(*out.problem, out.solution.summary.cost), out.solution.summary.routes,
               out.solution.summary.unassigned, out.seconds, out.solution.backend);
    if (g_stop.load()) fmt::print(stderr, "interrupted: wrote the best solution found so far\n");
  }
  if (o.profile) print_profile(out.solution);
  return 0;
}

/// Files given on the command line, with folders expanded to their fleet files (sorted).
std::vector<fs::path> expand_inputs(const std::vector<std::string>& inputs) {
  std::vector<fs::path> files;
  for (const auto& in : inputs) {
    const fs::path p(in);
    if (fs::is_directory(p)) {
      std::vector<fs::path> found;
      for (const auto& e : fs::directory_iterator(p)) {
        if (!e.is_regular_file()) continue;
        const auto ext = e.path().extension().string();
        const auto name = e.path().filename().string();
        if (name.starts_with('.')) continue;
        if (ext == ".json" || ext == ".vrp" || ext == ".txt") found.push_back(e.path());
      }
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else {
      files.push_back(p);  // a missing file is reported as that file's failure
    }
  }
  return files;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

int run_batch(const std::vector<std::string>& inputs, const std::string& out_dir, const RunOptions& o) {
  const auto files = expand_inputs(inputs);
  if (files.empty()) throw invalid_input("batch", "no fleet files found in the given inputs");
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) throw invalid_input(out_dir, "cannot create the output folder: " + ec.message());
  const auto format = io::parse_output_format(o.output_format);

  struct Row {
    std::string file;
    std::size_t tasks = 0, routes = 0, unassigned = 0;
    double cost = 0.0, seconds = 0.0;
    std::string status = "ok";
  };
  std::vector<Row> rows;
  ProgressBar bar(!o.quiet);
  int failed = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (g_stop.load()) break;
    const auto& file = files[i];
    Row row;
    row.file = file.string();
    bar.update(static_cast<double>(i) / static_cast<double>(files.size()),
               fmt::format("{}/{} {}", i + 1, files.size(), file.filename().string()));
    const auto t0 = std::chrono::steady_clock::now();
    try {
      Outcome out = solve_one(file, o, nullptr);
      write_output(out, fs::path(out_dir) / (file.stem().string() + std::string(io::extension(format))), format);
      row.tasks = out.problem->tasks().size();
      row.routes = out.solution.summary.routes;
      row.unassigned = out.solution.summary.unassigned;
      row.cost = output_cost(*out.problem, out.solution.summary.cost);
    } catch (const std::exception& e) {
      ++failed;
      row.status = "failed";
      bar.finish();
      fmt::print(stderr, "error: {}\n", e.what());
    }
    row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    rows.push_back(row);
  }
  bar.finish();

  // Machine-readable summary next to the solutions, human-readable table on stdout.
  std::ofstream csv(fs::path(out_dir) / "summary.csv");
  csv << "file,tasks,routes,cost,unassigned,seconds,status\n";
  for (const auto& r : rows)
    csv << csv_field(r.file) << ',' << r.tasks << ',' << r.routes << ',' << fmt::format("{:.3f}", r.cost) << ','
        << r.unassigned << ',' << fmt::format("{:.3f}", r.seconds) << ',' << r.status << '\n';
  std::size_t width = 4;
  for (const auto& r : rows) width = std::max(width, r.file.size());
  fmt::print("{:<{}}  {:>6} {:>6} {:>14} {:>10} {:>8}  {}\n", "file", width, "tasks", "routes", "cost",
             "unassigned", "seconds", "status");
  for (const auto& r : rows)
    fmt::print("{:<{}}  {:>6} {:>6} {:>14.3f} {:>10} {:>8.2f}  {}\n", r.file, width, r.tasks, r.routes, r.cost,
               r.unassigned, r.seconds, r.status);
  fmt::print("{} files, {} ok, {} failed{}\n", rows.size(), rows.size() - static_cast<std::size_t>(failed), failed,
             g_stop.load() ? " (interrupted)" : "");
  return failed > 0 || g_stop.load() ? 1 : 0;
}

int run_validate(const std::string& input, const std::string& solution_file, const RunOptions& o,
                 const std::string& solution_format) {
  ProblemPtr problem = load_problem(input, o);
  const fs::path sol(solution_file);
  const bool is_sol = solution_format == "sol" || (solution_format == "auto" && sol.extension() == ".sol");
  Solution solution;
  ValidateOptions vo;
  if (is_sol) {
    solution = io::parse_cvrplib_solution(io::read_text_file(sol), sol.string(), *problem);
    vo.check_figures = false;  // .sol files carry routes only
  } else {
    solution = io::read_vroom_solution(sol, *problem);
  }
  const ValidationReport report = validate(*problem, solution, vo);
  if (report.ok()) {
    if (!o.quiet)
      fmt::print("{}: valid: {} routes, {} unassigned, cost {:.3f}\n", solution_file, solution.routes.size(),
                 solution.unassigned.size(), output_cost(*problem, solution.summary.cost));
    return 0;
  }
  fmt::print("{}: {} violation(s)\n{}", solution_file, report.violations.size(), report.to_text());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"routesolve: fleet route optimization (CPU and CUDA backends)", "routesolve"};
  app.set_version_flag("--version", std::string("routesolve 0.1.0"));
  app.require_subcommand(1);

  RunOptions solve_opts, batch_opts, validate_opts;
  std::string input, output;
  auto* solve_cmd = app.add_subcommand("solve", "Solve one fleet file");
  solve_cmd->add_option("INPUT", input, "Fleet file (VROOM JSON, CVRPLIB .vrp, Solomon, Li & Lim)")->required();
  solve_cmd->add_option("-o,--output", output, "Output file (default: standard output)");
  add_run_options(*solve_cmd, solve_opts);

  std::vector<std::string> batch_inputs;
  std::string out_dir;
  auto* batch_cmd = app.add_subcommand("batch", "Solve many fleet files or folders of them");
  batch_cmd->add_option("INPUT", batch_inputs, "Fleet files or folders")->required();
  batch_cmd->add_option("--out-dir", out_dir, "Folder for the solutions and summary.csv")->required();
  add_run_options(*batch_cmd, batch_opts);

  std::string solution_file, solution_format = "auto";
  auto* validate_cmd = app.add_subcommand("validate", "Check a solution against its problem");
  validate_cmd->add_option("INPUT", input, "Fleet file")->required();
  validate_cmd->add_option("SOLUTION", solution_file, "Solution (VROOM JSON output or CVRPLIB .sol)")->required();
  validate_cmd->add_option("--format", validate_opts.format, "Input format")
      ->check(CLI::IsMember({"auto", "vroom", "cvrplib", "solomon", "lilim"}));
  validate_cmd->add_option("--solution-format", solution_format, "Solution format")
      ->check(CLI::IsMember({"auto", "json", "sol"}));
  validate_cmd->add_flag("--truncate-distances", validate_opts.truncate, "Solomon / Li & Lim one-decimal arcs");
  validate_cmd->add_flag("-q,--quiet", validate_opts.quiet, "Print violations only");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }

  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  try {
    if (*solve_cmd) return run_solve(input, output, solve_opts);
    if (*batch_cmd) return run_batch(batch_inputs, out_dir, batch_opts);
    if (*validate_cmd) return run_validate(input, solution_file, validate_opts, solution_format);
  } catch (const Error& e) {
    fmt::print(stderr, "error ({}): {}\n", to_string(e.code()), e.what());
    return exit_code(e.code());
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "error (out of memory)\n");
    return exit_code(ErrorCode::OutOfMemory);
  } catch (const std::exception& e) {
    fmt::print(stderr, "error (internal): {}\n", e.what());
    return 1;
  }
  return 0;
}
