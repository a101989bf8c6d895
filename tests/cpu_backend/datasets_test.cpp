// The CPU backend on benchmark instances (time limit 0: construction + descent): every
// solution must pass the validator. Gaps to the best known solutions are printed, not asserted.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "routesolve/cpu/cpu_backend.hpp"
#include "routesolve/io/formats.hpp"
#include "routesolve/validator.hpp"
#include "test_support.hpp"

namespace routesolve::test {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> files_in(const fs::path& dir, const std::string& ext) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ext) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

/// instance -> bks_cost from a bks.csv (instance,bks_cost,source).
std::map<std::string, double> read_bks(const fs::path& csv) {
  std::map<std::string, double> out;
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    std::string name, cost;
    if (std::getline(ss, name, ',') && std::getline(ss, cost, ',')) {
      try {
        out[name] = std::stod(cost);
      } catch (...) {
      }
    }
  }
  return out;
}

struct RunResult {
  double seconds = 0;
  double cost = 0;  // output units
  std::size_t routes = 0;
};

RunResult solve_file(const fs::path& file, std::string_view format) {
  io::ReadOptions read;
  read.format = format;
  const auto problem = Problem::create(io::read_problem(file, read));
  auto backend = cpu::make_cpu_backend();
  const auto t0 = std::chrono::steady_clock::now();
  const Solution s = backend->solve(*problem, SolveOptions{});
  RunResult r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const ValidationReport report = validate(*problem, s);
  EXPECT_TRUE(report.ok()) << file << "\n" << report.to_text();
  EXPECT_TRUE(s.unassigned.empty()) << file << ": " << s.unassigned.size() << " unassigned";
  r.cost = static_cast<double>(s.summary.cost) / problem->cost_scale();
  r.routes = s.summary.routes;
  return r;
}

void run_set(const fs::path& dir, const std::string& ext, std::string_view format,
             const fs::path& bks_csv, std::size_t limit = 0) {
  const auto bks = read_bks(bks_csv);
  double gap_sum = 0, seconds = 0;
  std::size_t gaps = 0, count = 0;
  auto files = files_in(dir, ext);
  if (limit && files.size() > limit) files.resize(limit);
  for (const fs::path& f : files) {
    const RunResult r = solve_file(f, format);
    ++count;
    seconds += r.seconds;
    auto it = bks.find(f.stem().string());
    if (it == bks.end()) it = bks.find(dir.filename().string() + "/" + f.stem().string());
    if (it != bks.end() && it->second > 0) {
      const double gap = 100.0 * (r.cost - it->second) / it->second;
      gap_sum += gap;
      ++gaps;
      std::printf("  %-14s cost %10.1f routes %3zu  bks %10.1f  gap %6.2f%%  %.2fs\n",
                  f.stem().string().c_str(), r.cost, r.routes, it->second, gap, r.seconds);
    } else {
      std::printf("  %-14s cost %10.1f routes %3zu  %.2fs\n", f.stem().string().c_str(), r.cost,
                  r.routes, r.seconds);
    }
  }
  std::printf("%s: %zu instances, %.1fs, mean gap %.2f%% over %zu\n", dir.string().c_str(), count,
              seconds, gaps ? gap_sum / static_cast<double>(gaps) : 0.0, gaps);
}

TEST(CpuBackendDatasets, Augerat) {
  ROUTESOLVE_REQUIRE_DATASET("cvrp/augerat");
  for (const char* set : {"A", "B", "P"})
    run_set(datasets_dir() / "cvrp/augerat" / set, ".vrp", "cvrplib",
            datasets_dir() / "cvrp/augerat/bks.csv");
}

TEST(CpuBackendDatasets, Solomon) {
  ROUTESOLVE_REQUIRE_DATASET("vrptw/solomon");
  // bks.csv ranks by vehicles first: the printed gap compares distances only.
  run_set(datasets_dir() / "vrptw/solomon", ".txt", "solomon",
          datasets_dir() / "vrptw/solomon/bks.csv");
}

TEST(CpuBackendDatasets, LiLimSample) {
  ROUTESOLVE_REQUIRE_DATASET("pdptw/li_lim");
  const fs::path dir = datasets_dir() / "pdptw/li_lim";
  for (const char* name : {"lc101.txt", "lr106.txt", "lrc107.txt", "lc204.txt"}) {
    if (!fs::exists(dir / name)) continue;
    const RunResult r = solve_file(dir / name, "lilim");
    std::printf("  %-14s cost %10.1f routes %3zu  %.2fs\n", name, r.cost, r.routes, r.seconds);
  }
}

}  // namespace
}  // namespace routesolve::test
