// CVRPLIB / TSPLIB: every shared instance parses, figures agree with an independent scan of the
// files, X solutions reproduce their Cost line and the best-known values, explicit weight layouts,
// limits, and corrupt inputs and solutions failing with file:line.

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
// CVRPLIB
// ------------------------------------------------------------------------------------------------

class CvrplibSets : public ::testing::TestWithParam<std::string> {};

TEST_P(CvrplibSets, EveryInstanceParses) {
  ROUTESOLVE_REQUIRE_DATASET(GetParam());
  const auto files = files_with(test::datasets_dir() / GetParam(), ".vrp");
  ASSERT_FALSE(files.empty());
  for (const auto& file : files) {
    SCOPED_TRACE(file.string());
    const std::string text = slurp(file);
    const ProblemSpec spec = io::parse_cvrplib(text, file.string());
    const VrpFacts facts = scan_vrp(text);
    const auto n = static_cast<std::size_t>(facts.dimension);
    EXPECT_EQ(spec.name, file.stem().string());
    EXPECT_EQ(facts.demand_rows, facts.dimension);
    ASSERT_EQ(spec.jobs.size(), n - 1);
    EXPECT_EQ(spec.vehicles.size(), n - 1);  // unlimited fleet
    ASSERT_EQ(spec.matrices.count("car"), 1u);
    const ProfileMatrices& m = spec.matrices.at("car");
    EXPECT_EQ(m.durations.size(), n);
    EXPECT_EQ(m.distances, m.durations);
    ASSERT_TRUE(m.costs.has_value());
    EXPECT_EQ(*m.costs, m.durations);
    long sum = 0;
    for (const auto& j : spec.jobs) {
      ASSERT_EQ(j.delivery.size(), 1u);
      sum += j.delivery[0];
      EXPECT_EQ(*j.location.index, j.id - 1);
      EXPECT_TRUE(j.location.coords.has_value());
    }
    EXPECT_EQ(sum, facts.demand_sum);
    for (const auto& v : spec.vehicles) EXPECT_EQ(v.capacity, Amount{facts.capacity});
    // "-kK" in the name is the fleet size the instance was made for: the demand fits.
    const std::string stem = file.stem().string();
    const long k = std::stol(stem.substr(stem.rfind("-k") + 2));
    EXPECT_LE(sum, k * facts.capacity);
    EXPECT_EQ(spec.vehicles.front().start->index, std::size_t{0});  // depot is node 1
  }
}

INSTANTIATE_TEST_SUITE_P(Shared, CvrplibSets,
                         ::testing::Values("cvrp/x", "cvrp/augerat/A", "cvrp/augerat/B",
                                           "cvrp/augerat/P"),
                         [](const auto& info) {
                           std::string s = info.param;
                           std::replace(s.begin(), s.end(), '/', '_');
                           return s;
                         });

// Every X best-known .sol reproduces its Cost line and bks.csv with the .sol numbering
// "number = node - 1" (see cvrplib.cpp), visits every customer once, and passes the validator.
TEST(Cvrplib, XSolutionsReproduceCostAndBks) {
  ROUTESOLVE_REQUIRE_DATASET("cvrp/x");
  const fs::path dir = test::datasets_dir() / "cvrp/x";
  const auto bks = read_bks(dir / "bks.csv");
  const auto sols = files_with(dir, ".sol");
  ASSERT_EQ(sols.size(), 50u);
  for (const auto& sol_file : sols) {
    SCOPED_TRACE(sol_file.string());
    fs::path vrp_file = sol_file;
    vrp_file.replace_extension(".vrp");
    const ProblemPtr problem =
        Problem::create(io::parse_cvrplib(slurp(vrp_file), vrp_file.string()));
    const std::string sol_text = slurp(sol_file);
    const Solution solution = io::parse_cvrplib_solution(sol_text, sol_file.string(), *problem);
    const auto claimed = io::cvrplib_solution_cost(sol_text, sol_file.string());
    ASSERT_TRUE(claimed.has_value());
    const double cost = recomputed_cost(*problem, solution);
    EXPECT_EQ(cost, claimed->value);
    ASSERT_EQ(bks.count(sol_file.stem().string()), 1u);
    EXPECT_EQ(cost, bks.at(sol_file.stem().string()));

    std::vector<int> visits(problem->tasks().size(), 0);
    for (const Route& r : solution.routes)
      for (const Step& s : r.steps)
        if (s.type == StepType::Job) ++visits.at(s.task);
    EXPECT_TRUE(std::all_of(visits.begin(), visits.end(), [](int v) { return v == 1; }));

    ValidateOptions options;
    options.check_figures = false;
    const ValidationReport report = validate(*problem, solution, options);
    EXPECT_TRUE(report.ok()) << report.to_text();
  }
}

TEST(Cvrplib, SolutionRoundTrip) {
  ROUTESOLVE_REQUIRE_DATASET("cvrp/x");
  const fs::path dir = test::datasets_dir() / "cvrp/x";
  const ProblemPtr problem =
      Problem::create(io::parse_cvrplib(slurp(dir / "X-n101-k25.vrp"), "X-n101-k25.vrp"));
  const std::string original = slurp(dir / "X-n101-k25.sol");
  Solution solution = io::parse_cvrplib_solution(original, "X-n101-k25.sol", *problem);
  solution.summary.cost = 27591;
  const std::string written = io::cvrplib_solution_to_string(*problem, solution);
  // Same route lines and cost as the original (which has no trailing newline).
  std::string expected = original;
  expected.erase(std::remove(expected.begin(), expected.end(), '\r'), expected.end());
  while (!expected.empty() && expected.back() == '\n') expected.pop_back();
  EXPECT_EQ(written, expected + "\n");
  const Solution again = io::parse_cvrplib_solution(written, "written.sol", *problem);
  ASSERT_EQ(again.routes.size(), solution.routes.size());
  for (std::size_t r = 0; r < again.routes.size(); ++r) {
    ASSERT_EQ(again.routes[r].steps.size(), solution.routes[r].steps.size());
    for (std::size_t k = 0; k < again.routes[r].steps.size(); ++k)
      EXPECT_EQ(again.routes[r].steps[k].task, solution.routes[r].steps[k].task);
  }
}

namespace {

// A symmetric 5-node matrix and the same in every EXPLICIT layout, weights spread over lines
// unevenly (TSPLIB lets them break anywhere).
const std::vector<std::vector<int>> kSym = {
    {0, 7, 3, 9, 4}, {7, 0, 6, 2, 8}, {3, 6, 0, 5, 1}, {9, 2, 5, 0, 10}, {4, 8, 1, 10, 0}};

std::string explicit_instance(const std::string& format, const std::vector<int>& weights,
                              const std::string& extra = "") {
  std::ostringstream s;
  s << "NAME : tiny\r\nTYPE : CVRP\r\nDIMENSION : 5\r\nCAPACITY : 10\r\n"
    << extra << "EDGE_WEIGHT_TYPE : EXPLICIT\r\nEDGE_WEIGHT_FORMAT : " << format
    << "\r\nEDGE_WEIGHT_SECTION\r\n";
  std::size_t per_line = 1;
  for (std::size_t k = 0; k < weights.size();) {
    for (std::size_t i = 0; i < per_line && k < weights.size(); ++i, ++k) s << ' ' << weights[k];
    s << "\r\n";
    per_line = per_line % 4 + 1;
  }
  s << "DEMAND_SECTION\r\n1 0\r\n2 3\r\n3 4\r\n4 5\r\n5 6\r\nDEPOT_SECTION\r\n 1\r\n -1\r\nEOF\r\n";
  return s.str();
}

std::vector<int> layout(const std::vector<std::vector<int>>& m, const std::string& format) {
  std::vector<int> w;
  const std::size_t n = m.size();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const bool take = format == "FULL_MATRIX" || (format == "LOWER_ROW" && j < i) ||
                        (format == "UPPER_ROW" && j > i) ||
                        (format == "LOWER_DIAG_ROW" && j <= i) ||
                        (format == "UPPER_DIAG_ROW" && j >= i);
      if (take) w.push_back(m[i][j]);
    }
  return w;
}

}  // namespace

TEST(Cvrplib, ExplicitFormats) {
  for (const std::string format :
       {"FULL_MATRIX", "LOWER_ROW", "UPPER_ROW", "LOWER_DIAG_ROW", "UPPER_DIAG_ROW"}) {
    SCOPED_TRACE(format);
    const ProblemSpec spec =
        io::parse_cvrplib(explicit_instance(format, layout(kSym, format)), "tiny.vrp");
    const Matrix& m = spec.matrices.at("car").durations;
    ASSERT_EQ(m.size(), 5u);
    for (std::size_t i = 0; i < 5; ++i)
      for (std::size_t j = 0; j < 5; ++j) EXPECT_EQ(m(i, j), kSym[i][j]) << i << "," << j;
    EXPECT_EQ(spec.jobs.size(), 4u);
    EXPECT_FALSE(spec.jobs.front().location.coords.has_value());
    EXPECT_EQ(Problem::create(spec)->tasks().size(), 4u);
  }
  // FULL_MATRIX keeps asymmetry.
  auto asym = kSym;
  asym[1][2] = 42;
  const ProblemSpec spec =
      io::parse_cvrplib(explicit_instance("FULL_MATRIX", layout(asym, "FULL_MATRIX")), "asym.vrp");
  EXPECT_EQ(spec.matrices.at("car").distances(1, 2), 42);
  EXPECT_EQ(spec.matrices.at("car").distances(2, 1), 6);
}

TEST(Cvrplib, HugeDimensionInATinyFileFailsAtTheFirstMissingWeight) {
  // Fuzzing finding: DIMENSION 2965 with four weights used to list all n^2 cells before reading
  // one weight (seconds under ASan); now the error comes at the first missing weight.
  for (const std::string format :
       {"FULL_MATRIX", "LOWER_ROW", "UPPER_ROW", "LOWER_DIAG_ROW", "UPPER_DIAG_ROW"}) {
    SCOPED_TRACE(format);
    const std::string text =
        "NAME : big\nDIMENSION : 30000\nCAPACITY : 6\nEDGE_WEIGHT_TYPE : EXPLICIT\n"
        "EDGE_WEIGHT_FORMAT : " +
        format + "\nEDGE_WEIGHT_SECTION\n0 3 4 5\nEOF\n";
    expect_invalid([&] { return io::parse_cvrplib(text, "big.vrp"); },
                   {"big.vrp", "EDGE_WEIGHT_SECTION"});
  }
}

TEST(Cvrplib, HugeDistanceOrServiceTimeIsAClearError) {
  // Fuzzing finding: DISTANCE 1e308 was converted to a 64-bit integer (UBSan: out of range).
  for (const std::string line : {"DISTANCE : 1e308\r\n", "SERVICE_TIME : 2e15\r\n"}) {
    SCOPED_TRACE(line);
    const std::string field = line.substr(0, line.find(' '));
    expect_invalid(
        [&] {
          return io::parse_cvrplib(explicit_instance("LOWER_ROW", layout(kSym, "LOWER_ROW"), line),
                                   "big.vrp");
        },
        {"big.vrp", field, "1e15"});
  }
}

TEST(Cvrplib, OptionalFleetDistanceAndService) {
  const ProblemSpec spec = io::parse_cvrplib(
      explicit_instance("LOWER_ROW", layout(kSym, "LOWER_ROW"),
                        "VEHICLES : 3\r\nDISTANCE : 25.7\r\nSERVICE_TIME : 2\r\n"),
      "fleet.vrp");
  ASSERT_EQ(spec.vehicles.size(), 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(spec.vehicles[k].id, k + 1);
    EXPECT_EQ(spec.vehicles[k].max_distance, std::optional<Distance>(25));
    EXPECT_EQ(spec.vehicles[k].max_travel_time, std::optional<Duration>(25));
    EXPECT_EQ(spec.vehicles[k].start->index, std::size_t{0});
    EXPECT_EQ(spec.vehicles[k].end->index, std::size_t{0});
  }
  for (const auto& j : spec.jobs) EXPECT_EQ(j.service, 2);
  EXPECT_EQ(spec.jobs[0].delivery, Amount{3});
}

TEST(Cvrplib, Euc2dRoundsToNearest) {
  const std::string text =
      "NAME : e\nDIMENSION : 4\nCAPACITY : 5\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n"
      "1 0 0\n2 3 4\n3 1 1\n4 0.5 0.25\nDEMAND_SECTION\n1 0\n2 1\n3 1\n4 "
      "1\nDEPOT_SECTION\n1\n-1\nEOF\n";
  const ProblemSpec spec = io::parse_cvrplib(text, "e.vrp");
  const Matrix& m = spec.matrices.at("car").distances;
  EXPECT_EQ(m(0, 1), 5);  // exactly 5
  EXPECT_EQ(m(0, 2), 1);  // 1.414
  EXPECT_EQ(m(1, 2), 4);  // 3.606
  EXPECT_EQ(m(0, 3), 1);  // 0.559
  EXPECT_EQ(m(2, 1), 4);
  EXPECT_EQ(spec.jobs[0].location.coords, (Coordinates{3, 4}));
  EXPECT_EQ(spec.vehicles.size(), 3u);
}

TEST(Cvrplib, CorruptInputsNameFileAndLine) {
  const std::string head =
      "NAME : t\nTYPE : CVRP\nDIMENSION : 3\nCAPACITY : 10\nEDGE_WEIGHT_TYPE : EUC_2D\n";
  const std::string coords = "NODE_COORD_SECTION\n1 0 0\n2 3 4\n3 6 8\n";
  const std::string tail = "DEMAND_SECTION\n1 0\n2 1\n3 1\nDEPOT_SECTION\n1\n-1\nEOF\n";
  ASSERT_NO_THROW(io::parse_cvrplib(head + coords + tail, "t.vrp"));
  auto parse = [](std::string text) { return [text] { io::parse_cvrplib(text, "t.vrp"); }; };
  // Truncated inside NODE_COORD_SECTION (line 8 is the last one).
  expect_invalid(parse(head + "NODE_COORD_SECTION\n1 0 0\n2 3 4\n"),
                 {"t.vrp:8:", "NODE_COORD_SECTION", "2 of 3"});
  // Truncated before DEMAND_SECTION.
  expect_invalid(parse(head + coords), {"t.vrp:9:", "missing DEMAND_SECTION"});
  // DEMAND_SECTION shorter than DIMENSION: the next section shows up at line 13.
  expect_invalid(parse(head + coords + "DEMAND_SECTION\n1 0\n2 1\nDEPOT_SECTION\n1\n-1\n"),
                 {"t.vrp:13:", "DEMAND_SECTION", "expected 3 nodes"});
  // Non-numeric coordinate.
  expect_invalid(parse(head + "NODE_COORD_SECTION\n1 0 0\n2 x 4\n3 6 8\n" + tail),
                 {"t.vrp:8:", "expected a number", "'x'"});
  // Node number out of range.
  expect_invalid(parse(head + "NODE_COORD_SECTION\n1 0 0\n2 3 4\n4 6 8\n" + tail),
                 {"t.vrp:9:", "node 4 outside 1..3"});
  // Unknown EDGE_WEIGHT_TYPE.
  expect_invalid(
      parse("NAME : t\nDIMENSION : 3\nCAPACITY : 10\nEDGE_WEIGHT_TYPE : GEO\n" + coords + tail),
      {"t.vrp:4:", "EDGE_WEIGHT_TYPE", "GEO"});
  // Non-numeric DIMENSION and CAPACITY.
  expect_invalid(parse("NAME : t\nDIMENSION : three\n"), {"t.vrp:2:", "DIMENSION", "'three'"});
  expect_invalid(parse("NAME : t\nDIMENSION : 3\nCAPACITY : 1O\n"), {"t.vrp:3:", "CAPACITY"});
  // Missing CAPACITY.
  expect_invalid(parse("NAME : t\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\n" + coords + tail),
                 {"t.vrp:", "missing CAPACITY"});
  // DEPOT_SECTION without its -1.
  expect_invalid(parse(head + coords + "DEMAND_SECTION\n1 0\n2 1\n3 1\nDEPOT_SECTION\n1\n"),
                 {"t.vrp:", "closing -1"});
  // Section before DIMENSION.
  expect_invalid(parse("NAME : t\nNODE_COORD_SECTION\n1 0 0\n"),
                 {"t.vrp:2:", "DIMENSION must come before"});
  // Unsupported TYPE.
  expect_invalid(parse("NAME : t\nTYPE : TSP\n"), {"t.vrp:2:", "TYPE"});
  // A stray data line outside any section.
  expect_invalid(parse("NAME : t\n12 13 14\n"), {"t.vrp:2:", "unexpected line"});
  // EXPLICIT: too few weights (the next section interrupts) and too many.
  auto w = layout(kSym, "LOWER_ROW");
  w.pop_back();
  expect_invalid(parse(explicit_instance("LOWER_ROW", w)), {"t.vrp:", "expected 10 weights"});
  w = layout(kSym, "UPPER_ROW");
  w.push_back(99);
  expect_invalid(parse(explicit_instance("UPPER_ROW", w)),
                 {"t.vrp:", "EDGE_WEIGHT_SECTION", "more"});
  expect_invalid(parse(explicit_instance("UPPER_ROW", {1, 2, 3, -4, 5, 6, 7, 8, 9, 10})),
                 {"t.vrp:", "'-4'"});
  expect_invalid(parse(explicit_instance("DIAGONAL", {})), {"t.vrp:6:", "EDGE_WEIGHT_FORMAT"});
}

TEST(Cvrplib, CorruptSolutionsNameFileAndLine) {
  const std::string text =
      "NAME : t\nDIMENSION : 3\nCAPACITY : 10\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 "
      "0\n2 3 4\n3 6 8\n"
      "DEMAND_SECTION\n1 0\n2 1\n3 1\nDEPOT_SECTION\n1\n-1\nEOF\n";
  const ProblemPtr problem = Problem::create(io::parse_cvrplib(text, "t.vrp"));
  const Solution ok = io::parse_cvrplib_solution("Route #1: 1 2\r\nCost 20\r\n", "t.sol", *problem);
  ASSERT_EQ(ok.routes.size(), 1u);
  EXPECT_EQ(recomputed_cost(*problem, ok), 20.0);
  const auto claimed = io::cvrplib_solution_cost("Route #1: 1 2\nCost 20\n", "t.sol");
  ASSERT_TRUE(claimed.has_value());
  EXPECT_EQ(claimed->value, 20.0);
  EXPECT_EQ(claimed->decimals, 0);
  EXPECT_EQ(claimed->line, 2u);
  const auto decimal = io::cvrplib_solution_cost("Route #1: 1 2\n\nCost 20.25\n", "t.sol");
  ASSERT_TRUE(decimal.has_value());
  EXPECT_EQ(decimal->decimals, 2);
  EXPECT_EQ(decimal->line, 3u);
  auto parse = [&](std::string sol) {
    return [sol, &problem] { io::parse_cvrplib_solution(sol, "t.sol", *problem); };
  };
  expect_invalid(parse("Route #1: 1 2\nRoute #2: 7\n"), {"t.sol:2:", "customer 7"});
  expect_invalid(parse("Route #1: 1 x\n"), {"t.sol:1:", "'x'"});
  expect_invalid(parse("Route #1: 1\nCost abc\n"), {"t.sol:2:", "Cost"});
  expect_invalid(parse("\n\n"), {"t.sol:", "no 'Route"});
}
