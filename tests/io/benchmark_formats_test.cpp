// Benchmark formats (CVRPLIB/TSPLIB, Solomon / Gehring & Homberger, Li & Lim): every shared
// instance parses; figures are cross-checked against an independent scan of the files and
// against the published best-known solutions; corrupt inline texts fail with file:line.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "routesolve/error.hpp"
#include "routesolve/io/benchmark_formats.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/validator.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using namespace routesolve;

namespace {

std::string slurp(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<fs::path> files_with(const fs::path& dir, const std::string& ext) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ext) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// instance -> bks_cost from a bks.csv (columns instance,bks_cost,source).
std::map<std::string, double> read_bks(const fs::path& csv) {
  std::map<std::string, double> out;
  std::istringstream in(slurp(csv));
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    const auto a = line.find(',');
    const auto b = line.find(',', a + 1);
    if (a == std::string::npos) continue;
    out[line.substr(0, a)] = std::stod(line.substr(a + 1, b - a - 1));
  }
  return out;
}

// An independent, deliberately naive scan of a .vrp: DIMENSION, CAPACITY and the demand sum.
struct VrpFacts {
  long dimension = 0, capacity = 0, demand_sum = 0, demand_rows = 0;
};
VrpFacts scan_vrp(const std::string& text) {
  VrpFacts f;
  std::istringstream in(text);
  std::string line;
  bool demands = false;
  static const std::regex dimension(R"(^DIMENSION\s*:\s*(\d+))"), capacity(R"(^CAPACITY\s*:\s*(\d+))");
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, dimension)) f.dimension = std::stol(m[1]);
    if (std::regex_search(line, m, capacity)) f.capacity = std::stol(m[1]);
    if (line.rfind("DEMAND_SECTION", 0) == 0) { demands = true; continue; }
    if (line.rfind("DEPOT_SECTION", 0) == 0) demands = false;
    if (demands) {
      std::istringstream row(line);
      long node = 0, d = 0;
      if (row >> node >> d) f.demand_sum += d, ++f.demand_rows;
    }
  }
  return f;
}

// Travel cost of every route of a solution, recomputed from the problem's cost matrix
// (output units).
double recomputed_cost(const Problem& problem, const Solution& solution) {
  Cost total = 0;
  for (const Route& r : solution.routes) {
    const TravelView tv = problem.travel(r.vehicle);
    for (std::size_t k = 1; k < r.steps.size(); ++k) total += tv.cost(r.steps[k - 1].location, r.steps[k].location);
  }
  return static_cast<double>(total) / problem.cost_scale();
}

// Expects parse() to throw invalid input whose message contains every needle.
template <typename F>
void expect_invalid(F&& parse, std::initializer_list<std::string> needles) {
  try {
    parse();
    ADD_FAILURE() << "no error; expected one mentioning '" << *needles.begin() << "'";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidInput) << e.what();
    for (const auto& n : needles) EXPECT_NE(std::string(e.what()).find(n), std::string::npos) << "'" << n << "' not in: " << e.what();
  }
}

// Euclidean distance between two nodes of a spec's coordinates, exact.
double euclid(const Coordinates& a, const Coordinates& b) { return std::hypot(a.lon - b.lon, a.lat - b.lat); }

// Routes of a SINTEF-style solution file ("Route 1 : 3 5 9"), after the "Solution" line.
std::vector<std::vector<std::size_t>> read_sintef_routes(const fs::path& file) {
  std::vector<std::vector<std::size_t>> routes;
  std::istringstream in(slurp(file));
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("Route", 0) != 0) continue;
    std::istringstream row(line.substr(line.find(':') + 1));
    std::vector<std::size_t> ids;
    std::size_t id = 0;
    while (row >> id) ids.push_back(id);
    routes.push_back(std::move(ids));
  }
  return routes;
}

// "c1_10_1.100_42478.9516.txt" -> {100 routes, 42478.9516}.
std::pair<std::size_t, double> sintef_figures(const fs::path& file) {
  const std::string name = file.filename().string();
  const auto dot = name.find('.');
  const auto us = name.find('_', name.find('.'));
  return {std::stoul(name.substr(dot + 1, us - dot - 1)), std::stod(name.substr(us + 1, name.size() - us - 5))};
}

// Distance of given routes (depot 0 at both ends) with exact Euclidean arcs and with the
// parsed matrix (x1000), both in output units.
std::pair<double, double> route_distances(const ProblemSpec& spec, const std::vector<std::vector<std::size_t>>& routes) {
  std::map<std::size_t, Coordinates> xy;
  for (const auto& j : spec.jobs) xy[*j.location.index] = *j.location.coords;
  for (const auto& s : spec.shipments) {
    xy[*s.pickup.location.index] = *s.pickup.location.coords;
    xy[*s.delivery.location.index] = *s.delivery.location.coords;
  }
  xy[0] = *spec.vehicles.front().start->coords;
  const Matrix& m = spec.matrices.at("car").distances;
  double exact = 0;
  std::int64_t stored = 0;
  for (const auto& r : routes) {
    std::size_t prev = 0;
    for (std::size_t k = 0; k <= r.size(); ++k) {
      const std::size_t next = k < r.size() ? r[k] : 0;
      exact += euclid(xy.at(prev), xy.at(next));
      stored += m(prev, next);
      prev = next;
    }
  }
  return {exact, static_cast<double>(stored) / spec.scale.distance};
}

}  // namespace

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
                         ::testing::Values("cvrp/x", "cvrp/augerat/A", "cvrp/augerat/B", "cvrp/augerat/P"),
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
    const ProblemPtr problem = Problem::create(io::parse_cvrplib(slurp(vrp_file), vrp_file.string()));
    const std::string sol_text = slurp(sol_file);
    const Solution solution = io::parse_cvrplib_solution(sol_text, sol_file.string(), *problem);
    const auto claimed = io::cvrplib_solution_cost(sol_text, sol_file.string());
    ASSERT_TRUE(claimed.has_value());
    const double cost = recomputed_cost(*problem, solution);
    EXPECT_EQ(cost, *claimed);
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
  const ProblemPtr problem = Problem::create(io::parse_cvrplib(slurp(dir / "X-n101-k25.vrp"), "X-n101-k25.vrp"));
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

std::string explicit_instance(const std::string& format, const std::vector<int>& weights, const std::string& extra = "") {
  std::ostringstream s;
  s << "NAME : tiny\r\nTYPE : CVRP\r\nDIMENSION : 5\r\nCAPACITY : 10\r\n" << extra
    << "EDGE_WEIGHT_TYPE : EXPLICIT\r\nEDGE_WEIGHT_FORMAT : " << format << "\r\nEDGE_WEIGHT_SECTION\r\n";
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
      const bool take = format == "FULL_MATRIX" || (format == "LOWER_ROW" && j < i) || (format == "UPPER_ROW" && j > i) ||
                        (format == "LOWER_DIAG_ROW" && j <= i) || (format == "UPPER_DIAG_ROW" && j >= i);
      if (take) w.push_back(m[i][j]);
    }
  return w;
}

}  // namespace

TEST(Cvrplib, ExplicitFormats) {
  for (const std::string format : {"FULL_MATRIX", "LOWER_ROW", "UPPER_ROW", "LOWER_DIAG_ROW", "UPPER_DIAG_ROW"}) {
    SCOPED_TRACE(format);
    const ProblemSpec spec = io::parse_cvrplib(explicit_instance(format, layout(kSym, format)), "tiny.vrp");
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
  const ProblemSpec spec = io::parse_cvrplib(explicit_instance("FULL_MATRIX", layout(asym, "FULL_MATRIX")), "asym.vrp");
  EXPECT_EQ(spec.matrices.at("car").distances(1, 2), 42);
  EXPECT_EQ(spec.matrices.at("car").distances(2, 1), 6);
}

TEST(Cvrplib, HugeDimensionInATinyFileFailsAtTheFirstMissingWeight) {
  // Fuzzing finding: DIMENSION 2965 with four weights used to list all n^2 cells before reading
  // one weight (seconds under ASan); now the error comes at the first missing weight.
  for (const std::string format : {"FULL_MATRIX", "LOWER_ROW", "UPPER_ROW", "LOWER_DIAG_ROW", "UPPER_DIAG_ROW"}) {
    SCOPED_TRACE(format);
    const std::string text = "NAME : big\nDIMENSION : 30000\nCAPACITY : 6\nEDGE_WEIGHT_TYPE : EXPLICIT\n"
                             "EDGE_WEIGHT_FORMAT : " + format + "\nEDGE_WEIGHT_SECTION\n0 3 4 5\nEOF\n";
    expect_invalid([&] { return io::parse_cvrplib(text, "big.vrp"); }, {"big.vrp", "EDGE_WEIGHT_SECTION"});
  }
}

TEST(Cvrplib, HugeDistanceOrServiceTimeIsAClearError) {
  // Fuzzing finding: DISTANCE 1e308 was converted to a 64-bit integer (UBSan: out of range).
  for (const std::string line : {"DISTANCE : 1e308\r\n", "SERVICE_TIME : 2e15\r\n"}) {
    SCOPED_TRACE(line);
    const std::string field = line.substr(0, line.find(' '));
    expect_invalid([&] { return io::parse_cvrplib(explicit_instance("LOWER_ROW", layout(kSym, "LOWER_ROW"), line), "big.vrp"); },
                   {"big.vrp", field, "1e15"});
  }
}

TEST(Cvrplib, OptionalFleetDistanceAndService) {
  const ProblemSpec spec = io::parse_cvrplib(
      explicit_instance("LOWER_ROW", layout(kSym, "LOWER_ROW"), "VEHICLES : 3\r\nDISTANCE : 25.7\r\nSERVICE_TIME : 2\r\n"),
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
      "1 0 0\n2 3 4\n3 1 1\n4 0.5 0.25\nDEMAND_SECTION\n1 0\n2 1\n3 1\n4 1\nDEPOT_SECTION\n1\n-1\nEOF\n";
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
  const std::string head = "NAME : t\nTYPE : CVRP\nDIMENSION : 3\nCAPACITY : 10\nEDGE_WEIGHT_TYPE : EUC_2D\n";
  const std::string coords = "NODE_COORD_SECTION\n1 0 0\n2 3 4\n3 6 8\n";
  const std::string tail = "DEMAND_SECTION\n1 0\n2 1\n3 1\nDEPOT_SECTION\n1\n-1\nEOF\n";
  ASSERT_NO_THROW(io::parse_cvrplib(head + coords + tail, "t.vrp"));
  auto parse = [](std::string text) { return [text] { io::parse_cvrplib(text, "t.vrp"); }; };
  // Truncated inside NODE_COORD_SECTION (line 8 is the last one).
  expect_invalid(parse(head + "NODE_COORD_SECTION\n1 0 0\n2 3 4\n"), {"t.vrp:8:", "NODE_COORD_SECTION", "2 of 3"});
  // Truncated before DEMAND_SECTION.
  expect_invalid(parse(head + coords), {"t.vrp:9:", "missing DEMAND_SECTION"});
  // DEMAND_SECTION shorter than DIMENSION: the next section shows up at line 13.
  expect_invalid(parse(head + coords + "DEMAND_SECTION\n1 0\n2 1\nDEPOT_SECTION\n1\n-1\n"),
                 {"t.vrp:13:", "DEMAND_SECTION", "expected 3 nodes"});
  // Non-numeric coordinate.
  expect_invalid(parse(head + "NODE_COORD_SECTION\n1 0 0\n2 x 4\n3 6 8\n" + tail), {"t.vrp:8:", "expected a number", "'x'"});
  // Node number out of range.
  expect_invalid(parse(head + "NODE_COORD_SECTION\n1 0 0\n2 3 4\n4 6 8\n" + tail), {"t.vrp:9:", "node 4 outside 1..3"});
  // Unknown EDGE_WEIGHT_TYPE.
  expect_invalid(parse("NAME : t\nDIMENSION : 3\nCAPACITY : 10\nEDGE_WEIGHT_TYPE : GEO\n" + coords + tail),
                 {"t.vrp:4:", "EDGE_WEIGHT_TYPE", "GEO"});
  // Non-numeric DIMENSION and CAPACITY.
  expect_invalid(parse("NAME : t\nDIMENSION : three\n"), {"t.vrp:2:", "DIMENSION", "'three'"});
  expect_invalid(parse("NAME : t\nDIMENSION : 3\nCAPACITY : 1O\n"), {"t.vrp:3:", "CAPACITY"});
  // Missing CAPACITY.
  expect_invalid(parse("NAME : t\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\n" + coords + tail), {"t.vrp:", "missing CAPACITY"});
  // DEPOT_SECTION without its -1.
  expect_invalid(parse(head + coords + "DEMAND_SECTION\n1 0\n2 1\n3 1\nDEPOT_SECTION\n1\n"), {"t.vrp:", "closing -1"});
  // Section before DIMENSION.
  expect_invalid(parse("NAME : t\nNODE_COORD_SECTION\n1 0 0\n"), {"t.vrp:2:", "DIMENSION must come before"});
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
  expect_invalid(parse(explicit_instance("UPPER_ROW", w)), {"t.vrp:", "EDGE_WEIGHT_SECTION", "more"});
  expect_invalid(parse(explicit_instance("UPPER_ROW", {1, 2, 3, -4, 5, 6, 7, 8, 9, 10})), {"t.vrp:", "'-4'"});
  expect_invalid(parse(explicit_instance("DIAGONAL", {})), {"t.vrp:6:", "EDGE_WEIGHT_FORMAT"});
}

TEST(Cvrplib, CorruptSolutionsNameFileAndLine) {
  const std::string text =
      "NAME : t\nDIMENSION : 3\nCAPACITY : 10\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 3 4\n3 6 8\n"
      "DEMAND_SECTION\n1 0\n2 1\n3 1\nDEPOT_SECTION\n1\n-1\nEOF\n";
  const ProblemPtr problem = Problem::create(io::parse_cvrplib(text, "t.vrp"));
  const Solution ok = io::parse_cvrplib_solution("Route #1: 1 2\r\nCost 20\r\n", "t.sol", *problem);
  ASSERT_EQ(ok.routes.size(), 1u);
  EXPECT_EQ(recomputed_cost(*problem, ok), 20.0);
  EXPECT_EQ(io::cvrplib_solution_cost("Route #1: 1 2\nCost 20\n", "t.sol"), std::optional<double>(20));
  auto parse = [&](std::string sol) { return [sol, &problem] { io::parse_cvrplib_solution(sol, "t.sol", *problem); }; };
  expect_invalid(parse("Route #1: 1 2\nRoute #2: 7\n"), {"t.sol:2:", "customer 7"});
  expect_invalid(parse("Route #1: 1 x\n"), {"t.sol:1:", "'x'"});
  expect_invalid(parse("Route #1: 1\nCost abc\n"), {"t.sol:2:", "Cost"});
  expect_invalid(parse("\n\n"), {"t.sol:", "no 'Route"});
}

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
      "T1\n\nVEHICLE\nNUMBER     CAPACITY\n  2         50\n\nCUSTOMER\nCUST NO.  XCOORD.   YCOORD.    DEMAND   READY TIME  "
      "DUE DATE   SERVICE   TIME\n\n    0   0   0   0   0  100   0\n    1   3   4   5  10   20   1\n    2   0.3 0.4  5  10   20   1\n";
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
  expect_invalid(parse(head + "0 0 0 0 0 100 0\n1 1 1 1 0 50\n"), {"s.txt:8:", "expected 7 values"});
  expect_invalid(parse(head + "0 0 0 0 0 100 0\n1 1 y 1 0 50 1\n"), {"s.txt:8:", "YCOORD.", "'y'"});
  expect_invalid(parse(head + "0 0 0 0 0 100 0\n2 1 1 1 0 50 1\n"), {"s.txt:8:", "expected customer 1"});
  expect_invalid(parse(head + "0 0 0 0 0 100 0\n1 1 1 1 60 50 1\n"), {"s.txt:8:", "time window"});
  expect_invalid(parse(head), {"s.txt:6:", "no rows"});
  expect_invalid(parse("T1\nVEHICLE\nNUMBER CAPACITY\n"), {"s.txt:3:", "NUMBER and CAPACITY"});
  expect_invalid(parse("T1\nCUSTOMER\n"), {"s.txt:2:", "VEHICLE"});
  expect_invalid(parse(""), {"s.txt:1:", "empty"});
}

// ------------------------------------------------------------------------------------------------
// Li & Lim
// ------------------------------------------------------------------------------------------------

TEST(LiLim, EveryInstanceParsesAndPairs) {
  ROUTESOLVE_REQUIRE_DATASET("pdptw/li_lim");
  const auto files = files_with(test::datasets_dir() / "pdptw/li_lim", ".txt");
  EXPECT_EQ(files.size(), 177u);
  for (const auto& file : files) {
    SCOPED_TRACE(file.string());
    const std::string text = slurp(file);
    const ProblemSpec spec = io::parse_lilim(text, file.string(), false);
    // Independent scan: vehicle count, capacity, and demand per line id.
    std::istringstream in(text);
    long number = 0, capacity = 0;
    double speed = 0;
    in >> number >> capacity >> speed;
    std::map<long, long> demand;
    long id = 0, d = 0;
    double x = 0;
    while (in >> id >> x >> x >> d >> x >> x >> x >> x >> x) demand[id] = d;
    EXPECT_EQ(spec.vehicles.size(), static_cast<std::size_t>(number));
    EXPECT_EQ(spec.vehicles.front().capacity, Amount{capacity});
    EXPECT_EQ(spec.shipments.size() * 2 + 1, demand.size());
    std::set<Id> ids;
    for (const auto& s : spec.shipments) {
      EXPECT_EQ(s.amount, Amount{demand.at(static_cast<long>(s.pickup.id))});
      EXPECT_EQ(demand.at(static_cast<long>(s.delivery.id)), -demand.at(static_cast<long>(s.pickup.id)));
      EXPECT_EQ(s.pickup.location.index, std::optional<std::size_t>(s.pickup.id));
      EXPECT_EQ(s.delivery.location.index, std::optional<std::size_t>(s.delivery.id));
      ids.insert(s.pickup.id);
      ids.insert(s.delivery.id);
    }
    EXPECT_EQ(ids.size(), demand.size() - 1);
    EXPECT_EQ(*ids.begin(), 1u);
  }
  const std::string lc101 = slurp(test::datasets_dir() / "pdptw/li_lim/lc101.txt");
  const ProblemPtr problem = Problem::create(io::parse_lilim(lc101, "lc101.txt", false));
  EXPECT_EQ(problem->tasks().size(), 106u);
  EXPECT_NE(problem->find_task(TaskType::Pickup, 11), kNone);
  EXPECT_NE(problem->find_task(TaskType::Delivery, 1), kNone);
}

TEST(LiLim, BestSolutionsMatchTheirDistance) {
  ROUTESOLVE_REQUIRE_DATASET("pdptw/li_lim/bks_solutions");
  const fs::path dir = test::datasets_dir() / "pdptw/li_lim";
  const auto sols = files_with(dir / "bks_solutions", ".txt");
  EXPECT_EQ(sols.size(), 177u);
  for (const auto& sol : sols) {
    SCOPED_TRACE(sol.string());
    const std::string name = sol.filename().string();
    const fs::path instance = dir / (name.substr(0, name.find('.')) + ".txt");
    const ProblemSpec spec = io::parse_lilim(slurp(instance), instance.string(), false);
    const auto routes = read_sintef_routes(sol);
    const auto [vehicles, distance] = sintef_figures(sol);
    EXPECT_EQ(routes.size(), vehicles);
    std::size_t arcs = 0;
    for (const auto& r : routes) arcs += r.size() + 1;
    const auto [exact, stored] = route_distances(spec, routes);
    EXPECT_NEAR(exact, distance, 0.01);
    EXPECT_NEAR(stored, exact, 0.0005 * static_cast<double>(arcs) + 1e-9);
  }
}

TEST(LiLim, CorruptInputsNameFileAndLine) {
  const std::string depot = "2 50 1\n0 0 0 0 0 100 0 0 0\n";
  auto parse = [](std::string text) { return [text] { io::parse_lilim(text, "p.txt", false); }; };
  const std::string good = depot + "1 1 1 5 0 50 1 0 2\n2 2 2 -5 0 50 1 1 0\n";
  const ProblemSpec spec = io::parse_lilim(good, "p.txt", true);
  ASSERT_EQ(spec.shipments.size(), 1u);
  EXPECT_EQ(spec.shipments[0].pickup.id, 1u);
  EXPECT_EQ(spec.shipments[0].delivery.id, 2u);
  EXPECT_EQ(spec.shipments[0].amount, Amount{5});
  EXPECT_EQ(spec.matrices.at("car").distances(1, 2), 14);  // 1.414 -> 1.4
  // Delivery pointing at the wrong pickup.
  expect_invalid(parse(depot + "1 1 1 5 0 50 1 0 2\n2 2 2 -5 0 50 1 2 0\n"), {"p.txt:3:", "delivery_index"});
  // Demand mismatch, reported on the delivery's line.
  expect_invalid(parse(depot + "1 1 1 5 0 50 1 0 2\n2 2 2 -4 0 50 1 1 0\n"), {"p.txt:4:", "expected -5"});
  // Neither pickup nor delivery.
  expect_invalid(parse(depot + "1 1 1 5 0 50 1 0 0\n"), {"p.txt:3:", "exactly one"});
  // Index out of range.
  expect_invalid(parse(depot + "1 1 1 5 0 50 1 0 9\n"), {"p.txt:3:", "9 is not a line id"});
  // Truncated line, bad header, bad number.
  expect_invalid(parse(depot + "1 1 1 5 0 50 1 0\n"), {"p.txt:3:", "expected 9 values"});
  expect_invalid(parse("2 50\n"), {"p.txt:1:", "vehicles capacity speed"});
  expect_invalid(parse(depot + "1 1 1 five 0 50 1 0 2\n"), {"p.txt:3:", "demand", "'five'"});
  expect_invalid(parse(depot + "3 1 1 5 0 50 1 0 2\n"), {"p.txt:3:", "id: expected 1"});
}

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
  fuzz_file(d / "cvrp/augerat/A/A-n32-k5.vrp", [](const std::string& t) { io::parse_cvrplib(t, "a.vrp"); });
  fuzz_file(d / "cvrp/x/X-n101-k25.vrp", [](const std::string& t) { io::parse_cvrplib(t, "x.vrp"); });
  fuzz_file(d / "vrptw/solomon/C101.txt", [](const std::string& t) { io::parse_solomon(t, "c.txt", false); });
  fuzz_file(d / "pdptw/li_lim/lc101.txt", [](const std::string& t) { io::parse_lilim(t, "l.txt", false); });
  const ProblemPtr problem =
      Problem::create(io::parse_cvrplib(slurp(d / "cvrp/x/X-n101-k25.vrp"), "x.vrp"));
  fuzz_file(d / "cvrp/x/X-n101-k25.sol",
            [&](const std::string& t) { io::parse_cvrplib_solution(t, "x.sol", *problem); });
}
