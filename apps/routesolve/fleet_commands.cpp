// The fleet-file subcommands: solve, batch, validate.

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>
#include <vector>

#include "cli_common.hpp"
#include "routesolve/distributed/work_queue.hpp"
#include "routesolve/distributed/world.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/benchmark_formats.hpp"
#include "routesolve/io/formats.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "routesolve/validator.hpp"

namespace fs = std::filesystem;

namespace routesolve::app {
namespace {

int run_solve(const std::string& input, const std::string& output, const RunOptions& o) {
  ProgressBar bar(!o.quiet);
  Outcome out = solve_one(input, o, &bar);
  bar.finish();
  if (distributed::rank() != 0) return 0;  // --decompose under mpirun: rank 0 writes the solution
  const auto t_output = std::chrono::steady_clock::now();
  write_output(out, output, io::parse_output_format(o.output_format));
  const double output_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_output).count();
  out.solution.profile.push_back({"output", output_seconds});
  if (!o.quiet) {
    // Iterations (when the backend counts them) let engineers compare search speed across runs.
    const std::string iterations =
        out.solution.iterations > 0 ? fmt::format(", {} iterations", out.solution.iterations) : std::string();
    fmt::print(stderr, "{}: cost {:.3f}, {} routes, {} unassigned, {:.2f} s ({}){}\n", input,
               output_cost(*out.problem, out.solution.summary.cost), out.solution.summary.routes,
               out.solution.summary.unassigned, out.seconds, out.solution.backend, iterations);
    if (g_stop.load()) fmt::print(stderr, "interrupted: wrote the best solution found so far\n");
  }
  if (o.profile || !o.profile_out.empty()) report_profile(out.solution, o, input, out.seconds + output_seconds);
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

/// Writes text through a temporary file (unique to this process) and a rename: a reader, or a
/// re-run after a kill, sees the old file or the new one, never half of one.
void write_file_atomically(const fs::path& file, const std::string& text) {
  io::write_file_atomically(file, text);
}

// ---- batch status (--resume-batch) -------------------------------------------------------------
// OUT_DIR/batch_status.json, rewritten atomically after every file: the options that shape a
// solution, and per input file its size, modification time, status and summary figures. A re-run
// with --resume-batch skips the files recorded "ok" under the same options whose input is
// unchanged and whose solution file is still there.
constexpr const char* kBatchStatusFile = "batch_status.json";

/// Everything in RunOptions that changes a solution or its file (not quiet/verbose/profile).
std::string batch_options_key(const RunOptions& o) {
  return fmt::format("format={};output_format={};backend={};objective={};time_limit={};iterations={};chains={};seed={};threads={};"
                     "truncate={};transfer={};network={};max_snap={}",
                     o.format, o.output_format, o.backend, o.objective, o.time_limit, o.iterations, o.chains, o.seed, o.threads,
                     o.truncate, o.transfer, o.network, o.max_snap);
}

/// Size and modification time of an input, to notice a file changed since it was solved.
std::string input_stamp(const fs::path& file) {
  std::error_code ec;
  const auto size = fs::file_size(file, ec);
  if (ec) return "";
  const auto mtime = fs::last_write_time(file, ec);
  if (ec) return "";
  return fmt::format("{}:{}", size, mtime.time_since_epoch().count());
}

/// Test hook (tests/mpi): under mpirun, a worker rank handed the input file of this name raises
/// SIGKILL on itself (the rank, not the child that solves), as a rank killed by the OOM killer or
/// lost with its node would; rank 0 then only serves, so that the rank that dies is never the server.
constexpr const char* kTestKillRankOn = "ROUTESOLVE_TEST_KILL_RANK_ON";

int run_batch(const std::vector<std::string>& inputs, const std::string& out_dir,
              const RunOptions& o, bool resume, double rank_timeout) {
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
    bool done = false;  ///< solved (or skipped) in this run: it has a summary row
  };
  std::vector<Row> rows(files.size());
  ProgressBar bar(!o.quiet && !distributed::distributed());
  int failed = 0;

  // The status of a previous run (--resume-batch), and this run's, saved after every file.
  const fs::path status_path = fs::path(out_dir) / kBatchStatusFile;
  const std::string options_key = batch_options_key(o);
  nlohmann::json previous = nlohmann::json::object();
  if (resume && fs::exists(status_path)) {
    try {
      nlohmann::json j = nlohmann::json::parse(io::read_text_file(status_path));
      if (j.value("version", 0) == 1 && j.value("options", std::string()) == options_key && j.contains("files") &&
          j["files"].is_object())
        previous = std::move(j["files"]);
      else if (!o.quiet)
        fmt::print(stderr, "resume-batch: {} was written with other options: solving every file again\n",
                   status_path.string());
    } catch (const std::exception& e) {
      if (!o.quiet) fmt::print(stderr, "resume-batch: ignoring {}: {}\n", status_path.string(), e.what());
    }
  }
  nlohmann::json status = {{"version", 1}, {"options", options_key}, {"files", nlohmann::json::object()}};
  std::size_t skipped = 0;
  auto output_of = [&](const fs::path& file) {
    return fs::path(out_dir) / (file.stem().string() + std::string(io::extension(format)));
  };
  std::vector<std::size_t> todo;  // files to solve, in command-line order
  std::vector<std::string> stamps(files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    Row& row = rows[i];
    row.file = files[i].string();
    stamps[i] = input_stamp(files[i]);
    if (const auto it = previous.find(row.file); it != previous.end() && it->is_object() &&
                                                 it->value("status", std::string()) == "ok" && !stamps[i].empty() &&
                                                 it->value("input", std::string()) == stamps[i] &&
                                                 fs::exists(output_of(files[i]))) {
      // Solved OK before with the same options and input: keep that solution and its figures.
      row.tasks = it->value("tasks", std::size_t{0});
      row.routes = it->value("routes", std::size_t{0});
      row.unassigned = it->value("unassigned", std::size_t{0});
      row.cost = it->value("cost", 0.0);
      row.seconds = it->value("seconds", 0.0);
      row.done = true;
      status["files"][row.file] = *it;
      ++skipped;
      continue;
    }
    todo.push_back(i);
  }

  // One file solved: its row's figures as JSON (the text a rank sends to rank 0).
  auto solve_file = [&](std::size_t i) {
    Outcome out = solve_one(files[i], o, nullptr);
    write_output(out, output_of(files[i]), format);
    return nlohmann::json{{"tasks", out.problem->tasks().size()}, {"routes", out.solution.summary.routes},
                          {"unassigned", out.solution.summary.unassigned},
                          {"cost", output_cost(*out.problem, out.solution.summary.cost)}}
        .dump();
  };
  // A file's result recorded (on rank 0): its row, and the status file rewritten.
  auto record = [&](std::size_t i, bool ok, const std::string& text, double seconds) {
    Row& row = rows[i];
    row.done = true;
    row.seconds = seconds;
    if (ok) {
      const nlohmann::json j = nlohmann::json::parse(text);
      row.tasks = j.at("tasks").get<std::size_t>();
      row.routes = j.at("routes").get<std::size_t>();
      row.unassigned = j.at("unassigned").get<std::size_t>();
      row.cost = j.at("cost").get<double>();
    } else {
      ++failed;
      row.status = "failed";
      bar.finish();
      fmt::print(stderr, "error: {}\n", text);
    }
    // An interrupted solve (SIGINT) wrote its best solution, but not a finished one: not "ok".
    const bool finished = row.status == "ok" && !g_stop.load();
    status["files"][row.file] = {{"status", finished ? "ok" : row.status}, {"input", stamps[i]},
                                 {"output", output_of(files[i]).filename().string()}, {"tasks", row.tasks},
                                 {"routes", row.routes}, {"unassigned", row.unassigned},
                                 {"cost", row.cost}, {"seconds", row.seconds}};
    write_file_atomically(status_path, status.dump(1) + "\n");
  };

  if (!distributed::distributed()) {
    for (const std::size_t i : todo) {
      if (g_stop.load()) break;
      bar.update(static_cast<double>(i) / static_cast<double>(files.size()),
                 fmt::format("{}/{} {}", i + 1, files.size(), files[i].filename().string()));
      const auto t0 = std::chrono::steady_clock::now();
      bool ok = true;
      std::string text;
      try {
        text = solve_file(i);
      } catch (const std::exception& e) {
        ok = false;
        text = e.what();
      }
      record(i, ok, text, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
  } else {
    // Over MPI ranks: largest files first, handed out one at a time; each solved in a child
    // process, so that a file that crashes is that file's failure. The seconds travel with the
    // result (measured where the file was solved).
    std::vector<std::uint64_t> sizes;
    for (const std::size_t i : todo) {
      std::error_code size_ec;
      const auto bytes = fs::file_size(files[i], size_ec);
      sizes.push_back(size_ec ? 0 : bytes);
    }
    std::vector<std::size_t> order = distributed::largest_first(sizes);
    for (std::size_t& k : order) k = todo[k];
    const char* kill_on = std::getenv(kTestKillRankOn);
    if (kill_on != nullptr && *kill_on == '\0') kill_on = nullptr;
    if (distributed::rank() == 0 && !o.quiet && !distributed::recovery_enabled())
      fmt::print(stderr, "note: mpirun without --enable-recovery ends the whole job if a rank dies; with it, the "
                         "batch goes on without that rank (docs/SCALING.md)\n");
    distributed::QueueOptions queue;
    queue.rank_timeout_seconds = rank_timeout;
    queue.rank0_works = kill_on == nullptr;
    distributed::run_work_queue(
        order,
        [&](std::size_t i) {
          if (kill_on != nullptr && distributed::rank() != 0 && files[i].filename() == kill_on) {
            fmt::print(stderr, "{}: rank {} kills itself on {} (test hook)\n", kTestKillRankOn, distributed::rank(),
                       files[i].string());
            std::fflush(stderr);
            std::raise(SIGKILL);
          }
          const auto t0 = std::chrono::steady_clock::now();
          distributed::ItemResult r = distributed::run_isolated([&] { return solve_file(i); });
          const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          r.text = fmt::format("{:.6f} {}", seconds, r.text);
          return r;
        },
        [&](std::size_t i, const distributed::ItemResult& r) {
          if (r.lost) {  // the queue's own report: no seconds, no text from the rank
            record(i, false, files[i].string() + ": " + r.text, 0.0);
            return;
          }
          const std::size_t space = r.text.find(' ');
          const double seconds = std::strtod(r.text.c_str(), nullptr);
          const std::string text = space == std::string::npos ? r.text : r.text.substr(space + 1);
          record(i, r.ok, text.starts_with("crashed:") ? files[i].string() + ": " + text : text, seconds);
        },
        [] { return g_stop.load(); }, queue);
    if (distributed::rank() != 0) return 0;  // rank 0 writes the summary and says how it went
  }
  bar.finish();
  if (skipped > 0 && !o.quiet)
    fmt::print(stderr, "resume-batch: {} file(s) already solved with these options, skipped\n", skipped);

  // Machine-readable summary next to the solutions (written atomically), human-readable table on stdout.
  std::string csv = "file,tasks,routes,cost,unassigned,seconds,status\n";
  std::erase_if(rows, [](const Row& r) { return !r.done; });
  for (const auto& r : rows)
    csv += fmt::format("{},{},{},{:.3f},{},{:.3f},{}\n", csv_field(r.file), r.tasks, r.routes, r.cost,
                       r.unassigned, r.seconds, r.status);
  write_file_atomically(fs::path(out_dir) / "summary.csv", csv);
  std::size_t width = 4;
  for (const auto& r : rows) width = std::max(width, r.file.size());
  fmt::print("{:<{}}  {:>6} {:>6} {:>14} {:>10} {:>8}  {}\n", "file", width, "tasks", "routes",
             "cost", "unassigned", "seconds", "status");
  for (const auto& r : rows)
    fmt::print("{:<{}}  {:>6} {:>6} {:>14.3f} {:>10} {:>8.2f}  {}\n", r.file, width, r.tasks,
               r.routes, r.cost, r.unassigned, r.seconds, r.status);
  fmt::print("{} files, {} ok, {} failed{}\n", rows.size(),
             rows.size() - static_cast<std::size_t>(failed), failed,
             g_stop.load() ? " (interrupted)" : "");
  if (failed > 0 && distributed::distributed() && distributed::recovery_enabled() && !o.quiet)
    fmt::print(stderr, "note: under mpirun --enable-recovery, Open MPI 4 ends the job with status 0 whatever the "
                       "ranks return: summary.csv and {} say which files failed\n", kBatchStatusFile);
  return failed > 0 || g_stop.load() ? 1 : 0;
}

int run_validate(const std::string& input, const std::string& solution_file, const RunOptions& o,
                 const std::string& solution_format) {
  ProblemPtr problem = load_problem(input, o);
  const fs::path sol(solution_file);
  const bool is_sol =
      solution_format == "sol" || (solution_format == "auto" && sol.extension() == ".sol");
  Solution solution;
  ValidateOptions vo;
  std::optional<io::CvrplibCost> claimed;
  if (is_sol) {
    const std::string text = io::read_text_file(sol);
    solution = io::parse_cvrplib_solution(text, sol.string(), *problem);
    claimed = io::cvrplib_solution_cost(text, sol.string());
    vo.check_figures = false;  // .sol files carry routes only: their figures are recomputed below
  } else {
    solution = io::read_vroom_solution(sol, *problem);
  }
  const ValidationReport report = validate(*problem, solution, vo);
  if (!report.ok()) {
    fmt::print("{}: {} violation(s)\n{}", solution_file, report.violations.size(), report.to_text());
    return 1;
  }
  if (is_sol) {
    // The routes' figures from the instance alone (core's schedule), checked whole by the
    // validator, then the file's Cost line against them to the digits it gives.
    auto scheduled = schedule_routes(*problem, solution);
    if (const std::size_t* refused = std::get_if<std::size_t>(&scheduled)) {
      fmt::print("{}: Route #{}: not a feasible route of vehicle {}\n", solution_file, *refused + 1,
                 problem->vehicle(solution.routes[*refused].vehicle).id);
      return 1;
    }
    solution = std::get<Solution>(std::move(scheduled));
    const ValidationReport whole = validate(*problem, solution);
    if (!whole.ok()) {
      fmt::print("{}: {} violation(s)\n{}", solution_file, whole.violations.size(), whole.to_text());
      return 1;
    }
    const double cost = output_cost(*problem, solution.summary.cost);
    if (claimed) {
      const double tolerance = 0.5 * std::pow(10.0, -claimed->decimals) + 0.5 / problem->cost_scale();
      if (std::abs(claimed->value - cost) > tolerance) {
        fmt::print("{}:{}: Cost: the file says {}, its routes cost {:.3f} (recomputed from the instance)\n",
                   solution_file, claimed->line, claimed->value, cost);
        return 1;
      }
    }
  }
  if (!o.quiet)
    fmt::print("{}: valid: {} routes, {} unassigned, cost {:.3f}{}\n", solution_file, solution.routes.size(),
               solution.unassigned.size(), output_cost(*problem, solution.summary.cost),
               claimed ? ", as its Cost line says" : "");
  return 0;
}

}  // namespace

void add_fleet_commands(CLI::App& app, int* exit_status) {
  struct State {
    RunOptions solve_opts, batch_opts, validate_opts;
    std::string input, output, out_dir, solution_file, solution_format = "auto";
    bool resume_batch = false;
    double rank_timeout = 30.0;
    std::vector<std::string> batch_inputs;
  };
  auto s = std::make_shared<State>();

  auto* solve_cmd = app.add_subcommand("solve", "Solve one fleet file");
  solve_cmd
      ->add_option("INPUT", s->input, "Fleet file (VROOM JSON, CVRPLIB .vrp, Solomon, Li & Lim)")
      ->required();
  solve_cmd->add_option("-o,--output", s->output, "Output file (default: standard output)");
  add_run_options(*solve_cmd, s->solve_opts);
  solve_cmd->add_option("--profile-out", s->solve_opts.profile_out,
                        "Write the stage profile as JSON: {input, backend, total, stages: [{stage, seconds, share, parts}]}");
  solve_cmd->add_option("--trace", s->solve_opts.trace,
                        "Write the best solution over time as CSV (elapsed_s,cost,routes,unassigned; one row per "
                        "improvement, seconds since the solve began)");
  solve_cmd->add_option("--checkpoint", s->solve_opts.checkpoint,
                        "Write the search state to this file (atomically, with a checksum) from time to time; "
                        "cpu backend (auto picks it)");
  solve_cmd->add_option("--checkpoint-every", s->solve_opts.checkpoint_every, "Seconds between checkpoints")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  solve_cmd->add_option("--resume", s->solve_opts.resume,
                        "Continue the solve a --checkpoint file recorded (its seed, threads, objective and "
                        "time limit unless given; the time already spent counts against the limit)");
  solve_cmd->add_flag("-c,--check", s->solve_opts.check,
                      "Plan mode: every vehicle's steps are its whole route; report VROOM's violations per step "
                      "and route instead of solving");
  solve_cmd->add_flag("--decompose", s->solve_opts.decompose,
                      "Very large problems under mpirun: the plan is cut into groups of nearby routes that the "
                      "ranks improve as subproblems, merged after every round (docs/SCALING.md); cpu backend");
  solve_cmd->add_option("--decompose-rounds", s->solve_opts.decompose_rounds, "--decompose: rounds (default 3)")
      ->check(CLI::Range(1u, 1000u));
  solve_cmd->callback([s, solve_cmd, exit_status] {
    RunOptions& o = s->solve_opts;
    o.seed_given = solve_cmd->count("--seed") > 0;
    o.threads_given = solve_cmd->count("--threads") > 0;
    o.time_limit_given = solve_cmd->count("--time-limit") > 0;
    o.objective_given = solve_cmd->count("--objective") > 0;
    if (o.decompose && (o.check || !o.checkpoint.empty() || !o.resume.empty()))
      throw invalid_input("--decompose", "cannot be combined with --check, --checkpoint or --resume");
    if (solve_cmd->count("--checkpoint-every") > 0 && o.checkpoint.empty())
      throw invalid_input("--checkpoint-every", "needs --checkpoint FILE");
    *exit_status = run_solve(s->input, s->output, o);
  });

  auto* batch_cmd = app.add_subcommand("batch", "Solve many fleet files or folders of them");
  batch_cmd->footer(
      "Under `mpirun -n N` the files are shared out over the ranks. Run `mpirun --enable-recovery` so that a rank "
      "that dies (killed, out of memory, node lost) fails only the file it held while the others finish; without it "
      "Open MPI ends the whole job. Under --enable-recovery mpirun's exit status is 0 whatever happened: "
      "summary.csv says which files failed (docs/SCALING.md).");
  batch_cmd->add_option("INPUT", s->batch_inputs, "Fleet files or folders")->required();
  batch_cmd->add_option("--out-dir", s->out_dir, "Folder for the solutions and summary.csv")
      ->required();
  add_run_options(*batch_cmd, s->batch_opts);
  batch_cmd->add_flag("--resume-batch", s->resume_batch,
                      "Skip the files OUT_DIR/batch_status.json records as solved with the same options");
  batch_cmd->add_option("--rank-timeout", s->rank_timeout,
                        "Under mpirun: seconds without a heartbeat after which a rank solving a file is taken for "
                        "dead and its file reported failed (ranks beat every fifth of it)")
      ->check(CLI::Range(0.1, 86400.0))
      ->capture_default_str();
  batch_cmd->callback([s, exit_status] {
    *exit_status = run_batch(s->batch_inputs, s->out_dir, s->batch_opts, s->resume_batch, s->rank_timeout);
  });

  auto* validate_cmd = app.add_subcommand("validate", "Check a solution against its problem");
  validate_cmd->add_option("INPUT", s->input, "Fleet file")->required();
  validate_cmd
      ->add_option("SOLUTION", s->solution_file, "Solution (VROOM JSON output or CVRPLIB .sol)")
      ->required();
  validate_cmd->add_option("--format", s->validate_opts.format, "Input format")
      ->check(CLI::IsMember({"auto", "vroom", "cvrplib", "solomon", "lilim"}));
  validate_cmd->add_option("--solution-format", s->solution_format, "Solution format")
      ->check(CLI::IsMember({"auto", "json", "sol"}));
  validate_cmd->add_flag("--truncate-distances", s->validate_opts.truncate,
                         "Solomon / Li & Lim one-decimal arcs");
  validate_cmd->add_option("--network", s->validate_opts.network,
                           "Road network the solution was solved on (solve --network)");
  validate_cmd->add_option("--max-snap", s->validate_opts.max_snap, "With --network: as given to solve")
      ->check(CLI::NonNegativeNumber);
  validate_cmd->add_flag("-q,--quiet", s->validate_opts.quiet, "Print violations only");
  validate_cmd->callback([s, exit_status] {
    *exit_status = run_validate(s->input, s->solution_file, s->validate_opts, s->solution_format);
  });
}

}  // namespace routesolve::app
