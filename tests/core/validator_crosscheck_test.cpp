// Validator against schedule_route / make_solution on random problems: two independent
// implementations of the same rules must agree on which routes are feasible.

#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <random>
#include <vector>

#include "validator_fixture.hpp"

namespace routesolve {
namespace {

using namespace validator_fixture;

// ---- cross-check against schedule_route / make_solution
// -------------------------------------------

ProblemPtr random_problem(std::mt19937_64& rng) {
  auto uni = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  const auto n = static_cast<std::size_t>(uni(5, 9));
  const auto dims = static_cast<std::size_t>(uni(1, 2));
  ProblemSpec spec;
  ProfileMatrices m;
  m.durations = Matrix(n);
  m.distances = Matrix(n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      if (i != j) {
        m.durations(i, j) = uni(1, 40);
        m.distances(i, j) = uni(1, 400);
      }
  spec.matrices["car"] = m;
  auto amount = [&](std::int64_t hi) {
    std::vector<std::int64_t> a(dims);
    for (auto& x : a) x = uni(0, hi);
    return Amount(a);
  };
  auto windows = [&]() {
    std::vector<TimeWindow> w;
    if (uni(0, 2) == 0) return w;  // open
    const std::int64_t count = uni(1, 2);
    std::int64_t t = 0;
    for (std::int64_t k = 0; k < count; ++k) {
      const std::int64_t s = t + uni(0, 120);
      const std::int64_t e = s + uni(10, 150);
      w.push_back(TimeWindow{s, e});
      t = e + 1;
    }
    return w;
  };
  const std::int64_t jobs = uni(3, 7);
  for (std::int64_t k = 0; k < jobs; ++k) {
    JobSpec j;
    j.id = static_cast<Id>(1000 + k);
    j.location = at(static_cast<std::size_t>(uni(0, static_cast<std::int64_t>(n) - 1)));
    j.setup = uni(0, 5);
    j.service = uni(0, 10);
    j.delivery = amount(4);
    j.pickup = amount(4);
    j.priority = static_cast<int>(uni(0, 10));
    j.time_windows = windows();
    if (uni(0, 4) == 0) j.skills = {1};
    spec.jobs.push_back(j);
  }
  const std::int64_t shipments = uni(0, 2);
  for (std::int64_t k = 0; k < shipments; ++k) {
    ShipmentSpec s;
    s.pickup.id = static_cast<Id>(2000 + k);
    s.delivery.id = static_cast<Id>(3000 + k);
    s.pickup.location = at(static_cast<std::size_t>(uni(0, static_cast<std::int64_t>(n) - 1)));
    s.delivery.location = at(static_cast<std::size_t>(uni(0, static_cast<std::int64_t>(n) - 1)));
    s.pickup.setup = uni(0, 5);
    s.delivery.setup = uni(0, 5);
    s.pickup.service = uni(0, 10);
    s.delivery.service = uni(0, 10);
    s.pickup.time_windows = windows();
    s.delivery.time_windows = windows();
    s.amount = amount(5);
    s.priority = static_cast<int>(uni(0, 10));
    spec.shipments.push_back(s);
  }
  const std::int64_t vehicles = uni(1, 3);
  for (std::int64_t k = 0; k < vehicles; ++k) {
    VehicleSpec v;
    v.id = static_cast<Id>(k + 1);
    const std::int64_t shape =
        uni(0, 3);  // 0: both, 1: start only, 2: end only, 3: both, different places
    if (shape != 2)
      v.start = at(static_cast<std::size_t>(uni(0, static_cast<std::int64_t>(n) - 1)));
    if (shape != 1) v.end = at(static_cast<std::size_t>(uni(0, static_cast<std::int64_t>(n) - 1)));
    if (shape == 0) v.end = v.start;
    v.capacity = amount(15);
    if (uni(0, 1) == 0) v.skills = {1};
    v.time_window = TimeWindow{uni(0, 30), uni(300, 900)};
    const std::int64_t breaks = uni(0, 2);
    std::int64_t t = 0;
    for (std::int64_t b = 0; b < breaks; ++b) {
      BreakSpec br;
      br.id = static_cast<Id>(50 + b);
      const std::int64_t s = t + uni(0, 150);
      br.time_windows = {TimeWindow{s, s + uni(0, 120)}};
      br.service = uni(0, 15);
      if (uni(0, 2) == 0) br.max_load = amount(10);
      t = s + 100;
      v.breaks.push_back(br);
    }
    if (uni(0, 3) == 0) v.max_tasks = static_cast<std::size_t>(uni(1, 5));
    if (uni(0, 3) == 0) v.max_travel_time = uni(50, 200);
    if (uni(0, 3) == 0) v.max_distance = uni(500, 2000);
    v.costs.fixed = uni(0, 3);
    v.costs.per_hour = uni(1, 2) * 1800;
    v.costs.per_km = uni(0, 2);
    if (uni(0, 3) == 0) v.speed_factor = 2.0;
    spec.vehicles.push_back(v);
  }
  return Problem::create(std::move(spec));
}

/// A figure-free route visiting `tasks` in order (no breaks): what a .sol file would give.
Route bare_route(const Problem& p, std::size_t v, const std::vector<std::size_t>& tasks) {
  Route r;
  r.vehicle = v;
  r.vehicle_id = p.vehicle(v).id;
  const Vehicle& veh = p.vehicle(v);
  if (veh.start != kNone) {
    Step s;
    s.type = StepType::Start;
    s.location = veh.start;
    r.steps.push_back(s);
  }
  for (std::size_t t : tasks) {
    Step s;
    const Task& task = p.task(t);
    s.type = task.type == TaskType::Job      ? StepType::Job
             : task.type == TaskType::Pickup ? StepType::Pickup
                                             : StepType::Delivery;
    s.id = task.id;
    s.task = t;
    s.location = task.location;
    r.steps.push_back(s);
  }
  if (veh.end != kNone) {
    Step s;
    s.type = StepType::End;
    s.location = veh.end;
    r.steps.push_back(s);
  }
  return r;
}

TEST(ValidatorCrossCheck, ScheduledRoutesPassAndRejectionsAgree) {
  int feasible_routes = 0, infeasible_routes = 0, checked_rejections = 0, routes_with_breaks = 0;
  for (std::uint64_t seed = 1; seed <= 2000; ++seed) {
    std::mt19937_64 rng(seed);
    const ProblemPtr problem = random_problem(rng);
    const Problem& p = *problem;
    // Random disjoint task orders, one per vehicle; shipments kept whole most of the time.
    std::vector<std::size_t> order(p.tasks().size());
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<std::vector<std::size_t>> per_vehicle(p.vehicles().size());
    std::vector<char> placed(p.tasks().size(), 0);
    for (std::size_t t : order) {
      if (placed[t] || rng() % 5 == 0) continue;
      const std::size_t v = rng() % p.vehicles().size();
      per_vehicle[v].push_back(t);
      placed[t] = 1;
      const Task& task = p.task(t);
      if (task.sibling != kNone && rng() % 8 != 0 && !placed[task.sibling]) {
        // Put the sibling somewhere after (or, sometimes, before) within the same route.
        auto& seq = per_vehicle[v];
        const std::size_t pos = rng() % (seq.size() + 1);
        seq.insert(seq.begin() + static_cast<long>(pos), task.sibling);
        placed[task.sibling] = 1;
      }
    }

    std::vector<Route> routes;
    std::vector<char> routed(p.tasks().size(), 0);
    for (std::size_t v = 0; v < per_vehicle.size(); ++v) {
      const auto& seq = per_vehicle[v];
      if (seq.empty()) continue;
      const ScheduleResult res = schedule_route(p, v, seq);
      if (res.feasible) {
        ++feasible_routes;
        if (std::any_of(res.route.steps.begin(), res.route.steps.end(),
                        [](const Step& st) { return st.type == StepType::Break; }))
          ++routes_with_breaks;
        routes.push_back(res.route);
        for (std::size_t t : seq) routed[t] = 1;
      } else {
        ++infeasible_routes;
        // Without breaks the earliest schedule is unique: the validator must find a violation.
        if (p.vehicle(v).breaks.empty()) {
          Solution alone;
          alone.routes.push_back(bare_route(p, v, seq));
          ValidateOptions o;
          o.check_figures = false;
          o.require_all_tasks_accounted = false;
          const ValidationReport report = validate(p, alone, o);
          EXPECT_FALSE(report.ok())
              << "seed " << seed << " vehicle " << v
              << ": schedule_route rejects the order but the validator accepts it";
          ++checked_rejections;
        }
      }
    }
    std::vector<Unassigned> unassigned;
    for (std::size_t t = 0; t < p.tasks().size(); ++t)
      if (!routed[t])
        unassigned.push_back(
            Unassigned{t, p.task(t).id, p.task(t).type, UnassignedReason::NotRouted});

    const Solution solution = make_solution(p, routes, unassigned);
    const ValidationReport report = validate(p, solution);
    EXPECT_TRUE(report.ok()) << "seed " << seed << ":\n" << report.to_text();
    const ValidationReport bare = validate(p, solution, figures_off());
    EXPECT_TRUE(bare.ok()) << "seed " << seed << " (figures off):\n" << bare.to_text();
    // Any single wrong figure in a scheduled solution must be caught.
    if (!solution.routes.empty()) {
      const std::size_t r = rng() % solution.routes.size();
      const std::size_t st = rng() % solution.routes[r].steps.size();
      for (int what = 0; what < 6; ++what) {
        Solution broken = solution;
        Route& route = broken.routes[r];
        Step& step = route.steps[st];
        switch (what) {
          case 0:
            step.duration += 1;
            break;
          case 1:
            step.distance += 1;
            break;
          case 2:
            if (step.load.empty()) continue;
            step.load[0] += 1;
            break;
          case 3:
            route.cost += 1;
            break;
          case 4:
            if (route.steps.back().type != StepType::End) continue;
            route.steps.back().arrival += 1;
            break;
          case 5:
            broken.summary.cost -= 1;
            break;
        }
        EXPECT_FALSE(validate(p, broken).ok())
            << "seed " << seed << ": mutation " << what << " of routes[" << r << "].steps[" << st
            << "] went unnoticed";
      }
    }
    if (HasFailure()) break;  // one seed's details are enough to debug
  }
  // The generator must exercise both outcomes.
  EXPECT_GT(feasible_routes, 500);
  EXPECT_GT(infeasible_routes, 500);
  EXPECT_GT(checked_rejections, 200);
  EXPECT_GT(routes_with_breaks, 200);
  std::cout << "[ cross-check ] feasible routes " << feasible_routes << ", infeasible "
            << infeasible_routes << " (validator confirmed " << checked_rejections
            << "), with breaks " << routes_with_breaks << "\n";
}

}  // namespace
}  // namespace routesolve
