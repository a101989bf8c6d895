// Granular neighbour lists (search/neighbours.hpp; a benchmark, not a test): the scan of every
// pair against the R-tree over planar points, on the files given. Prints a Markdown table: tasks,
// k, the CPU seconds of each (the process's CPU clock, the minimum of --runs runs; one thread),
// whether the spatial index was used and whether the two give the same lists. --relocated: on the
// copy with its locations in locality order that the search runs on from 500 locations (up to
// 1 GiB of tables; search/locality.hpp).
//
//   bench_neighbours FILE... [--k 30,100] [--runs 3] [--truncate] [--relocated]

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "routesolve/io/formats.hpp"
#include "routesolve/search/locality.hpp"
#include "routesolve/search/neighbours.hpp"

using namespace routesolve;
using search::Neighbours;

namespace {

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

/// The lists of `method` and the least CPU seconds of `runs` builds.
std::pair<Neighbours, double> timed(const Problem& p, std::size_t k, Neighbours::Method method,
                                    int runs) {
  double best = 1e300;
  Neighbours lists(p, 0);
  for (int r = 0; r < runs; ++r) {
    const double start = cpu_seconds();
    Neighbours built(p, k, method);
    best = std::min(best, cpu_seconds() - start);
    lists = std::move(built);
  }
  return {std::move(lists), best};
}

bool same_lists(const Neighbours& a, const Neighbours& b, std::size_t tasks) {
  for (std::size_t t = 0; t < tasks; ++t)
    if (!std::equal(a.of(t).begin(), a.of(t).end(), b.of(t).begin(), b.of(t).end())) return false;
  return true;
}

std::vector<std::size_t> numbers(const std::string& list) {
  std::vector<std::size_t> out;
  for (std::size_t at = 0; at < list.size();) {
    const std::size_t comma = std::min(list.find(',', at), list.size());
    out.push_back(std::stoul(list.substr(at, comma - at)));
    at = comma + 1;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> files;
  std::vector<std::size_t> ks{30, 100};
  int runs = 3;
  bool relocated = false;
  io::ReadOptions read;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--k" && i + 1 < argc)
      ks = numbers(argv[++i]);
    else if (a == "--runs" && i + 1 < argc)
      runs = std::max(1, std::atoi(argv[++i]));
    else if (a == "--truncate")
      read.truncate_one_decimal = true;
    else if (a == "--relocated")
      relocated = true;
    else
      files.push_back(a);
  }
  if (files.empty()) {
    fmt::print(
        stderr,
        "usage: bench_neighbours FILE... [--k 30,100] [--runs 3] [--truncate] [--relocated]\n");
    return 2;
  }
  fmt::print(
      "| file | tasks | k | scan CPU s | spatial CPU s | spatial index | same lists "
      "|\n|---|--:|--:|--:|--:|---|---|\n");
  for (const std::string& file : files) {
    ProblemPtr p = Problem::create(io::read_problem(file, read));
    if (relocated) {
      if (ProblemPtr ordered = search::locality_ordered(*p, 0, std::uint64_t{1} << 30))
        p = std::move(ordered);
      else
        fmt::print(stderr, "{}: no copy in locality order (over 1 GiB of tables)\n", file);
    }
    for (const std::size_t k : ks) {
      const auto [scan, scan_s] = timed(*p, k, Neighbours::Method::Scan, runs);
      const auto [fast, fast_s] = timed(*p, k, Neighbours::Method::Auto, runs);
      fmt::print("| {} | {} | {} | {:.3f} | {:.3f} | {} | {} |\n", file, p->tasks().size(), k,
                 scan_s, fast_s, fast.spatial() ? "yes" : "no",
                 same_lists(scan, fast, p->tasks().size()) ? "yes" : "NO");
    }
  }
  return 0;
}
