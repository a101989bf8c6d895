// Li & Lim: every shared instance parses and pairs its pickups and deliveries, best-known
// solutions match their distance, corrupt inputs failing with file:line.

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
      EXPECT_EQ(demand.at(static_cast<long>(s.delivery.id)),
                -demand.at(static_cast<long>(s.pickup.id)));
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
  expect_invalid(parse(depot + "1 1 1 5 0 50 1 0 2\n2 2 2 -5 0 50 1 2 0\n"),
                 {"p.txt:3:", "delivery_index"});
  // Demand mismatch, reported on the delivery's line.
  expect_invalid(parse(depot + "1 1 1 5 0 50 1 0 2\n2 2 2 -4 0 50 1 1 0\n"),
                 {"p.txt:4:", "expected -5"});
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
