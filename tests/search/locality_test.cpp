// The search's copy of a problem with its locations in locality order (locality.hpp): a
// permutation of the locations, every arc and every task and vehicle kept, and a solve of a
// problem large enough to get one returns a solution of the user's problem.

#include "routesolve/search/locality.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>

#include "routesolve/cpu/cpu_backend.hpp"
#include "routesolve/validator.hpp"
#include "test_problems.hpp"

namespace routesolve::test {
namespace {

using search::locality_order;
using search::locality_ordered;

/// `locations` random points (the last `unused` of them not visited), jobs with time windows at
/// most of them, a shipment, two vehicle profiles (one slower: its own converted tables), a
/// costs matrix on the second, and vehicles with different depots. With `coords`, every place
/// also has coordinates.
ProblemPtr mixed_problem(std::size_t locations, std::size_t unused, bool coords, unsigned seed) {
  const auto points = random_points(locations, seed);
  ProblemSpec spec = points_spec(points);
  Matrix costs(locations);
  std::mt19937_64 rng(seed);
  for (std::size_t i = 0; i < locations; ++i)
    for (std::size_t j = 0; j < locations; ++j)
      costs(i, j) = spec.matrices["car"].durations(i, j) * 2 + (i + j) % 3;
  spec.matrices["truck"] = ProfileMatrices{spec.matrices["car"].durations, Matrix(), costs};
  auto place = [&](std::size_t l) {
    LocationSpec s{l, std::nullopt};
    if (coords) s.coords = Coordinates{points[l].first, points[l].second};
    return s;
  };
  const std::size_t visited = locations - unused;
  for (std::size_t l = 3; l + 2 < visited; ++l) {
    JobSpec j = make_job(static_cast<Id>(l), l, 1);
    j.location = place(l);
    if (l % 4 == 0) j.time_windows = {TimeWindow{0, 400 + static_cast<Duration>(rng() % 600)}};
    spec.jobs.push_back(j);
  }
  ShipmentSpec s;
  s.pickup.id = 1;
  s.pickup.location = place(visited - 2);
  s.delivery.id = 1;
  s.delivery.location = place(visited - 1);
  s.amount = Amount{1};
  spec.shipments.push_back(s);
  for (Id v = 1; v <= 6; ++v) {
    VehicleSpec veh = make_vehicle(v, static_cast<std::size_t>(v % 3), 40);
    veh.start = place(static_cast<std::size_t>(v % 3));
    veh.end = place(static_cast<std::size_t>(v % 3));
    if (v % 2 == 0) {
      veh.profile = "truck";
      veh.speed_factor = 0.8;
    }
    spec.vehicles.push_back(veh);
  }
  return Problem::create(std::move(spec));
}

void expect_permutation(const std::vector<std::size_t>& order, std::size_t n) {
  ASSERT_EQ(order.size(), n);
  std::vector<std::size_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::size_t> all(n);
  std::iota(all.begin(), all.end(), std::size_t{0});
  EXPECT_EQ(sorted, all);
}

/// Every task, vehicle and arc of `a` is the same in `b`, at b's locations.
void expect_same_problem(const Problem& a, const Problem& b) {
  ASSERT_EQ(a.tasks().size(), b.tasks().size());
  ASSERT_EQ(a.vehicles().size(), b.vehicles().size());
  ASSERT_EQ(a.locations(), b.locations());
  std::vector<std::size_t> places;  // a's locations of tasks and vehicle ends, b's alongside
  std::vector<std::size_t> other;
  for (std::size_t t = 0; t < a.tasks().size(); ++t) {
    EXPECT_EQ(a.task(t).id, b.task(t).id);
    EXPECT_EQ(a.task(t).type, b.task(t).type);
    EXPECT_EQ(a.task(t).time_windows, b.task(t).time_windows);
    places.push_back(a.task(t).location);
    other.push_back(b.task(t).location);
  }
  for (std::size_t v = 0; v < a.vehicles().size(); ++v) {
    EXPECT_EQ(a.vehicle(v).id, b.vehicle(v).id);
    EXPECT_EQ(a.vehicle(v).travel, b.vehicle(v).travel);
    places.push_back(a.vehicle(v).start);
    other.push_back(b.vehicle(v).start);
  }
  for (std::size_t v = 0; v < a.vehicles().size(); ++v) {
    const TravelView ta = a.travel(v), tb = b.travel(v);
    for (std::size_t i = 0; i < places.size(); ++i)
      for (std::size_t j = 0; j < places.size(); ++j) {
        ASSERT_EQ(ta.duration(places[i], places[j]), tb.duration(other[i], other[j]))
            << v << " " << i << " " << j;
        ASSERT_EQ(ta.cost(places[i], places[j]), tb.cost(other[i], other[j]))
            << v << " " << i << " " << j;
        if (ta.distances) {
          ASSERT_EQ(ta.distance(places[i], places[j]), tb.distance(other[i], other[j]));
        }
      }
  }
}

TEST(Locality, HilbertOrderIsAPermutationWithTheUnusedLocationsLast) {
  const ProblemPtr p = mixed_problem(120, 7, true, 1);
  const std::vector<std::size_t> order = locality_order(*p);
  expect_permutation(order, 120);
  for (std::size_t k = 113; k < 120; ++k)
    EXPECT_EQ(order[k], k) << "unused locations keep their order at the end";
  // Consecutive places along the curve are closer, on average, than in the input's order.
  const TravelView tv = p->travel(0);
  double along = 0, given = 0;
  for (std::size_t k = 1; k < 113; ++k) {
    along += static_cast<double>(tv.duration(order[k - 1], order[k]));
    given += static_cast<double>(tv.duration(k - 1, k));
  }
  EXPECT_LT(along, 0.5 * given);
}

TEST(Locality, CoordinatesBeyondWhatADifferenceHoldsStillGiveAPermutation) {
  const auto points = random_points(40, 7);
  ProblemSpec spec = points_spec(points);
  for (std::size_t l = 1; l < 40; ++l) {
    JobSpec j = make_job(static_cast<Id>(l), l, 1);
    j.location.coords = Coordinates{l == 1   ? 1e308
                                    : l == 2 ? -1e308
                                             : points[l].first,
                                    points[l].second};
    spec.jobs.push_back(j);
  }
  VehicleSpec v = make_vehicle(1, 0, 100);
  v.start->coords = v.end->coords = Coordinates{points[0].first, points[0].second};
  spec.vehicles.push_back(v);
  const ProblemPtr p = Problem::create(std::move(spec));
  expect_permutation(locality_order(*p), 40);  // every place has coordinates: the Hilbert curve
}

TEST(Locality, WithoutCoordinatesTheOrderIsANearestNeighbourChain) {
  const ProblemPtr p = mixed_problem(90, 3, false, 2);
  const std::vector<std::size_t> order = locality_order(*p);
  expect_permutation(order, 90);
  const TravelView tv = p->travel_by_index(0);
  // Each step goes to the nearest place not yet taken.
  std::vector<char> taken(90, 0);
  taken[order[0]] = 1;
  for (std::size_t k = 1; k < 87; ++k) {
    std::int64_t nearest = std::numeric_limits<std::int64_t>::max();
    for (std::size_t l = 0; l < 87; ++l)
      if (!taken[l]) nearest = std::min(nearest, tv.cost(order[k - 1], l));
    EXPECT_EQ(tv.cost(order[k - 1], order[k]), nearest);
    taken[order[k]] = 1;
  }
}

TEST(Locality, TheCopyKeepsEveryTaskVehicleAndArc) {
  for (const bool coords : {true, false}) {
    const ProblemPtr p = mixed_problem(150, 5, coords, 3);
    const ProblemPtr q = locality_ordered(*p, 1, UINT64_MAX);
    ASSERT_NE(q, nullptr);
    expect_same_problem(*p, *q);
    // Tables the input shares stay shared: "car" durations are "truck"'s.
    EXPECT_TRUE(
        q->spec().matrices.at("car").durations.shares(q->spec().matrices.at("truck").durations));
  }
}

TEST(Locality, RelocatedRefusesAnOrderThatIsNotAPermutation) {
  const ProblemPtr p = mixed_problem(20, 0, true, 6);
  std::vector<std::size_t> order(20);
  std::iota(order.begin(), order.end(), std::size_t{0});
  EXPECT_NE(p->relocated(order), nullptr);
  order[3] = 4;
  EXPECT_THROW((void)p->relocated(order), std::invalid_argument);
  order.pop_back();
  EXPECT_THROW((void)p->relocated(order), std::invalid_argument);
}

TEST(Locality, NoCopyBelowTheThresholdOrBeyondHalfTheMemory) {
  const ProblemPtr p = mixed_problem(400, 0, true, 4);
  EXPECT_EQ(locality_ordered(*p, 401, UINT64_MAX), nullptr);
  EXPECT_NE(locality_ordered(*p, 400, UINT64_MAX), nullptr);
  EXPECT_EQ(locality_ordered(*p, 400, 640'000), nullptr)
      << "one 400 x 400 table of 32 bits is 640,000 bytes";
  // Under a 1 MB cap the copy (a 400 x 400 table of 32 bits is 625 KiB, and there are several)
  // exceeds half of what is available.
  const char* before = std::getenv("ROUTESOLVE_MEMORY_LIMIT_MB");
  const std::string saved = before ? before : "";
  ::setenv("ROUTESOLVE_MEMORY_LIMIT_MB", "1", 1);
  EXPECT_EQ(locality_ordered(*p, 1, UINT64_MAX), nullptr);
  if (before)
    ::setenv("ROUTESOLVE_MEMORY_LIMIT_MB", saved.c_str(), 1);
  else
    ::unsetenv("ROUTESOLVE_MEMORY_LIMIT_MB");
}

TEST(Locality, ASolveOfALargeProblemReturnsTheUsersLocations) {
  // Above the solve's threshold, so the search runs on the ordered copy.
  const ProblemPtr p = mixed_problem(1200, 10, true, 5);
  auto backend = cpu::make_cpu_backend();
  SolveOptions options;
  options.time_limit_s = 0;
  options.iterations = 300;
  const Solution s = backend->solve(*p, options);
  const ValidationReport report = validate(*p, s);
  EXPECT_TRUE(report.ok()) << report.to_text();
  ASSERT_FALSE(s.profile.empty());
  EXPECT_EQ(s.profile.front().stage, "locality_order");
  for (const Route& r : s.routes)
    for (const Step& step : r.steps)
      if (step.task != kNone) {
        EXPECT_EQ(step.location, p->task(step.task).location);
      }
}

}  // namespace
}  // namespace routesolve::test
