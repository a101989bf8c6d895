// `routesolve batch`: many fleet files or folders of them, one solution each and summary.csv,
// shared out over the MPI ranks under mpirun (each file solved in a child process, so that a
// crash fails that file only); --resume-batch keeps what batch_status.json records as solved
// (routesolve/io/batch_status.hpp).

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_common.hpp"
#include "routesolve/distributed/work_queue.hpp"
#include "routesolve/distributed/world.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/atomic_file.hpp"
#include "routesolve/io/batch_status.hpp"
#include "routesolve/io/formats.hpp"

namespace fs = std::filesystem;

namespace routesolve::app {
namespace {

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

/// Everything in RunOptions that changes a solution or its file (not quiet/verbose/profile).
std::string batch_options_key(const RunOptions& o) {
  // The matrix engine only when given, so that a status file of an older run still matches.
  const std::string engine = o.matrix_engine.empty() ? "" : ";matrix_engine=" + o.matrix_engine;
  return fmt::format(
      "format={};output_format={};backend={};objective={};time_limit={};iterations={};chains={};"
      "seed={};threads={};"
      "truncate={};transfer={};network={};max_snap={}{}",
      o.format, o.output_format, o.backend, o.objective, o.time_limit, o.iterations, o.chains,
      o.seed, o.threads, o.truncate, o.transfer, o.network, o.max_snap, engine);
}

#ifdef ROUTESOLVE_TEST_HOOKS
/// Test hook (tests/mpi; built with -DROUTESOLVE_TEST_HOOKS=ON only): under mpirun, a worker rank
/// handed the input file of this name raises SIGKILL on itself (the rank, not the child that
/// solves), as a rank killed by the OOM killer or lost with its node would; rank 0 then only
/// serves, so that the rank that dies is never the server.
constexpr const char* kTestKillRankOn = "ROUTESOLVE_TEST_KILL_RANK_ON";
#endif

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
  io::BatchStatus status(out_dir, batch_options_key(o));
  if (resume)
    if (const std::string ignored = status.load_previous(); !ignored.empty() && !o.quiet)
      fmt::print(stderr, "resume-batch: {}\n", ignored);
  std::size_t skipped = 0;
  auto output_of = [&](const fs::path& file) {
    return fs::path(out_dir) / (file.stem().string() + std::string(io::extension(format)));
  };
  std::vector<std::size_t> todo;  // files to solve, in command-line order
  std::vector<std::string> stamps(files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    Row& row = rows[i];
    row.file = files[i].string();
    stamps[i] = io::input_stamp(files[i]);
    if (const auto kept = status.keep(row.file, stamps[i], output_of(files[i]))) {
      // Solved OK before with the same options and input: keep that solution and its figures.
      row.tasks = kept->tasks;
      row.routes = kept->routes;
      row.unassigned = kept->unassigned;
      row.cost = kept->cost;
      row.seconds = kept->seconds;
      row.done = true;
      ++skipped;
      continue;
    }
    todo.push_back(i);
  }

  // One file solved: its row's figures as JSON (the text a rank sends to rank 0).
  auto solve_file = [&](std::size_t i) {
    Outcome out = solve_one(files[i], o, nullptr);
    write_output(out, output_of(files[i]), format);
    return nlohmann::json{{"tasks", out.problem->tasks().size()},
                          {"routes", out.solution.summary.routes},
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
    status.record(row.file,
                  {finished ? "ok" : row.status, stamps[i], output_of(files[i]).filename().string(),
                   row.tasks, row.routes, row.unassigned, row.cost, row.seconds});
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
      record(i, ok, text,
             std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
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
    const char* kill_on = nullptr;
#ifdef ROUTESOLVE_TEST_HOOKS
    kill_on = std::getenv(kTestKillRankOn);
    if (kill_on != nullptr && *kill_on == '\0') kill_on = nullptr;
#endif
    if (distributed::rank() == 0 && !o.quiet && !distributed::recovery_enabled())
      fmt::print(
          stderr,
          "note: mpirun without --enable-recovery ends the whole job if a rank dies; with it, the "
          "batch goes on without that rank (docs/SCALING.md)\n");
    distributed::QueueOptions queue;
    queue.rank_timeout_seconds = rank_timeout;
    queue.rank0_works = kill_on == nullptr;
    distributed::run_work_queue(
        order,
        [&](std::size_t i) {
#ifdef ROUTESOLVE_TEST_HOOKS
          if (kill_on != nullptr && distributed::rank() != 0 && files[i].filename() == kill_on) {
            fmt::print(stderr, "{}: rank {} kills itself on {} (test hook)\n", kTestKillRankOn,
                       distributed::rank(), files[i].string());
            std::fflush(stderr);
            std::raise(SIGKILL);
          }
#endif
          const auto t0 = std::chrono::steady_clock::now();
          distributed::ItemResult r = distributed::run_isolated([&] { return solve_file(i); });
          const double seconds =
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
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
          record(i, r.ok, text.starts_with("crashed:") ? files[i].string() + ": " + text : text,
                 seconds);
        },
        [] { return g_stop.load(); }, queue);
    if (distributed::rank() != 0) return 0;  // rank 0 writes the summary and says how it went
  }
  bar.finish();
  if (skipped > 0 && !o.quiet)
    fmt::print(stderr, "resume-batch: {} file(s) already solved with these options, skipped\n",
               skipped);

  // Machine-readable summary next to the solutions (written atomically), human-readable table on
  // stdout.
  std::string csv = "file,tasks,routes,cost,unassigned,seconds,status\n";
  std::erase_if(rows, [](const Row& r) { return !r.done; });
  for (const auto& r : rows)
    csv += fmt::format("{},{},{},{:.3f},{},{:.3f},{}\n", csv_field(r.file), r.tasks, r.routes,
                       r.cost, r.unassigned, r.seconds, r.status);
  io::write_file_atomically(fs::path(out_dir) / "summary.csv", csv);
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
    fmt::print(
        stderr,
        "note: under mpirun --enable-recovery, Open MPI 4 ends the job with status 0 whatever the "
        "ranks return: summary.csv and {} say which files failed\n",
        io::kBatchStatusFile);
  return failed > 0 || g_stop.load() ? 1 : 0;
}

}  // namespace

void add_batch_command(CLI::App& app, int* exit_status) {
  struct State {
    RunOptions run;
    std::vector<std::string> inputs;
    std::string out_dir;
    bool resume_batch = false;
    double rank_timeout = 30.0;
  };
  auto s = std::make_shared<State>();
  auto* batch_cmd = app.add_subcommand("batch", "Solve many fleet files or folders of them");
  batch_cmd->footer(
      "Under `mpirun -n N` the files are shared out over the ranks. Run `mpirun --enable-recovery` "
      "so that a rank "
      "that dies (killed, out of memory, node lost) fails only the file it held while the others "
      "finish; without it "
      "Open MPI ends the whole job. Under --enable-recovery mpirun's exit status is 0 whatever "
      "happened: "
      "summary.csv says which files failed (docs/SCALING.md).");
  batch_cmd->add_option("INPUT", s->inputs, "Fleet files or folders")->required();
  batch_cmd->add_option("--out-dir", s->out_dir, "Folder for the solutions and summary.csv")
      ->required();
  add_run_options(*batch_cmd, s->run);
  batch_cmd->add_flag(
      "--resume-batch", s->resume_batch,
      "Skip the files OUT_DIR/batch_status.json records as solved with the same options");
  batch_cmd
      ->add_option("--rank-timeout", s->rank_timeout,
                   "Under mpirun: seconds without a heartbeat after which a rank solving a file is "
                   "taken for "
                   "dead and its file reported failed (ranks beat every fifth of it)")
      ->check(CLI::Range(0.1, 86400.0))
      ->capture_default_str();
  batch_cmd->callback([s, exit_status] {
    *exit_status = run_batch(s->inputs, s->out_dir, s->run, s->resume_batch, s->rank_timeout);
  });
}

}  // namespace routesolve::app
