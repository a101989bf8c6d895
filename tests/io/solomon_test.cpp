// Solomon / Gehring & Homberger: every shared instance parses, C101's figures, best-known
// solutions match their distance, exact truncation, corrupt inputs failing with file:line.

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
#include "routesolve/io/benchmark_formats.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/validator.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using namespace routesolve;
using namespace benchmark_support;

// ------------------------------------------------------------------------------------------------
// Solomon / Gehring & Homberger
// ------------------------------------------------------------------------------------------------

namespace {

// NUMBER and CAPACITY read naively from the fifth line.
std::pair<long, long> solomon_fleet(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  for (int i = 0; i < 5; ++i) std::getline(in, line);
  std::istringstream row(line);
  long number = 0, capacity = 0;
  row >> number >> capacity;
  return {number, capacity};
}

void check_solomon_instance(const fs::path& file, std::size_t customers) {
  SCOPED_TRACE(file.string());
  const std::string text = slurp(file);
  const ProblemSpec spec = io::parse_solomon(text, file.string(), false);
  const auto [number, capacity] = solomon_fleet(text);
  EXPECT_EQ(spec.jobs.size(), customers);
  EXPECT_EQ(spec.vehicles.size(), static_cast<std::size_t>(number));
  EXPECT_EQ(spec.vehicles.front().capacity, Amount{capacity});
  EXPECT_EQ(spec.scale.distance, 1000.0);
  EXPECT_EQ(spec.matrices.at("car").durations.size(), customers + 1);
  for (std::size_t i = 0; i < spec.jobs.size(); ++i) {
    EXPECT_EQ(spec.jobs[i].id, i + 1);
    EXPECT_EQ(spec.jobs[i].location.index, std::optional<std::size_t>(i + 1));
    ASSERT_EQ(spec.jobs[i].time_windows.size(), 1u);
  }
  const ProblemSpec truncated = io::parse_solomon(text, file.string(), true);
  EXPECT_EQ(truncated.scale.time, 10.0);
  // Each truncated arc is the exact arc cut to one decimal.
  const Matrix& exact = spec.matrices.at("car").distances;
  const Matrix& cut = truncated.matrices.at("car").distances;
  for (std::size_t j = 1; j <= customers; j += 37) {
    const double d = euclid(*spec.vehicles[0].start->coords, *spec.jobs[j - 1].location.coords);
    EXPECT_EQ(cut(0, j), static_cast<std::int64_t>(std::floor(d * 10 + 1e-9)));
    EXPECT_NEAR(static_cast<double>(exact(0, j)), d * 1000, 0.5);
  }
}

}  // namespace

TEST(Solomon, EverySolomonInstanceParses) {
  ROUTESOLVE_REQUIRE_DATASET("vrptw/solomon");
  const auto files = files_with(test::datasets_dir() / "vrptw/solomon", ".txt");
  EXPECT_EQ(files.size(), 56u);
  for (const auto& f : files) check_solomon_instance(f, 100);
}

TEST(Solomon, EveryGehringHombergerInstanceParses) {
  ROUTESOLVE_REQUIRE_DATASET("vrptw/gehring_homberger");
  const auto files = files_with(test::datasets_dir() / "vrptw/gehring_homberger", ".txt");
  EXPECT_EQ(files.size(), 150u);
  for (const auto& f : files) {
    // c1_10_1 -> 1000 customers, r2_4_3 -> 400.
    const std::string stem = f.stem().string();
    const auto a = stem.find('_'), b = stem.find('_', a + 1);
    check_solomon_instance(f, 100 * std::stoul(stem.substr(a + 1, b - a - 1)));
  }
}

TEST(Solomon, C101Figures) {
  ROUTESOLVE_REQUIRE_DATASET("vrptw/solomon");
  const std::string text = slurp(test::datasets_dir() / "vrptw/solomon/C101.txt");
  const ProblemSpec spec = io::parse_solomon(text, "C101.txt", false);
  EXPECT_EQ(spec.name, "C101");
  // Depot (40,50), customer 1 (45,68): sqrt(349) = 18.6815...
  EXPECT_EQ(spec.matrices.at("car").distances(0, 1), 18682);
  EXPECT_EQ(spec.vehicles[0].time_window, (TimeWindow{0, 1236000}));
  EXPECT_EQ(spec.jobs[0].time_windows[0], (TimeWindow{912000, 967000}));
  EXPECT_EQ(spec.jobs[0].service, 90000);
  EXPECT_EQ(spec.jobs[0].delivery, Amount{10});
  const ProblemSpec cut = io::parse_solomon(text, "C101.txt", true);
  EXPECT_EQ(cut.matrices.at("car").distances(0, 1), 186);
  EXPECT_EQ(cut.jobs[0].time_windows[0], (TimeWindow{9120, 9670}));
  const ProblemPtr problem = Problem::create(spec);
  EXPECT_EQ(problem->tasks().size(), 100u);
  EXPECT_EQ(problem->vehicles().size(), 25u);
  EXPECT_EQ(problem->cost_scale(), 1000.0);
}

// The best-known Gehring & Homberger solutions: their distances, recomputed on the parsed
// instances, match the figures in the file names.
TEST(Solomon, GehringHombergerBestSolutionsMatchTheirDistance) {
  ROUTESOLVE_REQUIRE_DATASET("vrptw/gehring_homberger/bks_solutions");
  const fs::path dir = test::datasets_dir() / "vrptw/gehring_homberger";
  const auto sols = files_with(dir / "bks_solutions", ".txt");
  EXPECT_EQ(sols.size(), 150u);
  for (const auto& sol : sols) {
    SCOPED_TRACE(sol.string());
    const std::string name = sol.filename().string();
    const fs::path instance = dir / (name.substr(0, name.find('.')) + ".txt");
    const ProblemSpec spec = io::parse_solomon(slurp(instance), instance.string(), false);
    const auto routes = read_sintef_routes(sol);
    const auto [vehicles, distance] = sintef_figures(sol);
    EXPECT_EQ(routes.size(), vehicles);
    std::size_t arcs = 0, visited = 0;
    for (const auto& r : routes) arcs += r.size() + 1, visited += r.size();
    EXPECT_EQ(visited, spec.jobs.size());
    const auto [exact, stored] = route_distances(spec, routes);
    EXPECT_NEAR(exact, distance, 0.01);
    EXPECT_NEAR(stored, exact, 0.0005 * static_cast<double>(arcs) + 1e-9);
  }
}

TEST(Solomon, TruncationIsExactOnWholeValues) {
  const std::string text =
      "T1\n\nVEHICLE\nNUMBER     CAPACITY\n  2         50\n\nCUSTOMER\nCUST NO.  XCOORD.   YCOORD. "
      "   DEMAND   READY TIME  "
      "DUE DATE   SERVICE   TIME\n\n    0   0   0   0   0  100   0\n    1   3   4   5  10   20   "
      "1\n    2   0.3 0.4  5  10   20   1\n";
  const ProblemSpec cut = io::parse_solomon(text, "t.txt", true);
  EXPECT_EQ(cut.matrices.at("car").distances(0, 1), 50);  // 5.0 exactly, not 4.9
  EXPECT_EQ(cut.matrices.at("car").distances(0, 2), 5);   // 0.5 from fractional coordinates
  EXPECT_EQ(cut.matrices.at("car").distances(1, 2), 45);  // 4.5
  const ProblemSpec exact = io::parse_solomon(text, "t.txt", false);
  EXPECT_EQ(exact.matrices.at("car").distances(0, 1), 5000);
  EXPECT_EQ(exact.matrices.at("car").distances(0, 2), 500);
  EXPECT_EQ(exact.vehicles.size(), 2u);
  EXPECT_EQ(exact.jobs[1].service, 1000);
}

TEST(Solomon, CorruptInputsNameFileAndLine) {
  const std::string head = "T1\nVEHICLE\nNUMBER CAPACITY\n2 50\nCUSTOMER\nCUST NO. XCOORD.\n";
  auto parse = [](std::string text) { return [text] { io::parse_solomon(text, "s.txt", false); }; };
  ASSERT_NO_THROW(io::parse_solomon(head + "0 0 0 0 0 100 0\n1 1 1 1 0 50 1\n", "s.txt", false));
  expect_invalid(parse(head + "0 0 0 0 0 100 0\n1 1 1 1 0 50\n"),
                 {"s.txt:8:", "expected 7 values"});
  expect_invalid(parse(head + "0 0 0 0 0 100 0\n1 1 y 1 0 50 1\n"), {"s.txt:8:", "YCOORD.", "'y'"});
  expect_invalid(parse(head + "0 0 0 0 0 100 0\n2 1 1 1 0 50 1\n"),
                 {"s.txt:8:", "expected customer 1"});
  expect_invalid(parse(head + "0 0 0 0 0 100 0\n1 1 1 1 60 50 1\n"), {"s.txt:8:", "time window"});
  expect_invalid(parse(head), {"s.txt:6:", "no rows"});
  expect_invalid(parse("T1\nVEHICLE\nNUMBER CAPACITY\n"), {"s.txt:3:", "NUMBER and CAPACITY"});
  expect_invalid(parse("T1\nCUSTOMER\n"), {"s.txt:2:", "VEHICLE"});
  expect_invalid(parse(""), {"s.txt:1:", "empty"});
}
