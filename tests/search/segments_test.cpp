// Segment arithmetic against brute force: on random instances with time windows, two capacity
// dimensions and shipments, segments merged in any order agree with a left-to-right merge, with
// a direct simulation of the load, and with core's schedule_route on feasibility and cost.
// The working solution's journal and the ruin / recreate operators are checked the same way.

#include "routesolve/search/segments.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "routesolve/search/blink_insertion.hpp"
#include "routesolve/search/neighbours.hpp"
#include "routesolve/search/savings.hpp"
#include "routesolve/search/search_state.hpp"
#include "routesolve/search/string_removal.hpp"
#include "routesolve/search/tour_polish.hpp"
#include "routesolve/search/vehicle_classes.hpp"
#include "routesolve/search/working_solution.hpp"
#include "test_problems.hpp"

namespace routesolve::test {
namespace {

using namespace routesolve::search;

/// Random instance: 16 jobs (delivery or pickup, 2 dimensions), 4 shipments, single time
/// windows, 4 vehicles of mixed capacity (one open-ended), no setup or breaks, so that the
/// segment model is exact.
std::shared_ptr<const Problem> random_problem(std::uint64_t seed, bool tight) {
  std::mt19937_64 rng(seed);
  auto spec = points_spec(random_points(25, seed));
  for (std::size_t i = 1; i <= 16; ++i) {
    JobSpec j = make_job(i, i, 0);
    j.delivery = Amount{static_cast<std::int64_t>(rng() % 4), static_cast<std::int64_t>(rng() % 3)};
    j.pickup = Amount{static_cast<std::int64_t>(rng() % 2), static_cast<std::int64_t>(rng() % 3)};
    j.service = static_cast<Duration>(rng() % 10);
    if (tight) {
      const Duration a = static_cast<Duration>(rng() % 300);
      j.time_windows = {TimeWindow{a, a + 30 + static_cast<Duration>(rng() % 120)}};
    }
    spec.jobs.push_back(j);
  }
  for (std::size_t k = 0; k < 4; ++k) {
    ShipmentSpec sh;
    sh.pickup.id = 100 + k;
    sh.pickup.location.index = 17 + 2 * k;
    sh.delivery.id = 200 + k;
    sh.delivery.location.index = 18 + 2 * k;
    sh.amount =
        Amount{static_cast<std::int64_t>(1 + rng() % 3), static_cast<std::int64_t>(rng() % 2)};
    if (tight) sh.delivery.time_windows = {TimeWindow{0, 150 + static_cast<Duration>(rng() % 300)}};
    spec.shipments.push_back(sh);
  }
  for (std::size_t v = 0; v < 4; ++v) {
    VehicleSpec vs = make_vehicle(v + 1, 0, 0);
    vs.capacity = Amount{tight ? 8 + static_cast<std::int64_t>(rng() % 6) : 1000, tight ? 6 : 1000};
    vs.costs.per_km = static_cast<Cost>(rng() % 2) * 1000;
    if (v == 3) vs.end.reset();
    // Vehicles 0 and 2 limit their distance (the segments track it for them only): loosely, so
    // that the feasible routes are those of the unlimited problem in the loose case.
    if (v % 2 == 0) vs.max_distance = tight ? 900 : 1000000;
    if (tight) vs.time_window = TimeWindow{0, 400 + static_cast<Duration>(rng() % 200)};
    spec.vehicles.push_back(vs);
  }
  return Problem::create(spec);
}

/// A random order of random tasks: shipments as pickup-before-delivery pairs.
std::vector<std::size_t> random_sequence(const Problem& problem, std::mt19937_64& rng) {
  std::vector<std::size_t> seq;
  for (std::size_t t = 0; t < problem.tasks().size(); ++t) {
    const Task& task = problem.task(t);
    if (task.type == TaskType::Delivery || rng() % 3 != 0) continue;
    const std::size_t pos = rng() % (seq.size() + 1);
    seq.insert(seq.begin() + static_cast<std::ptrdiff_t>(pos), t);
    if (task.sibling != kNone) {
      const std::size_t pos2 = pos + 1 + rng() % (seq.size() - pos);
      seq.insert(seq.begin() + static_cast<std::ptrdiff_t>(pos2), task.sibling);
    }
  }
  return seq;
}

RouteSegment chain(const SegmentModel& m, std::size_t v, const std::vector<std::size_t>& seq) {
  RouteSegment s = m.start(v);
  for (std::size_t t : seq) s = m.merge(v, s, m.task(t));
  return m.merge(v, s, m.end(v));
}

/// Merges nodes [lo, hi) of (start, tasks..., end) by random binary splits.
RouteSegment tree(const SegmentModel& m, std::size_t v, const std::vector<RouteSegment>& nodes,
                  std::size_t lo, std::size_t hi, std::mt19937_64& rng) {
  if (hi - lo == 1) return nodes[lo];
  const std::size_t mid = lo + 1 + rng() % (hi - lo - 1);
  return m.merge(v, tree(m, v, nodes, lo, mid, rng), tree(m, v, nodes, mid, hi, rng));
}

/// Peak load of a sequence by simulation, per dimension, minus capacity, summed where positive.
std::int64_t simulated_excess(const Problem& p, std::size_t v,
                              const std::vector<std::size_t>& seq) {
  const std::size_t dims = p.dimensions();
  std::vector<std::int64_t> load(dims, 0), peak(dims, 0);
  for (std::size_t t : seq)
    if (p.task(t).type == TaskType::Job)
      for (std::size_t d = 0; d < dims; ++d) load[d] += p.task(t).delivery[d];
  peak = load;
  for (std::size_t t : seq) {
    for (std::size_t d = 0; d < dims; ++d) {
      load[d] += p.task(t).pickup[d] - p.task(t).delivery[d];
      peak[d] = std::max(peak[d], load[d]);
    }
  }
  std::int64_t excess = 0;
  for (std::size_t d = 0; d < dims; ++d)
    excess += std::max<std::int64_t>(0, peak[d] - p.vehicle(v).capacity[d]);
  return excess;
}

class SegmentTest : public ::testing::TestWithParam<std::uint64_t> {};

/// A problem with what a construction reads: its segment model, vehicle classes, each task's k
/// nearest tasks, and every task insertable.
struct Built {
  std::shared_ptr<const Problem> problem;
  SegmentModel model;
  VehicleClasses classes;
  Neighbours near;
  std::vector<std::size_t> insertable;
  Built(const ProblemSpec& spec, std::size_t k)
      : problem(Problem::create(spec)),
        model(*problem),
        classes(*problem),
        near(*problem, k),
        insertable(problem->tasks().size()) {
    for (std::size_t t = 0; t < insertable.size(); ++t) insertable[t] = t;
  }
};

TEST_P(SegmentTest, MergeOrderDoesNotMatterAndAgreesWithCore) {
  for (const bool tight : {false, true}) {
    const auto problem = random_problem(GetParam(), tight);
    const SegmentModel m(*problem);
    ASSERT_TRUE(m.supported());
    ASSERT_TRUE(m.exact());
    std::mt19937_64 rng(GetParam() * 31 + tight);
    std::size_t feasible_seen = 0, infeasible_seen = 0;
    for (int trial = 0; trial < 300; ++trial) {
      const std::size_t v = rng() % problem->vehicles().size();
      const auto seq = random_sequence(*problem, rng);
      const RouteSegment left = chain(m, v, seq);
      std::vector<RouteSegment> nodes{m.start(v)};
      for (std::size_t t : seq) nodes.push_back(m.task(t));
      nodes.push_back(m.end(v));
      const RouteSegment any = tree(m, v, nodes, 0, nodes.size(), rng);
      EXPECT_EQ(left.cost, any.cost);
      EXPECT_EQ(left.travel, any.travel);
      EXPECT_EQ(left.distance, any.distance);
      EXPECT_EQ(left.time.time_warp, any.time.time_warp);
      EXPECT_EQ(left.time.duration, any.time.duration);
      EXPECT_EQ(m.load_excess(v, left), m.load_excess(v, any));
      EXPECT_EQ(m.load_excess(v, left), simulated_excess(*problem, v, seq));
      EXPECT_EQ(left.cost, sequence_travel_cost(*problem, v, seq));
      if (seq.empty()) continue;
      const ScheduleResult exact = schedule_route(*problem, v, seq);
      EXPECT_EQ(m.feasible(v, left), exact.feasible) << "trial " << trial;
      (exact.feasible ? feasible_seen : infeasible_seen)++;
      if (exact.feasible) {
        EXPECT_EQ(exact.route.duration, left.travel);
        // Distances are tracked where the vehicle limits them (SegmentModel::travel).
        EXPECT_EQ(problem->vehicle(v).max_distance < kMaxTime ? exact.route.distance : 0,
                  left.distance);
        // Penalised cost of a feasible route is its cost.
        EXPECT_EQ(m.penalised_cost(v, left, 100, 100), left.cost);
      } else {
        EXPECT_GT(m.penalised_cost(v, left, 100, 100), left.cost);
      }
    }
    EXPECT_GT(feasible_seen, 0u);
    if (tight) {
      EXPECT_GT(infeasible_seen, 0u);
    }
  }
}

TEST_P(SegmentTest, DurationMergeMatchesSimulation) {
  // Time warp of a chain of windows equals the least warp of an explicit schedule where a late
  // arrival travels back in time to the window's end (Vidal's definition), over all start times.
  std::mt19937_64 rng(GetParam());
  for (int trial = 0; trial < 500; ++trial) {
    const std::size_t n = 1 + rng() % 6;
    std::vector<DurationSegment> nodes(n);
    std::vector<Duration> travel(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      nodes[i].duration = static_cast<Duration>(rng() % 10);
      nodes[i].earliest = static_cast<Duration>(rng() % 100);
      nodes[i].latest = nodes[i].earliest + static_cast<Duration>(rng() % 60);
      travel[i] = static_cast<Duration>(rng() % 30);
    }
    DurationSegment merged = nodes[0];
    for (std::size_t i = 1; i < n; ++i) merged = merge_durations(merged, nodes[i], travel[i]);
    // Simulation from the latest feasible start of the first node onwards is not enough; try
    // every start time and keep the least warp, then the least duration.
    Duration best_warp = kMaxTime, best_duration = kMaxTime;
    for (Duration s = nodes[0].earliest; s <= nodes[0].latest; ++s) {
      Duration t = s, warp = 0;
      for (std::size_t i = 0; i < n; ++i) {
        if (i > 0) t += travel[i];
        if (t < nodes[i].earliest) t = nodes[i].earliest;
        if (t > nodes[i].latest) {
          warp += t - nodes[i].latest;
          t = nodes[i].latest;
        }
        t += nodes[i].duration;
      }
      if (warp < best_warp || (warp == best_warp && t - s < best_duration)) {
        best_warp = warp;
        best_duration = t - s;
      }
    }
    EXPECT_EQ(merged.time_warp, best_warp) << "trial " << trial;
    // Without warp, the duration is the shortest makespan of a feasible schedule.
    if (best_warp == 0) {
      EXPECT_EQ(merged.duration, best_duration) << "trial " << trial;
    }
  }
}

TEST_P(SegmentTest, WorkingSolutionRevertRestoresEverything) {
  const auto problem = random_problem(GetParam(), false);
  const SegmentModel m(*problem);
  std::vector<std::size_t> insertable;
  for (std::size_t t = 0; t < problem->tasks().size(); ++t)
    if (problem->task(t).type != TaskType::Delivery) insertable.push_back(t);
  WorkingSolution ws(m, insertable);
  const VehicleClasses classes(*problem);
  const Neighbours near(*problem, 10);
  const auto engine = make_segment_engine();
  BlinkInsertion insertion(near, classes, 0.0);
  StringRemoval removal(near, StringRemoval::Parameters{});
  std::mt19937_64 rng(GetParam());
  insertion.apply(ws, insertable, rng, ws.vehicle_count(), *engine);
  EXPECT_EQ(ws.score().unassigned, 0u);
  for (int round = 0; round < 50; ++round) {
    const TourPlan before = ws.plan();
    const auto score = ws.score();
    ws.begin_change();
    const auto removed = removal.apply(ws, rng);
    for (std::size_t t : removed) {
      EXPECT_FALSE(ws.assigned(t));
      if (problem->task(t).sibling != kNone) {
        EXPECT_FALSE(ws.assigned(problem->task(t).sibling));
      }
    }
    insertion.apply(ws, removed, rng, ws.vehicle_count(), *engine);
    // The score is the recomputed one.
    Cost cost = 0;
    std::size_t routes = 0;
    for (std::size_t v = 0; v < ws.vehicle_count(); ++v) {
      cost += route_cost(*problem, v, ws.tour(v).tasks);
      routes += !ws.tour(v).empty();
      if (!ws.tour(v).empty()) {
        EXPECT_TRUE(schedule_route(*problem, v, ws.tour(v).tasks).feasible);
      }
    }
    EXPECT_EQ(ws.cost(), cost);
    EXPECT_EQ(ws.used_routes(), routes);
    if (round % 2 == 0) {
      ws.revert();
      EXPECT_EQ(ws.plan(), before);
      EXPECT_EQ(ws.score(), score);
    } else {
      ws.commit();
    }
    std::size_t routed = 0;
    for (std::size_t v = 0; v < ws.vehicle_count(); ++v) {
      routed += ws.tour(v).size();
      for (std::size_t i = 0; i < ws.tour(v).size(); ++i) {
        EXPECT_EQ(ws.route_of(ws.tour(v).tasks[i]), v);
        EXPECT_EQ(ws.position_of(ws.tour(v).tasks[i]), i);
      }
    }
    EXPECT_EQ(ws.routed(), routed);
  }
}

// Unused vehicles with equal ends share the model's segments, and an empty tour reads the same
// prefix and suffix as one built from its vehicle's start and end; a tour emptied and refilled
// gets the segments of a fresh one.
TEST(SharedEnds, EqualVehiclesShareTheirEmptyRouteAndEmptiedToursReadIt) {
  auto spec = points_spec(random_points(12, 3));
  for (std::size_t i = 1; i <= 8; ++i) spec.jobs.push_back(make_job(i, i, 1));
  for (std::size_t v = 0; v < 6; ++v) {
    VehicleSpec vs = make_vehicle(v + 1, 0, 0);
    vs.capacity = Amount{4};
    if (v == 5) vs.time_window = TimeWindow{10, 100000};  // another shift: its own ends
    spec.vehicles.push_back(vs);
  }
  const auto problem = Problem::create(spec);
  const SegmentModel m(*problem);
  for (std::size_t v = 1; v < 5; ++v) EXPECT_EQ(m.unused_route(v), m.unused_route(0));
  EXPECT_NE(m.unused_route(5), m.unused_route(0));
  EXPECT_EQ(m.start(5).time.earliest, 10);
  std::vector<std::size_t> insertable;
  for (std::size_t t = 0; t < problem->tasks().size(); ++t) insertable.push_back(t);
  WorkingSolution ws(m, insertable);
  auto expect_empty = [&](std::size_t v) {
    ASSERT_TRUE(ws.tour(v).empty());
    const RouteSegment whole = m.merge(v, m.start(v), m.end(v));
    EXPECT_EQ(ws.tour(v).prefix()[0].first, m.start(v).first);
    EXPECT_EQ(ws.tour(v).prefix()[1].cost, whole.cost);
    EXPECT_EQ(ws.tour(v).prefix()[1].time.earliest, whole.time.earliest);
    EXPECT_EQ(ws.tour(v).suffix()[0].cost, whole.cost);
    EXPECT_EQ(ws.tour(v).suffix()[1].last, m.end(v).last);
  };
  for (std::size_t v = 0; v < 6; ++v) expect_empty(v);
  ws.insert(0, 2, 0);
  ws.insert(1, 2, 1);
  ws.insert(2, 5, 0);
  EXPECT_EQ(ws.cost(),
            route_cost(*problem, 2, ws.tour(2).tasks) + route_cost(*problem, 5, ws.tour(5).tasks));
  const RouteSegment two =
      m.merge(2, m.merge(2, m.merge(2, m.start(2), m.task(0)), m.task(1)), m.end(2));
  EXPECT_EQ(ws.tour(2).prefix()[3].cost, two.cost);
  EXPECT_EQ(ws.tour(2).suffix()[0].cost, two.cost);
  ws.remove({0, 1});
  expect_empty(2);
  EXPECT_EQ(ws.cost(), route_cost(*problem, 5, ws.tour(5).tasks));
  ws.begin_change();
  ws.set_tasks(2, {1, 0});
  ws.revert();
  expect_empty(2);
  ws.insert(1, 2, 0);
  EXPECT_EQ(ws.tour(2).prefix()[2].cost,
            m.merge(2, m.merge(2, m.start(2), m.task(1)), m.end(2)).cost);
}

TEST_P(SegmentTest, BestInsertionDeltaIsExactAndFeasible) {
  const auto problem = random_problem(GetParam(), true);
  const SegmentModel m(*problem);
  std::vector<std::size_t> insertable;
  for (std::size_t t = 0; t < problem->tasks().size(); ++t)
    if (problem->task(t).type != TaskType::Delivery) insertable.push_back(t);
  WorkingSolution ws(m, insertable);
  const VehicleClasses classes(*problem);
  const Neighbours near(*problem, 10);
  const auto engine = make_segment_engine();
  BlinkInsertion insertion(near, classes, 0.0);
  std::mt19937_64 rng(GetParam());
  std::vector<std::size_t> half(
      insertable.begin(), insertable.begin() + static_cast<std::ptrdiff_t>(insertable.size() / 2));
  insertion.apply(ws, half, rng, ws.vehicle_count(), *engine);
  std::size_t checked = 0;
  for (std::size_t t : insertable) {
    if (ws.assigned(t)) continue;
    for (std::size_t v = 0; v < ws.vehicle_count(); ++v) {
      const std::size_t tours[] = {v};
      const InsertionRequest request{&ws, t, tours, 0, 0};
      InsertionChoice c;
      engine->price(std::span<const InsertionRequest>(&request, 1),
                    std::span<InsertionChoice>(&c, 1));
      if (!c.found()) continue;
      WorkingSolution after = ws;
      if (problem->task(t).sibling != kNone)
        after.insert_pair(t, v, c.i, c.j);
      else
        after.insert(t, v, c.i);
      EXPECT_EQ(c.delta, after.cost() - ws.cost());
      EXPECT_TRUE(schedule_route(*problem, v, after.tour(v).tasks).feasible);
      ++checked;
    }
  }
  EXPECT_GT(checked, 0u);
}

TEST_P(SegmentTest, TourOperatorsPriceExactlyAndStayFeasible) {
  for (const bool tight : {false, true}) {
    const auto problem = random_problem(GetParam(), tight);
    const SegmentModel m(*problem);
    std::vector<std::size_t> insertable;
    for (std::size_t t = 0; t < problem->tasks().size(); ++t)
      if (problem->task(t).type != TaskType::Delivery) insertable.push_back(t);
    WorkingSolution ws(m, insertable);
    const VehicleClasses classes(*problem);
    const Neighbours near(*problem, 10);
    const auto engine = make_segment_engine();
    std::mt19937_64 rng(GetParam());
    BlinkInsertion(near, classes, 0.5)
        .apply(ws, insertable, rng, ws.vehicle_count(), *engine);  // poor tours
    for (std::size_t v = 0; v < ws.vehicle_count(); ++v) {
      const auto& tasks = ws.tour(v).tasks;
      const std::size_t n = tasks.size();
      const TourCosts costs(ws, v);
      const Cost base = sequence_travel_cost(*problem, v, tasks);
      for (std::size_t i = 0; i + 1 < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) {
          std::vector<std::size_t> seq = tasks;
          std::reverse(seq.begin() + static_cast<std::ptrdiff_t>(i),
                       seq.begin() + static_cast<std::ptrdiff_t>(j) + 1);
          EXPECT_EQ(TourTwoOpt::delta(costs, i, j), sequence_travel_cost(*problem, v, seq) - base);
        }
      for (std::size_t length = 1; length <= 3 && length < n; ++length)
        for (std::size_t i = 0; i + length <= n; ++i)
          for (std::size_t to = 0; to <= n; ++to) {
            if (to >= i && to <= i + length) continue;
            const auto seq = TourOrOpt::moved(tasks, i, length, to);
            EXPECT_EQ(TourOrOpt::delta(costs, i, length, to),
                      sequence_travel_cost(*problem, v, seq) - base);
          }
      const Cost before = ws.cost();
      polish_tour(ws, v);
      EXPECT_LE(ws.cost(), before);
      if (!ws.tour(v).empty()) {
        EXPECT_TRUE(schedule_route(*problem, v, ws.tour(v).tasks).feasible);
      }
    }
  }
}

TEST_P(SegmentTest, SavingsPlanIsFeasibleAndComplete) {
  std::mt19937_64 rng(GetParam());
  auto spec = points_spec(random_points(41, GetParam()));
  for (std::size_t i = 1; i <= 40; ++i) {
    JobSpec j = make_job(i, i, 1 + static_cast<std::int64_t>(rng() % 5));
    const Duration a = static_cast<Duration>(rng() % 200);
    if (GetParam() % 2 == 0) j.time_windows = {TimeWindow{a, a + 100}};
    spec.jobs.push_back(j);
  }
  for (std::size_t v = 0; v < 40; ++v) spec.vehicles.push_back(make_vehicle(v + 1, 0, 15));
  const Built b(spec, 20);
  const auto& problem = b.problem;
  const std::vector<std::size_t>& insertable = b.insertable;
  const auto plan = savings_plan(b.model, b.classes, b.near, insertable);
  ASSERT_TRUE(plan.has_value());
  std::vector<int> seen(insertable.size(), 0);
  std::size_t routes = 0;
  for (std::size_t v = 0; v < plan->size(); ++v) {
    if ((*plan)[v].empty()) continue;
    ++routes;
    EXPECT_TRUE(schedule_route(*problem, v, (*plan)[v]).feasible);
    for (std::size_t t : (*plan)[v]) ++seen[t];
  }
  for (int count : seen) EXPECT_EQ(count, 1);
  EXPECT_LT(routes, 40u);  // merging happened
}

INSTANTIATE_TEST_SUITE_P(RandomInstances, SegmentTest, ::testing::Values(1u, 2u, 3u, 4u));

// A construction's order (BlinkInsertion::Order::FarthestFirst): the tasks by their round trip
// from the nearest vehicle start or end, farthest first, recomputed here; with two depots, a
// vehicle that only starts at one of them, tasks sharing a place (ties) and one at a depot.
TEST(FarthestFirst, OrdersTasksByTheRoundTripFromTheNearestDepot) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    auto points = random_points(40, seed);
    points[7] = points[6];  // a tie
    points[9] = points[1];  // a task at the second depot
    auto spec = points_spec(points);
    for (std::size_t i = 2; i < 40; ++i) spec.jobs.push_back(make_job(i, i, 1));
    spec.vehicles.push_back(make_vehicle(1, 0, 100));
    VehicleSpec second = make_vehicle(2, 1, 100);
    second.end.reset();
    spec.vehicles.push_back(second);
    const Built b(spec, 10);
    const auto& problem = b.problem;
    const std::vector<std::size_t>& insertable = b.insertable;
    WorkingSolution ws(b.model, insertable);
    BlinkInsertion::Pass pass;
    std::mt19937_64 rng(seed);
    BlinkInsertion(b.near, b.classes, 0.0)
        .begin(ws, insertable, rng, ws.vehicle_count(), pass, kNone,
               BlinkInsertion::Order::FarthestFirst);
    const TravelView tv = problem->travel(0);
    auto away = [&](std::size_t t) {
      const std::size_t at = problem->task(t).location;
      return std::min(tv.cost(0, at) + tv.cost(at, 0), tv.cost(1, at) + tv.cost(at, 1));
    };
    std::vector<std::size_t> sorted = pass.tasks;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, insertable) << "seed " << seed;
    for (std::size_t k = 1; k < pass.tasks.size(); ++k)
      EXPECT_GE(away(pass.tasks[k - 1]), away(pass.tasks[k]))
          << "seed " << seed << " position " << k;
    EXPECT_EQ(away(pass.tasks.back()), 0) << "seed " << seed;  // the task at a depot comes last
  }
}

// Seeded far out, the construction gives the far tasks to the larger vehicle: on a line, four
// tasks 100 away and four 5 away, demand 10 each, two vehicles of capacity 20 and one of 40.
TEST(FarthestFirst, GivesTheFarTasksToTheLargerVehicle) {
  std::vector<std::pair<double, double>> points{{0, 0}};
  for (double x : {100.0, 101.0, 102.0, 103.0, 5.0, 6.0, 7.0, 8.0}) points.emplace_back(x, 0.0);
  auto spec = points_spec(points);
  for (std::size_t i = 1; i <= 8; ++i) spec.jobs.push_back(make_job(i, i, 10));
  spec.vehicles.push_back(make_vehicle(1, 0, 20));
  spec.vehicles.push_back(make_vehicle(2, 0, 20));
  spec.vehicles.push_back(make_vehicle(3, 0, 40));
  const Built b(spec, 7);
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    WorkingSolution ws(b.model, b.insertable);
    std::mt19937_64 rng(seed);
    BlinkInsertion(b.near, b.classes, 0.0)
        .apply(ws, b.insertable, rng, ws.vehicle_count(), *make_segment_engine(), nullptr,
               BlinkInsertion::Order::FarthestFirst);
    ASSERT_EQ(ws.score().unassigned, 0) << "seed " << seed;
    std::vector<std::size_t> far = ws.tour(2).tasks;
    std::sort(far.begin(), far.end());
    EXPECT_EQ(far, (std::vector<std::size_t>{0, 1, 2, 3})) << "seed " << seed;
    // 2 x 103 out and back with the large vehicle; the near tasks in pairs on the small ones.
    EXPECT_EQ(ws.cost(), 2 * 103 + 2 * 8 + 2 * 6) << "seed " << seed;
  }
}

}  // namespace
}  // namespace routesolve::test
