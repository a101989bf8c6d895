// Checkpoint overhead (a benchmark, not a test). Prints two Markdown tables:
//  1. the time to write one checkpoint (encode + unique temporary file + fsync + rename, as
//     `solve --checkpoint` does) for plans of 1,000 and 10,000 tasks, and the time of the
//     problem fingerprint computed once per checkpointed or resumed solve;
//  2. the same CPU solve (`--backend cpu`, the instance and seed below) without checkpoints and
//     with a checkpoint every E seconds, in alternating runs: search iterations per second side
//     by side, and the overhead share they imply, next to the share a 60 s interval costs
//     (time of one checkpoint / 60 s).
//
//   bench_checkpoint [--instance X.vrp] [--seconds 10] [--pairs 3] [--every 1,0.1] [--threads 1]

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "routesolve/checkpoint.hpp"
#include "routesolve/io/checkpoint.hpp"
#include "routesolve/io/formats.hpp"
#include "routesolve/solve.hpp"
#include "routesolve/timing.hpp"

namespace fs = std::filesystem;
using namespace routesolve;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

/// A plan of n tasks on n / 10 routes, as a checkpoint of that size carries.
SolveCheckpoint synthetic_checkpoint(std::size_t n) {
  SolveCheckpoint c;
  c.fingerprint = 0x1234;
  c.time_limit_s = 3600;
  c.elapsed_s = 60;
  c.iterations = 1000000;
  std::vector<std::size_t> tasks(n);
  for (std::size_t i = 0; i < n; ++i) tasks[i] = i;
  std::shuffle(tasks.begin(), tasks.end(), std::mt19937_64(1));
  c.routes.resize(n / 10);
  for (std::size_t i = 0; i < n; ++i) c.routes[i % c.routes.size()].push_back(tasks[i]);
  return c;
}

struct Args {
  fs::path instance;
  double seconds = 10;
  int pairs = 3;
  std::vector<double> every = {1.0, 0.1};
  unsigned threads = 1;
};

std::vector<double> parse_list(const std::string& text) {
  std::vector<double> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    out.push_back(std::stod(text.substr(start, comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

struct Run {
  double ips = 0;
  std::size_t checkpoints = 0;
  double cost = 0;
};

Run run_solve(const Problem& problem, const Args& a, double every, const fs::path& file) {
  SolveOptions o;
  o.backend = BackendKind::Cpu;
  o.time_limit_s = a.seconds;
  o.threads = a.threads;
  o.seed = 1;
  Run r;
  if (every > 0) {
    o.checkpoint_every_s = every;
    o.on_checkpoint = [&](const SolveCheckpoint& c) {
      io::write_checkpoint(file, c);
      ++r.checkpoints;
    };
  }
  const Solution s = solve(problem, o);
  double search_s = 0;
  for (const StageTime& st : s.profile)
    if (st.stage == "local_search") search_s = st.seconds;
  r.ips = search_s > 0 ? static_cast<double>(s.iterations) / search_s : 0.0;
  r.cost = static_cast<double>(s.summary.cost) / problem.cost_scale();
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  a.instance = fs::path(ROUTESOLVE_BENCH_DATASETS) / "cvrp/x/X-n979-k58.vrp";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--instance")
      a.instance = v;
    else if (k == "--seconds")
      a.seconds = std::stod(v);
    else if (k == "--pairs")
      a.pairs = std::stoi(v);
    else if (k == "--every")
      a.every = parse_list(v);
    else if (k == "--threads")
      a.threads = static_cast<unsigned>(std::stoul(v));
    else {
      fmt::print(stderr, "unknown option {}\n", k);
      return 2;
    }
  }
  const fs::path dir =
      fs::temp_directory_path() / fmt::format("routesolve_bench_checkpoint_{}", ::getpid());
  fs::create_directories(dir);

  // ---- 1. one checkpoint ------------------------------------------------------------------
  fmt::print(
      "| tasks | file size | encode | write (temp + fsync + rename) | read + decode | overhead of "
      "one per 60 s |\n");
  fmt::print("|---|---|---|---|---|---|\n");
  for (std::size_t n : {std::size_t{1000}, std::size_t{10000}}) {
    const SolveCheckpoint c = synthetic_checkpoint(n);
    const fs::path file = dir / fmt::format("n{}.ckpt", n);
    std::vector<double> encode, write, read;
    std::size_t bytes = 0;
    for (int k = 0; k < 21; ++k) {
      auto t0 = Clock::now();
      bytes = io::encode_checkpoint(c).size();
      encode.push_back(seconds_since(t0));
      t0 = Clock::now();
      io::write_checkpoint(file, c);
      write.push_back(seconds_since(t0));
      t0 = Clock::now();
      (void)io::read_checkpoint(file);
      read.push_back(seconds_since(t0));
    }
    fmt::print("| {} | {:.1f} KB | {:.3f} ms | {:.2f} ms | {:.3f} ms | {:.4f}% |\n", n,
               bytes / 1024.0, 1e3 * median(encode), 1e3 * median(write), 1e3 * median(read),
               100.0 * median(write) / 60.0);
  }

  const auto problem = Problem::create(io::read_problem(a.instance));
  std::vector<double> fp;
  for (int k = 0; k < 5; ++k) {
    const auto t0 = Clock::now();
    (void)problem_fingerprint(*problem);
    fp.push_back(seconds_since(t0));
  }
  fmt::print("\nproblem fingerprint ({} locations, once per solve): {:.2f} ms\n\n",
             problem->locations(), 1e3 * median(fp));

  // ---- 2. end to end ----------------------------------------------------------------------
  fmt::print("{}: {} s per solve, {} thread(s), seed 1, {} alternating rounds\n\n",
             a.instance.filename().string(), a.seconds, a.threads, a.pairs);
  std::vector<std::string> header = {"| round | without: it/s"};
  for (double e : a.every) header.push_back(fmt::format("every {} s: it/s (checkpoints)", e));
  std::string separator = "|---|---";
  for (std::size_t e = 0; e < a.every.size(); ++e) separator += "|---";
  fmt::print("{} |\n{}|\n", fmt::join(header, " | "), separator);
  std::vector<double> base;
  std::vector<std::vector<double>> with(a.every.size());
  for (int p = 0; p < a.pairs; ++p) {
    const Run r0 = run_solve(*problem, a, 0.0, dir / "run.ckpt");
    base.push_back(r0.ips);
    std::string line = fmt::format("| {} | {:.0f}", p + 1, r0.ips);
    for (std::size_t e = 0; e < a.every.size(); ++e) {
      const Run r = run_solve(*problem, a, a.every[e], dir / "run.ckpt");
      with[e].push_back(r.ips);
      line += fmt::format(" | {:.0f} ({})", r.ips, r.checkpoints);
    }
    fmt::print("{} |\n", line);
  }
  std::string line = fmt::format("| median | {:.0f}", median(base));
  for (std::size_t e = 0; e < a.every.size(); ++e)
    line += fmt::format(" | {:.0f} ({:+.1f}%)", median(with[e]),
                        100.0 * (median(with[e]) / median(base) - 1.0));
  fmt::print("{} |\n", line);
  fs::remove_all(dir);
  return 0;
}
