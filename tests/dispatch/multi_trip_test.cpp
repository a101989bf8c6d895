// Multi-trip vehicles and working time: the search against brute force on small instances (every
// order of the jobs and every split into trips, scheduled by core), the segment layer against
// schedule_route on random sequences with reloads, the validator on hand-made routes, and bad
// input naming the JSON path and field.

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "grid_instance.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/search/segments.hpp"
#include "routesolve/solution.hpp"
#include "routesolve/solve.hpp"
#include "routesolve/validator.hpp"

namespace routesolve {
namespace {

/// One depot (location 0) and n jobs on a grid; one vehicle with reloads at the depot.
ProblemSpec instance(std::uint64_t seed, std::size_t n, std::int64_t capacity,
                     std::size_t max_trips, Duration reload_service,
                     std::optional<Duration> max_working_time = std::nullopt) {
  std::mt19937_64 rng(seed);
  ProblemSpec spec;
  spec.matrices["car"].durations = test::manhattan_grid(rng, n);
  for (std::size_t i = 1; i <= n; ++i) {
    JobSpec j;
    j.id = i;
    j.location.index = i;
    j.service = 2;
    j.delivery = Amount{static_cast<std::int64_t>(1 + rng() % 4)};
    if (rng() % 3 == 0) j.pickup = Amount{static_cast<std::int64_t>(rng() % 3)};
    spec.jobs.push_back(j);
  }
  VehicleSpec v;
  v.id = 1;
  v.start = LocationSpec{0, std::nullopt};
  v.end = LocationSpec{0, std::nullopt};
  v.capacity = Amount{capacity};
  v.reload_locations = {LocationSpec{0, std::nullopt}};
  v.reload_service = reload_service;
  v.max_trips = max_trips;
  v.max_working_time = max_working_time;
  spec.vehicles.push_back(v);
  return spec;
}

/// The cheapest feasible route over every order of the jobs and every set of gaps holding a
/// reload (at most max_trips - 1), each scheduled by core's schedule_route.
Cost brute_force(const Problem& p) {
  const Vehicle& veh = p.vehicle(0);
  std::vector<std::size_t> order(p.routable_tasks());
  std::iota(order.begin(), order.end(), 0);
  Cost best = -1;
  do {
    const std::size_t gaps = order.size() - 1;  // reloads between two jobs only
    for (std::uint32_t mask = 0; mask < (1u << gaps); ++mask) {
      if (static_cast<std::size_t>(__builtin_popcount(mask)) + 1 > veh.max_trips) continue;
      std::vector<std::size_t> seq;
      std::size_t next_reload = 0;
      for (std::size_t k = 0; k < order.size(); ++k) {
        seq.push_back(order[k]);
        if (k < gaps && (mask >> k & 1u)) seq.push_back(veh.reloads[next_reload++]);
      }
      const ScheduleResult r = schedule_route(p, 0, seq);
      if (r.feasible && (best < 0 || r.route.cost < best)) best = r.route.cost;
    }
  } while (std::next_permutation(order.begin(), order.end()));
  return best;
}

TEST(MultiTrip, SearchFindsTheBruteForceOptimumOnSmallInstances) {
  std::size_t compared = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const ProblemPtr p = Problem::create(instance(seed, 6, 6, 3, 5));
    const Cost optimum = brute_force(*p);
    if (optimum < 0) continue;  // three trips cannot carry it all
    ++compared;
    SolveOptions options;
    options.backend = BackendKind::Cpu;
    options.seed = seed;
    options.iterations = 3000;
    const Solution s = solve(*p, options);
    ASSERT_TRUE(s.unassigned.empty()) << "seed " << seed;
    EXPECT_EQ(s.summary.cost, optimum) << "seed " << seed;
    EXPECT_TRUE(validate(*p, s).ok()) << "seed " << seed;
  }
  EXPECT_GE(compared, 7u);
}

TEST(MultiTrip, WorkingTimeLimitMatchesBruteForce) {
  // A limit between the unconstrained optimum's working time and the longest feasible one.
  for (std::uint64_t seed = 11; seed <= 14; ++seed) {
    const ProblemPtr free = Problem::create(instance(seed, 5, 6, 3, 5));
    const Cost optimum = brute_force(*free);
    SolveOptions options;
    options.backend = BackendKind::Cpu;
    options.seed = seed;
    options.iterations = 2000;
    const Solution s = solve(*free, options);
    ASSERT_EQ(s.summary.cost, optimum);
    const Route& r = s.routes.front();
    const Duration worked = r.duration + r.setup + r.service + r.waiting_time;
    const ProblemPtr tight = Problem::create(instance(seed, 5, 6, 3, 5, worked - 1));
    const Cost limited = brute_force(*tight);  // schedule_route applies max_working_time
    const Solution t = solve(*tight, options);
    EXPECT_TRUE(validate(*tight, t).ok());
    if (limited < 0) {
      EXPECT_FALSE(t.unassigned.empty());
    } else {
      ASSERT_TRUE(t.unassigned.empty()) << "seed " << seed;
      EXPECT_EQ(t.summary.cost, limited) << "seed " << seed;
      EXPECT_GT(limited, optimum);
    }
  }
}

TEST(MultiTrip, SegmentsAgreeWithScheduleRoute) {
  std::mt19937_64 rng(7);
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const ProblemPtr p = Problem::create(instance(seed, 8, 7, 4, 3, 700));
    const search::SegmentModel m(*p);
    ASSERT_TRUE(m.exact());
    for (int trial = 0; trial < 50; ++trial) {
      std::vector<std::size_t> seq(p->routable_tasks());
      std::iota(seq.begin(), seq.end(), 0);
      std::shuffle(seq.begin(), seq.end(), rng);
      seq.resize(1 + rng() % seq.size());
      const std::size_t reloads = rng() % 4;
      for (std::size_t k = 0; k < reloads; ++k)
        seq.insert(seq.begin() + static_cast<std::ptrdiff_t>(rng() % (seq.size() + 1)),
                   p->vehicle(0).reloads[k]);
      RouteSegment s = m.start(0);
      for (std::size_t t : seq) s = m.merge(0, s, m.task(t));
      s = m.merge(0, s, m.end(0));
      const ScheduleResult r = schedule_route(*p, 0, seq);
      EXPECT_EQ(m.feasible(0, s), r.feasible) << "seed " << seed << " trial " << trial;
      if (r.feasible) {
        EXPECT_EQ(s.cost, r.route.cost - p->fixed_cost(0));
      }
    }
  }
}

TEST(MultiTrip, ReloadStepsResetTheLoad) {
  const ProblemPtr p = Problem::create(instance(3, 4, 100, 3, 5));
  const std::vector<std::size_t> seq{0, 1, p->vehicle(0).reloads[0], 2, 3};
  const ScheduleResult r = schedule_route(*p, 0, seq);
  ASSERT_TRUE(r.feasible);
  const auto& steps = r.route.steps;
  ASSERT_EQ(steps[3].type, StepType::Reload);
  EXPECT_EQ(steps[3].service, 5);
  // After the reload: the next trip's deliveries, plus nothing picked up yet.
  std::int64_t next = p->task(2).delivery[0] + p->task(3).delivery[0];
  EXPECT_EQ(steps[3].load[0], next);
  EXPECT_EQ(steps[0].load[0], p->task(0).delivery[0] + p->task(1).delivery[0]);
  ValidateOptions partial;
  partial.require_all_tasks_accounted = false;
  const ValidationReport report = validate(*p, make_solution(*p, {r.route}, {}), partial);
  EXPECT_TRUE(report.ok()) << report.to_text();
}

TEST(MultiTrip, ValidatorReportsTooManyTripsAndWorkingTime) {
  // Two reload locations (both the depot): with max_trips 3 the reload tasks are, in order, two
  // at the first and two at the second; with max_trips 2 one at each. The first two tasks of
  // both have the same ids and locations, so a route of the first problem fits the second's.
  ProblemSpec three = instance(5, 4, 100, 3, 5);
  three.vehicles[0].reload_locations.push_back(LocationSpec{0, std::nullopt});
  const ProblemPtr p = Problem::create(three);
  std::vector<std::size_t> seq{0, p->vehicle(0).reloads[0], 1, p->vehicle(0).reloads[1], 2, 3};
  ScheduleResult r = schedule_route(*p, 0, seq);
  ASSERT_TRUE(r.feasible);
  const Solution s = make_solution(*p, {r.route}, {});
  ValidateOptions figures;
  figures.require_all_tasks_accounted = false;
  EXPECT_TRUE(validate(*p, s, figures).ok()) << validate(*p, s, figures).to_text();
  ProblemSpec spec = instance(5, 4, 100, 2, 5, 10);
  spec.vehicles[0].reload_locations.push_back(LocationSpec{0, std::nullopt});
  const ProblemPtr two = Problem::create(spec);
  const ValidationReport report = validate(*two, s, figures);
  bool trips = false, working = false;
  for (const Violation& v : report.violations) {
    trips = trips || v.kind == ViolationKind::MaxTrips;
    working = working || v.kind == ViolationKind::MaxWorkingTime;
  }
  EXPECT_TRUE(trips);
  EXPECT_TRUE(working);
}

// ---- bad input: exit code 2 (InvalidInput) naming the path and field --------------------------

std::string error_of(const std::string& vehicle, ErrorCode code = ErrorCode::InvalidInput) {
  const std::string json = R"({"jobs":[{"id":1,"location_index":1}],"vehicles":[)" + vehicle +
                           R"(],"matrices":{"car":{"durations":[[0,1],[1,0]]}}})";
  try {
    (void)Problem::create(io::parse_vroom_problem(json, "fleet.json"));
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "accepted " << vehicle;
  return {};
}

TEST(MultiTripBadInput, EachFieldNamesItsPath) {
  EXPECT_NE(error_of(R"({"id":1,"start_index":0,"reload_location_indices":[5]})")
                .find("vehicles[0].reload_location_indices[0]"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"id":1,"start_index":0,"reload_location_indices":"x"})")
                .find("vehicles[0].reload_location_indices"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"id":1,"start_index":0,"reload_locations":[[1]]})")
                .find("vehicles[0].reload_locations[0]"),
            std::string::npos);
  EXPECT_NE(
      error_of(
          R"({"id":1,"start_index":0,"reload_locations":[[1,2]],"reload_location_indices":[0,1]})")
          .find("vehicles[0].reload_location_indices"),
      std::string::npos);
  EXPECT_NE(
      error_of(R"({"id":1,"start_index":0,"reload_location_indices":[0],"reload_service":-3})")
          .find("vehicles[0].reload_service"),
      std::string::npos);
  EXPECT_NE(error_of(R"({"id":1,"start_index":0,"reload_location_indices":[0],"max_trips":0})")
                .find("vehicles[0].max_trips"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"id":1,"start_index":0,"max_trips":-1})").find("vehicles[0].max_trips"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"id":1,"start_index":0,"max_working_time":-5})")
                .find("vehicles[0].max_working_time"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"id":1,"start_index":0,"max_working_time":"long"})")
                .find("vehicles[0].max_working_time"),
            std::string::npos);
}

TEST(MultiTripBadInput, ShipmentsWithReloadsAreRefusedAsUnsupported) {
  const std::string json =
      R"({"shipments":[{"pickup":{"id":1,"location_index":1},"delivery":{"id":1,"location_index":0}}],)"
      R"("vehicles":[{"id":1,"start_index":0,"reload_location_indices":[0]}],"matrices":{"car":{"durations":[[0,1],[1,0]]}}})";
  try {
    (void)Problem::create(io::parse_vroom_problem(json, "fleet.json"));
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Unsupported);
    EXPECT_NE(std::string(e.what()).find("vehicles[0].reload_locations"), std::string::npos);
  }
}

TEST(MultiTrip, BatchedBackendsRefuseClearly) {
  const ProblemPtr p = Problem::create(instance(1, 4, 6, 3, 5));
  SolveOptions options;
  options.backend = BackendKind::CudaHost;
  try {
    (void)solve(*p, options);
    ADD_FAILURE() << "cuda-host accepted a multi-trip problem";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Unsupported);
    EXPECT_NE(std::string(e.what()).find("reload_locations"), std::string::npos);
  }
}

}  // namespace
}  // namespace routesolve
