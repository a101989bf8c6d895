#pragma once
// Helpers shared by the benchmark-format tests (cvrplib_test.cpp, solomon_test.cpp,
// lilim_test.cpp, benchmark_formats_test.cpp): reading files and best-known solutions
// independently of the parsers, recomputing costs, expecting clean invalid-input errors.

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

namespace benchmark_support {

namespace fs = std::filesystem;
using namespace routesolve;

inline std::string slurp(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::vector<fs::path> files_with(const fs::path& dir, const std::string& ext) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ext) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// instance -> bks_cost from a bks.csv (columns instance,bks_cost,source).
inline std::map<std::string, double> read_bks(const fs::path& csv) {
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
inline VrpFacts scan_vrp(const std::string& text) {
  VrpFacts f;
  std::istringstream in(text);
  std::string line;
  bool demands = false;
  static const std::regex dimension(R"(^DIMENSION\s*:\s*(\d+))"),
      capacity(R"(^CAPACITY\s*:\s*(\d+))");
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, dimension)) f.dimension = std::stol(m[1]);
    if (std::regex_search(line, m, capacity)) f.capacity = std::stol(m[1]);
    if (line.rfind("DEMAND_SECTION", 0) == 0) {
      demands = true;
      continue;
    }
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
inline double recomputed_cost(const Problem& problem, const Solution& solution) {
  Cost total = 0;
  for (const Route& r : solution.routes) {
    const TravelView tv = problem.travel(r.vehicle);
    for (std::size_t k = 1; k < r.steps.size(); ++k)
      total += tv.cost(r.steps[k - 1].location, r.steps[k].location);
  }
  return static_cast<double>(total) / problem.cost_scale();
}

// Expects parse() to throw invalid input whose message contains every needle.
template <typename F>
inline void expect_invalid(F&& parse, std::initializer_list<std::string> needles) {
  try {
    parse();
    ADD_FAILURE() << "no error; expected one mentioning '" << *needles.begin() << "'";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidInput) << e.what();
    for (const auto& n : needles)
      EXPECT_NE(std::string(e.what()).find(n), std::string::npos)
          << "'" << n << "' not in: " << e.what();
  }
}

// Euclidean distance between two nodes of a spec's coordinates, exact.
inline double euclid(const Coordinates& a, const Coordinates& b) {
  return std::hypot(a.lon - b.lon, a.lat - b.lat);
}

// Routes of a SINTEF-style solution file ("Route 1 : 3 5 9"), after the "Solution" line.
inline std::vector<std::vector<std::size_t>> read_sintef_routes(const fs::path& file) {
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
inline std::pair<std::size_t, double> sintef_figures(const fs::path& file) {
  const std::string name = file.filename().string();
  const auto dot = name.find('.');
  const auto us = name.find('_', name.find('.'));
  return {std::stoul(name.substr(dot + 1, us - dot - 1)),
          std::stod(name.substr(us + 1, name.size() - us - 5))};
}

// Distance of given routes (depot 0 at both ends) with exact Euclidean arcs and with the
// parsed matrix (x1000), both in output units.
inline std::pair<double, double> route_distances(
    const ProblemSpec& spec, const std::vector<std::vector<std::size_t>>& routes) {
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

}  // namespace benchmark_support
