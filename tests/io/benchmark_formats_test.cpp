// Benchmark formats (CVRPLIB/TSPLIB, Solomon / Gehring & Homberger, Li & Lim), robustness:
// truncated and corrupted real files parse or fail cleanly. Each format's own tests are in
// cvrplib_test.cpp, solomon_test.cpp and lilim_test.cpp.

#include "routesolve/io/benchmark_formats.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "benchmark_support.hpp"
#include "routesolve/error.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/validator.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using namespace routesolve;
using namespace benchmark_support;

// ------------------------------------------------------------------------------------------------
// Robustness: every prefix and many single-byte corruptions of real files either parse or fail
// with routesolve::Error (never another exception, never a crash).
// ------------------------------------------------------------------------------------------------

namespace {

template <typename Parse>
void fuzz_file(const fs::path& file, Parse&& parse) {
  SCOPED_TRACE(file.string());
  const std::string text = slurp(file);
  auto attempt = [&](const std::string& t) {
    try {
      parse(t);
    } catch (const Error&) {
      // expected for most corruptions
    } catch (const std::exception& e) {
      ADD_FAILURE() << "non-routesolve exception: " << e.what();
    }
  };
  for (std::size_t cut = 0; cut < text.size(); cut += 41) attempt(text.substr(0, cut));
  const char junk[] = {'x', '-', ':', '\n', ' ', '9', '.', '\0'};
  for (std::size_t pos = 3, k = 0; pos < text.size(); pos += 53, ++k) {
    std::string t = text;
    t[pos] = junk[k % sizeof junk];
    attempt(t);
  }
}

}  // namespace

TEST(BenchmarkFormats, TruncatedAndCorruptedFilesFailCleanly) {
  ROUTESOLVE_REQUIRE_DATASET("cvrp/augerat/A");
  const fs::path d = test::datasets_dir();
  fuzz_file(d / "cvrp/augerat/A/A-n32-k5.vrp",
            [](const std::string& t) { io::parse_cvrplib(t, "a.vrp"); });
  fuzz_file(d / "cvrp/x/X-n101-k25.vrp",
            [](const std::string& t) { io::parse_cvrplib(t, "x.vrp"); });
  fuzz_file(d / "vrptw/solomon/C101.txt",
            [](const std::string& t) { io::parse_solomon(t, "c.txt", false); });
  fuzz_file(d / "pdptw/li_lim/lc101.txt",
            [](const std::string& t) { io::parse_lilim(t, "l.txt", false); });
  const ProblemPtr problem =
      Problem::create(io::parse_cvrplib(slurp(d / "cvrp/x/X-n101-k25.vrp"), "x.vrp"));
  fuzz_file(d / "cvrp/x/X-n101-k25.sol",
            [&](const std::string& t) { io::parse_cvrplib_solution(t, "x.sol", *problem); });
}
