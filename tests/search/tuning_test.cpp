// Which parameters each kind of instance gets (search/src/tuning.cpp): a change of the tuning
// shows here as a changed row, next to the runs in docs/EXPERIMENTS.md that justify it.

#include "routesolve/search/tuning.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace routesolve::search {
namespace {

struct Expected {
  std::string kind;
  InstanceTraits traits;
  Construction construction;
  std::size_t time_partners;
  double heat;  // start temperature in visits
  double short_budget_per_task;
  double hot_end_per_task;
  double descent_spacing;
  double every_step_from;
  double early_descent_from;
  double early_descent_per_task;
  bool around_every_step;  // the descent around each step, intra-route moves included
  bool local_descent;      // the descent around the step of a new best
  std::size_t max_swap;
};

const std::vector<Expected>& kinds() {
  static const std::vector<Expected> rows = {
      // kind, (tasks, windows, shipments), construction, partners, heat, short, hot, spacing,
      // every, early,
      // pace, around, local, swap
      {"CVRP, 100 (X-n101)",
       {100, false, false},
       Construction::Regret,
       0,
       1.0,
       250.0,
       0.0,
       0.0,
       0.9,
       0.5,
       1.0,
       false,
       false,
       2},
      {"CVRP, 500",
       {500, false, false},
       Construction::Regret,
       0,
       1.0,
       250.0,
       0.0,
       0.0,
       1.0,
       0.5,
       1.0,
       false,
       false,
       2},
      {"CVRP, 1,000",
       {1000, false, false},
       Construction::Regret,
       0,
       1.0,
       250.0,
       0.0,
       0.0,
       1.0,
       1.0,
       0.0,
       true,
       false,
       2},
      {"CVRP, 3,000 (XXL Leuven1)",
       {3000, false, false},
       Construction::NearestTours,
       0,
       1.0,
       300.0,
       0.0,
       0.0,
       1.0,
       1.0,
       0.0,
       true,
       false,
       2},
      {"CVRP, 30,000 (XXL Flanders2)",
       {30000, false, false},
       Construction::NearestTours,
       0,
       1.0,
       3000.0,
       0.0,
       0.0,
       1.0,
       1.0,
       0.0,
       true,
       false,
       2},
      {"VRPTW, 100 (Solomon)",
       {100, true, false},
       Construction::Regret,
       5,
       3.0,
       0.0,
       3000.0,
       0.05,
       0.9,
       0.5,
       2000.0,
       false,
       false,
       1},
      {"VRPTW, 1,000 (Gehring & Homberger)",
       {1000, true, false},
       Construction::Regret,
       5,
       3.0,
       0.0,
       3000.0,
       0.05,
       1.0,
       1.0,
       0.0,
       false,
       false,
       1},
      {"PDPTW, 50 pairs (Li & Lim)",
       {50, true, true},
       Construction::Regret,
       5,
       3.0,
       0.0,
       3000.0,
       0.05,
       0.9,
       1.0,
       0.0,
       false,
       false,
       1},
      {"fleet, 500 x 50 with windows",
       {500, true, false},
       Construction::Regret,
       5,
       3.0,
       0.0,
       3000.0,
       0.05,
       1.0,
       0.5,
       2000.0,
       false,
       false,
       1},
      {"fleet, 5,000 x 500 with windows",
       {5000, true, false},
       Construction::NearestTours,
       5,
       3.0,
       0.0,
       3000.0,
       0.05,
       1.0,
       1.0,
       0.0,
       false,
       true,
       1},
      {"pickups and deliveries, 3,000 pairs, no windows",
       {3000, false, true},
       Construction::NearestTours,
       0,
       1.0,
       300.0,
       0.0,
       0.0,
       1.0,
       1.0,
       0.0,
       false,
       true,
       2},
  };
  return rows;
}

TEST(Tuning, EachKindOfInstanceGetsItsParameters) {
  constexpr double visit = 40.0;
  for (const Expected& e : kinds()) {
    SCOPED_TRACE(e.kind);
    EXPECT_EQ(construction_for(e.traits), e.construction);
    EXPECT_EQ(time_partners_for(e.traits), e.time_partners);
    const AnnealingSearch::Parameters p = search_parameters(e.traits, visit);
    EXPECT_DOUBLE_EQ(p.start_temperature, e.heat * visit);
    EXPECT_DOUBLE_EQ(p.end_temperature, 0.001 * e.heat * visit);
    EXPECT_DOUBLE_EQ(p.short_budget_per_task, e.short_budget_per_task);
    EXPECT_DOUBLE_EQ(p.hot_end_per_task, e.hot_end_per_task);
    if (e.hot_end_per_task > 0.0) {
      EXPECT_DOUBLE_EQ(p.hot_end_max, 10.0);
    }
    EXPECT_DOUBLE_EQ(p.descent_spacing, e.descent_spacing);
    EXPECT_DOUBLE_EQ(p.descent_every_step_from, e.every_step_from);
    EXPECT_DOUBLE_EQ(p.early_descent_from, e.early_descent_from);
    EXPECT_DOUBLE_EQ(p.early_descent_per_task, e.early_descent_per_task);
    EXPECT_EQ(p.descent_around_every_step, e.around_every_step);
    EXPECT_EQ(p.granular.intra_route, e.around_every_step);
    EXPECT_EQ(p.local_descent_on_new_best, e.local_descent);
    EXPECT_EQ(p.granular.max_swap, e.max_swap);
    // The same for every kind.
    EXPECT_DOUBLE_EQ(p.cycle_per_task, 10000.0);
    EXPECT_DOUBLE_EQ(p.restart_temperature, 0.3 / e.heat);
    EXPECT_EQ(p.elite_pool, 4u);
    EXPECT_DOUBLE_EQ(p.stagnation, 0.2);
    EXPECT_DOUBLE_EQ(p.stagnation_per_task, 2000.0);
    EXPECT_DOUBLE_EQ(p.open_route, 0.2);
    EXPECT_DOUBLE_EQ(p.open_route_min_length, 15.0);
    EXPECT_DOUBLE_EQ(p.blink_rate, 0.01);
    EXPECT_EQ(p.recreate_tours, 24u);
    EXPECT_EQ(p.granular.neighbours, 20u);
    EXPECT_TRUE(p.descent);
    EXPECT_TRUE(p.early_reject);
    EXPECT_EQ(p.partners, nullptr);  // the driver points it at the lists it builds
  }
}

TEST(Tuning, TemperaturesKeepTheirFloorsWhenVisitsCostNothing) {
  const AnnealingSearch::Parameters p = search_parameters({100, false, false}, 0.0);
  EXPECT_DOUBLE_EQ(p.start_temperature, 1e-3);
  EXPECT_DOUBLE_EQ(p.end_temperature, 1e-4);
}

TEST(Tuning, TheBoundariesOfTheSizeRulesAreInclusive) {
  // The rules read "up to N tasks": N is inside, N + 1 outside.
  EXPECT_EQ(construction_for({1500, false, false}), Construction::Regret);
  EXPECT_EQ(construction_for({1501, false, false}), Construction::NearestTours);
  EXPECT_DOUBLE_EQ(search_parameters({300, false, false}, 1.0).descent_every_step_from, 0.9);
  EXPECT_DOUBLE_EQ(search_parameters({301, false, false}, 1.0).descent_every_step_from, 1.0);
  EXPECT_DOUBLE_EQ(search_parameters({600, false, false}, 1.0).early_descent_from, 0.5);
  EXPECT_DOUBLE_EQ(search_parameters({601, false, false}, 1.0).early_descent_from, 1.0);
  EXPECT_FALSE(search_parameters({600, false, false}, 1.0).descent_around_every_step);
  EXPECT_TRUE(search_parameters({601, false, false}, 1.0).descent_around_every_step);
  EXPECT_FALSE(search_parameters({601, true, false}, 1.0).descent_around_every_step);  // windows
  EXPECT_FALSE(search_parameters({601, false, true}, 1.0).descent_around_every_step);  // shipments
  EXPECT_FALSE(search_parameters({2000, true, false}, 1.0).local_descent_on_new_best);
  EXPECT_TRUE(search_parameters({2001, true, false}, 1.0).local_descent_on_new_best);
  EXPECT_DOUBLE_EQ(search_parameters({2500, false, false}, 1.0).short_budget_per_task, 250.0);
  EXPECT_DOUBLE_EQ(search_parameters({2510, false, false}, 1.0).short_budget_per_task, 251.0);
}

TEST(Tuning, DeviceChainsFollowTheSizeUpToFourPerMultiprocessor) {
  EXPECT_EQ(device_chains(100, 1, 132), 4u);       // one per 25 tasks
  EXPECT_EQ(device_chains(10, 1, 132), 1u);        // never none
  EXPECT_EQ(device_chains(10, 8, 132), 8u);        // never fewer than the threads
  EXPECT_EQ(device_chains(100000, 1, 132), 528u);  // 4 per multiprocessor at most
  EXPECT_EQ(device_chains(100000, 1, 0), 4u);      // a device that reports none counts as one
}

}  // namespace
}  // namespace routesolve::search
