// Granular neighbour lists (search/neighbours.hpp) equal a full sort of every other task by
// c(a, b) + c(b, a) (unreachable arcs saturated), ties by index: on asymmetric matrices with many
// ties, unreachable arcs, tasks sharing a location, more tasks than one block (256), both storage
// widths, and k from 0 to beyond the task count. The lists from the spatial index equal the
// scan's on rounded planar distances with many ties (integer grids, duplicates, the depot's own
// place; EUC_2D, CEIL_2D, Solomon's exact and one-decimal arcs, fractional coordinates), on
// shared CVRPLIB, Solomon, Gehring & Homberger and Li & Lim files and on a relocated problem; and
// the scan runs wherever the costs are not the reader's planar table. The partners for time
// windows keep the nearest of the pool and add the best of the rest by the time-window
// correlation, recomputed here from the windows.

#include "routesolve/search/neighbours.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "routesolve/io/benchmark_formats.hpp"
#include "routesolve/io/formats.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "test_problems.hpp"
#include "test_support.hpp"

namespace routesolve::search {
namespace {

std::vector<std::size_t> reference(const Problem& p, std::size_t t, std::size_t k) {
  const TravelView tv = p.travel(0);
  const std::size_t a = p.task(t).location;
  std::vector<std::pair<std::int64_t, std::size_t>> order;
  for (std::size_t w = 0; w < p.tasks().size(); ++w) {
    if (w == t) continue;
    const std::size_t b = p.task(w).location;
    order.emplace_back(
        std::min(tv.cost(a, b), kUnreachable) + std::min(tv.cost(b, a), kUnreachable), w);
  }
  std::sort(order.begin(), order.end());
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < std::min(k, order.size()); ++i) out.push_back(order[i].second);
  return out;
}

ProblemPtr random_problem(std::size_t locations, std::size_t tasks, bool unreachable,
                          unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> value(0, 12);  // few values: many ties
  Matrix m(locations);
  for (std::size_t i = 0; i < locations; ++i)
    for (std::size_t j = 0; j < locations; ++j)
      if (i != j) m(i, j) = unreachable && rng() % 17 == 0 ? kUnreachable : value(rng);
  ProblemSpec spec;
  spec.matrices["car"] = ProfileMatrices{m, m, std::nullopt};
  std::uniform_int_distribution<std::size_t> where(1, locations - 1);
  for (std::size_t t = 0; t < tasks; ++t) spec.jobs.push_back(test::make_job(t + 1, where(rng)));
  spec.vehicles.push_back(test::make_vehicle(1, 0, 1000000));
  return Problem::create(std::move(spec));
}

void expect_reference(const Problem& p) {
  const std::size_t n = p.tasks().size();
  for (const std::size_t k : {std::size_t{0}, std::size_t{1}, std::size_t{7}, n - 1, n + 3}) {
    const Neighbours near(p, k);
    for (std::size_t t = 0; t < n; ++t)
      ASSERT_EQ(std::vector<std::size_t>(near.of(t).begin(), near.of(t).end()), reference(p, t, k))
          << "task " << t << " k " << k;
  }
}

TEST(Neighbours, EqualAFullSortOnNarrowMatrices) {
  const ProblemPtr p = random_problem(90, 300, false, 1);
  ASSERT_TRUE(p->travel(0).costs.narrow());
  expect_reference(*p);
}

TEST(Neighbours, EqualAFullSortWithUnreachableArcs) {
  const ProblemPtr p = random_problem(80, 140, true, 2);
  ASSERT_FALSE(p->travel(0).costs.narrow());
  expect_reference(*p);
}

TEST(Neighbours, EqualAFullSortOnEuclideanPoints) {
  ProblemSpec spec = test::points_spec(test::random_points(601, 3));
  for (std::size_t j = 1; j <= 600; ++j) spec.jobs.push_back(test::make_job(j, j));
  spec.vehicles.push_back(test::make_vehicle(1, 0, 1000));
  expect_reference(*Problem::create(std::move(spec)));
}

// ---- the spatial index -------------------------------------------------------------------------

using Points = std::vector<std::pair<double, double>>;

/// n points on a side x side integer grid (many ties, repeated points), some on the depot (0, 0).
Points grid_points(std::size_t n, int side, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> coord(0, side);
  Points out{{0, 0}};
  for (std::size_t i = 1; i < n; ++i)
    out.emplace_back(i % 13 == 0 ? 0 : coord(rng), i % 13 == 0 ? 0 : coord(rng));
  return out;
}

/// A CVRPLIB file of `points` (the first is the depot), EUC_2D or CEIL_2D, read.
ProblemSpec cvrplib_spec(const Points& points, const std::string& weights) {
  std::ostringstream f;
  f << "NAME : t\nTYPE : CVRP\nDIMENSION : " << points.size() << "\nEDGE_WEIGHT_TYPE : " << weights
    << "\nCAPACITY : 100\nNODE_COORD_SECTION\n";
  for (std::size_t i = 0; i < points.size(); ++i)
    f << i + 1 << " " << points[i].first << " " << points[i].second << "\n";
  f << "DEMAND_SECTION\n";
  for (std::size_t i = 0; i < points.size(); ++i) f << i + 1 << " " << (i == 0 ? 0 : 1) << "\n";
  f << "DEPOT_SECTION\n1\n-1\nEOF\n";
  return io::parse_cvrplib(f.str(), "t.vrp");
}

ProblemPtr cvrplib_problem(const Points& points, const std::string& weights) {
  return Problem::create(cvrplib_spec(points, weights));
}

/// A Solomon file of `points` (the first is the depot), arcs exact (x1000) or truncated (x10).
ProblemPtr solomon_problem(const Points& points, bool truncate) {
  std::ostringstream f;
  f << "T\n\nVEHICLE\nNUMBER     CAPACITY\n  25         200\n\nCUSTOMER\n"
       "CUST NO.   XCOORD.   YCOORD.    DEMAND   READY TIME   DUE DATE   SERVICE TIME\n\n";
  for (std::size_t i = 0; i < points.size(); ++i)
    f << i << " " << points[i].first << " " << points[i].second << " " << (i == 0 ? 0 : 1)
      << " 0 100000 " << (i == 0 ? 0 : 10) << "\n";
  return Problem::create(io::parse_solomon(f.str(), "t.txt", truncate));
}

/// The spatial lists, for every k from 1 to beyond the task count, equal the scan's.
void expect_spatial_as_scan(const Problem& p, std::vector<std::size_t> ks = {1, 7, 30, 100}) {
  ASSERT_NE(p.planar_costs(0), nullptr);
  const std::size_t n = p.tasks().size();
  ks.push_back(n - 1);
  ks.push_back(n + 3);
  for (const std::size_t k : ks) {
    const Neighbours fast(p, k), scan(p, k, Neighbours::Method::Scan);
    ASSERT_TRUE(fast.spatial());
    ASSERT_FALSE(scan.spatial());
    for (std::size_t t = 0; t < n; ++t)
      ASSERT_TRUE(
          std::equal(fast.of(t).begin(), fast.of(t).end(), scan.of(t).begin(), scan.of(t).end()))
          << "task " << t << " k " << k;
  }
}

TEST(SpatialNeighbours, EqualTheScanOnEuclideanGrids) {
  for (const char* weights : {"EUC_2D", "CEIL_2D"}) {
    SCOPED_TRACE(weights);
    expect_spatial_as_scan(
        *cvrplib_problem(grid_points(700, 20, 4), weights));  // about 1.6 tasks a point
    expect_spatial_as_scan(*cvrplib_problem(grid_points(400, 300, 5), weights));
    expect_spatial_as_scan(*cvrplib_problem(grid_points(3, 2, 6), weights));  // fewer tasks than k
  }
}

TEST(SpatialNeighbours, EqualTheScanOnFractionalCoordinates) {
  Points points = grid_points(500, 40, 7);
  for (auto& [x, y] : points) x = x / 4 + 1000.125, y = y / 8 - 7.5;  // pair by pair, hypot
  expect_spatial_as_scan(*cvrplib_problem(points, "EUC_2D"));
  expect_spatial_as_scan(*cvrplib_problem(points, "CEIL_2D"));
}

TEST(SpatialNeighbours, EqualTheScanOnSolomonArcs) {
  for (const bool truncate : {false, true}) {
    SCOPED_TRACE(truncate ? "one decimal" : "exact");
    expect_spatial_as_scan(*solomon_problem(grid_points(600, 25, 8), truncate));
    Points points = grid_points(300, 60, 9);
    for (auto& [x, y] : points) x = x / 3, y = y * 0.7;
    expect_spatial_as_scan(*solomon_problem(points, truncate));
  }
}

TEST(SpatialNeighbours, EqualTheScanOnEveryTaskAtOnePlace) {
  expect_spatial_as_scan(*cvrplib_problem(Points(60, {5, 5}), "EUC_2D"));
}

TEST(SpatialNeighbours, EqualTheScanOnARelocatedProblem) {
  const ProblemPtr p = cvrplib_problem(grid_points(500, 30, 10), "EUC_2D");
  std::vector<std::size_t> order(p->locations());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::shuffle(order.begin(), order.end(), std::mt19937_64(11));
  const ProblemPtr moved = p->relocated(order);
  expect_spatial_as_scan(*moved);
  const Neighbours before(*p, 30), after(*moved, 30);
  for (std::size_t t = 0; t < p->tasks().size(); ++t)
    ASSERT_TRUE(std::equal(before.of(t).begin(), before.of(t).end(), after.of(t).begin(),
                           after.of(t).end()));
}

TEST(SpatialNeighbours, EqualTheScanOnSharedFiles) {
  const std::filesystem::path root = test::datasets_dir();
  for (const char* file :
       {"cvrp/augerat/A/A-n45-k6.vrp", "cvrp/x/X-n979-k58.vrp", "vrptw/solomon/R101.txt",
        "vrptw/gehring_homberger/c1_10_1.txt", "pdptw/li_lim/lc101.txt"}) {
    if (!std::filesystem::exists(root / file)) continue;
    SCOPED_TRACE(file);
    const bool solomon_like = std::filesystem::path(file).extension() == ".txt";
    for (const bool truncate : {false, true}) {
      if (truncate && !solomon_like) continue;
      io::ReadOptions read;
      read.truncate_one_decimal = truncate;
      expect_spatial_as_scan(*Problem::create(io::read_problem(root / file, read)), {1, 30, 100});
    }
  }
}

TEST(SpatialNeighbours, ScanWhereTheCostsAreNotThePlanarTable) {
  const Points points = grid_points(200, 30, 12);
  const auto spec_of = [&] { return cvrplib_spec(points, "EUC_2D"); };
  auto expect_scan = [](ProblemSpec spec, const char* why) {
    SCOPED_TRACE(why);
    const ProblemPtr p = Problem::create(std::move(spec));
    EXPECT_EQ(p->planar_costs(0), nullptr);
    EXPECT_FALSE(Neighbours(*p, 10).spatial());
    expect_reference(*p);
  };
  ProblemSpec spec = spec_of();
  ASSERT_NE(Problem::create(spec)->planar_costs(0), nullptr);
  spec.matrices["car"].costs->set(7, 1);  // the costs written after reading
  expect_scan(std::move(spec), "a written cost");
  spec = spec_of();
  spec.matrices["car"].durations(3, 4) =
      2;  // costs follow the durations at the default cost per hour
  spec.matrices["car"].costs.reset();
  expect_scan(std::move(spec), "written durations as costs");
  spec = spec_of();
  spec.matrices["car"].costs.reset();
  for (VehicleSpec& v : spec.vehicles) v.costs.per_hour = 7200;  // twice the durations
  expect_scan(std::move(spec), "a cost per hour");
  spec = spec_of();
  spec.matrices["car"].costs.reset();
  spec.vehicles[0].speed_factor = 2.0;
  expect_scan(std::move(spec), "a speed factor");
  // Costs given as another matrix of equal values: the problem's cost table is the planar one
  // (Problem::create found every arc equal), so the index still applies.
  spec = spec_of();
  spec.matrices["car"].costs = Matrix(points.size(), spec.matrices["car"].durations.values());
  expect_spatial_as_scan(*Problem::create(std::move(spec)));
}

TEST(SpatialNeighbours, ScanOnJsonMatrices) {
  const ProblemPtr p = Problem::create(io::parse_vroom_problem(R"({
    "vehicles": [{"id": 1, "start_index": 0}],
    "jobs": [{"id": 1, "location_index": 1, "location": [1, 0]}, {"id": 2, "location_index": 2, "location": [2, 0]}],
    "matrices": {"car": {"durations": [[0, 1, 2], [1, 0, 1], [2, 1, 0]]}}
  })",
                                                               "t.json"));
  EXPECT_EQ(p->planar_costs(0), nullptr);
  EXPECT_FALSE(Neighbours(*p, 1).spatial());
}

// ---- partners for time windows
// -------------------------------------------------------------------

namespace windows {

/// The correlation of going from task a to task b: the travel cost, 0.2 times the wait when a is
/// left as late as its windows allow, the time warp when it is left as early as they allow.
double one_way(const Problem& p, std::size_t a, std::size_t b) {
  const TravelView tv = p.travel(0);
  const Task& ta = p.task(a);
  const Task& tb = p.task(b);
  const double travel = static_cast<double>(tv.duration(ta.location, tb.location));
  const double latest_arrival =
      static_cast<double>(ta.time_windows.back().end + ta.service) + travel;
  const double earliest_arrival =
      static_cast<double>(ta.time_windows.front().start + ta.service) + travel;
  const double wait =
      std::max(0.0, static_cast<double>(tb.time_windows.front().start) - latest_arrival);
  const double warp =
      std::max(0.0, earliest_arrival - static_cast<double>(tb.time_windows.back().end));
  return static_cast<double>(tv.cost(ta.location, tb.location)) + 0.2 * wait + warp;
}

std::vector<std::size_t> reference(const Problem& p, const Neighbours& pool, std::size_t t,
                                   std::size_t keep, std::size_t extra) {
  const auto from = pool.of(t);
  std::vector<std::size_t> out(
      from.begin(), from.begin() + static_cast<std::ptrdiff_t>(std::min(keep, from.size())));
  std::vector<std::pair<double, std::size_t>> rest;  // (correlation, place in the pool's list)
  for (std::size_t x = out.size(); x < from.size(); ++x)
    rest.emplace_back(std::min(one_way(p, t, from[x]), one_way(p, from[x], t)), x);
  std::stable_sort(rest.begin(), rest.end());
  for (std::size_t e = 0; e < std::min(extra, rest.size()); ++e)
    out.push_back(from[rest[e].second]);
  return out;
}

ProblemPtr windowed_problem(std::size_t tasks, unsigned seed) {
  std::mt19937_64 rng(seed);
  const Points points = grid_points(tasks + 1, 100, seed);
  ProblemSpec spec = test::points_spec(points);
  std::uniform_int_distribution<std::int64_t> open(0, 900), width(10, 200), service(0, 30);
  for (std::size_t j = 1; j <= tasks; ++j) {
    JobSpec job = test::make_job(j, j);
    job.service = service(rng);
    const std::int64_t a = open(rng);
    job.time_windows.push_back(TimeWindow{a, a + width(rng)});
    if (j % 5 == 0)
      job.time_windows.push_back(TimeWindow{a + 400, a + 400 + width(rng)});  // two windows
    if (j % 11 == 0) job.time_windows.clear();                                // always open
    spec.jobs.push_back(std::move(job));
  }
  spec.vehicles.push_back(test::make_vehicle(1, 0, 1000));
  return Problem::create(std::move(spec));
}

}  // namespace windows

TEST(WindowPartners, KeepTheNearestAndAddTheBestCorrelatedOfThePool) {
  const ProblemPtr p = windows::windowed_problem(300, 21);
  const Neighbours pool(*p, 30);
  for (const auto& [keep, extra] : std::vector<std::pair<std::size_t, std::size_t>>{
           {20, 5}, {0, 8}, {30, 4}, {25, 10}, {3, 0}}) {
    const Neighbours partners(*p, pool, keep, extra);
    EXPECT_EQ(partners.size(), std::min<std::size_t>(30, keep + extra));
    for (std::size_t t = 0; t < p->tasks().size(); ++t) {
      const std::vector<std::size_t> got(partners.of(t).begin(), partners.of(t).end());
      ASSERT_EQ(got, windows::reference(*p, pool, t, keep, extra))
          << "task " << t << " keep " << keep << " extra " << extra;
    }
  }
}

TEST(WindowPartners, ReachTheTaskThatFollowsInTimeBeyondNearerOnes) {
  // Task 1 at x = 0 closes at 100; tasks 2-6 lie near it but open only at 5,000; task 7, forty
  // units away, opens at 140, right after task 1 closes and its service and the drive: the first
  // partner that the windows add.
  ProblemSpec spec =
      test::points_spec({{0, 0}, {0, 1}, {1, 1}, {2, 1}, {3, 1}, {4, 1}, {5, 1}, {40, 1}});
  for (std::size_t j = 1; j <= 7; ++j) {
    JobSpec job = test::make_job(j, j);
    job.time_windows.push_back(j == 1   ? TimeWindow{0, 100}
                               : j == 7 ? TimeWindow{140, 200}
                                        : TimeWindow{5000, 5100});
    spec.jobs.push_back(std::move(job));
  }
  spec.vehicles.push_back(test::make_vehicle(1, 0, 100));
  const ProblemPtr p = Problem::create(std::move(spec));
  const Neighbours pool(*p, 6);
  ASSERT_EQ(pool.of(0).back(), 6u);  // task 7 is the farthest from task 1
  const Neighbours partners(*p, pool, 2, 1);
  EXPECT_EQ(std::vector<std::size_t>(partners.of(0).begin(), partners.of(0).end()),
            (std::vector<std::size_t>{1, 2, 6}));
}

}  // namespace
}  // namespace routesolve::search
