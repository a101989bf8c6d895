// schedule_route against a brute force on random small instances: every placement of the
// breaks is tried with a plain, independent simulation; the best end time must match, and the
// schedule returned must match the independent simulation of its own order.

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <random>

#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"
#include "routesolve/validator.hpp"
#include "spec_builders.hpp"

namespace routesolve {
namespace {

struct Sim {
  bool feasible = false;
  Duration end = 0;
  std::vector<Duration> arrivals;  // per task, in order
};

/// Plain simulation: tasks in order, `at[i]` breaks taken after i tasks.
Sim simulate(const Problem& p, std::size_t v, const std::vector<std::size_t>& tasks,
             const std::vector<int>& at) {
  Sim out;
  const Vehicle& veh = p.vehicle(v);
  const TravelView tv = p.travel(v);
  // Static constraints.
  Amount load(p.dimensions());
  for (std::size_t t : tasks)
    if (p.task(t).type == TaskType::Job) load += p.task(t).delivery;
  std::vector<Amount> loads{load};
  if (!load.fits_in(veh.capacity)) return out;
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const Task& t = p.task(tasks[i]);
    if (!p.compatible(v, tasks[i])) return out;
    if (t.sibling != kNone) {
      const auto j = std::find(tasks.begin(), tasks.end(), t.sibling) - tasks.begin();
      if (j == static_cast<long>(tasks.size())) return out;
      if (t.type == TaskType::Pickup && j < static_cast<long>(i)) return out;
    }
    load = load - t.delivery + t.pickup;
    if (!load.fits_in(veh.capacity)) return out;
    loads.push_back(load);
  }
  if (veh.max_tasks != kNone && tasks.size() > veh.max_tasks) return out;

  Duration time = veh.time_window.start, travel = 0;
  Distance dist = 0;
  std::size_t loc = veh.start, next_break = 0;
  auto window = [](const std::vector<TimeWindow>& ws, Duration t) -> std::optional<Duration> {
    for (const auto& w : ws)
      if (t <= w.end) return std::max(t, w.start);
    return std::nullopt;
  };
  for (std::size_t i = 0; i <= tasks.size(); ++i) {
    // The leg towards task i (or the end): breaks on it are taken en route, VROOM's model.
    const std::size_t to = i < tasks.size() ? p.task(tasks[i]).location : veh.end;
    Duration left = 0;
    if (loc != kNone && to != kNone) {
      if (tv.duration(loc, to) >= kUnreachable) return out;
      left = tv.duration(loc, to);
      travel += left;
      dist += tv.distance(loc, to);
    }
    for (int k = 0; k < at[i]; ++k, ++next_break) {
      const Break& b = veh.breaks[next_break];
      if (b.max_load && !loads[i].fits_in(*b.max_load)) return out;
      const auto begin = window(b.time_windows, time);
      if (!begin) return out;
      const Duration drive = std::min(*begin - time, left);  // towards the next stop
      left -= drive;
      time = *begin + b.service;
    }
    time += left;
    if (i == tasks.size()) break;
    const Task& t = p.task(tasks[i]);
    out.arrivals.push_back(time);
    const auto begin = window(t.time_windows, time);
    if (!begin) return out;
    time = *begin + (loc == t.location ? 0 : t.setup) + t.service;
    loc = t.location;
  }
  if (time > veh.time_window.end || travel > veh.max_travel_time || dist > veh.max_distance)
    return out;
  out.feasible = true;
  out.end = time;
  return out;
}

/// Every way to spread `breaks` breaks over n + 1 gaps.
void placements(std::size_t gaps, int breaks, std::vector<int>& cur,
                std::vector<std::vector<int>>& all) {
  if (cur.size() + 1 == gaps) {
    cur.push_back(breaks);
    all.push_back(cur);
    cur.pop_back();
    return;
  }
  for (int k = 0; k <= breaks; ++k) {
    cur.push_back(k);
    placements(gaps, breaks - k, cur, all);
    cur.pop_back();
  }
}

ProblemSpec random_spec(std::mt19937_64& rng) {
  auto uni = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  const std::size_t n_loc = static_cast<std::size_t>(uni(2, 6));
  ProblemSpec spec;
  std::vector<std::pair<std::int64_t, std::int64_t>> pts;
  for (std::size_t i = 0; i < n_loc; ++i) pts.emplace_back(uni(0, 50), uni(0, 50));
  Matrix dur(n_loc), dist(n_loc);
  for (std::size_t i = 0; i < n_loc; ++i)
    for (std::size_t j = 0; j < n_loc; ++j) {
      const auto d =
          std::abs(pts[i].first - pts[j].first) + std::abs(pts[i].second - pts[j].second);
      dur(i, j) = i == j ? 0 : d + uni(0, 3);  // slightly asymmetric
      dist(i, j) = 10 * d;
    }
  spec.matrices["car"] = ProfileMatrices{dur, dist, std::nullopt};

  const std::size_t n_jobs = static_cast<std::size_t>(uni(1, 5));
  for (std::size_t j = 0; j < n_jobs; ++j) {
    JobSpec job = test::job(
        j + 1, static_cast<std::size_t>(uni(0, static_cast<std::int64_t>(n_loc) - 1)), uni(0, 10));
    job.setup = uni(0, 5);
    job.delivery = {uni(0, 4)};
    job.pickup = {uni(0, 4)};
    const auto windows = uni(0, 2);
    for (int w = 0; w < windows; ++w) {
      const auto s = uni(0, 200);
      job.time_windows.push_back({s, s + uni(0, 60)});
    }
    spec.jobs.push_back(job);
  }
  if (uni(0, 1)) spec.shipments.push_back(test::shipment(1, 0, n_loc - 1, {uni(1, 4)}));

  const bool has_start = uni(0, 3) != 0;
  const bool has_end = !has_start || uni(0, 2) != 0;
  VehicleSpec v = test::vehicle(
      1, has_start ? std::optional<std::size_t>(0) : std::nullopt,
      has_end ? std::optional<std::size_t>(uni(0, static_cast<std::int64_t>(n_loc) - 1))
              : std::nullopt);
  v.capacity = {uni(6, 15)};
  v.time_window = {uni(0, 20), uni(150, 400)};
  const auto n_breaks = uni(0, 3);
  for (int b = 0; b < n_breaks; ++b) {
    BreakSpec br = test::break_spec(static_cast<Id>(b + 1), uni(0, 20));
    const auto windows = uni(0, 2);
    for (int w = 0; w < windows; ++w) {
      const auto s = uni(0, 250);
      br.time_windows.push_back({s, s + uni(0, 50)});
    }
    if (uni(0, 2) == 0) br.max_load = Amount{uni(0, 10)};
    v.breaks.push_back(br);
  }
  if (uni(0, 4) == 0) v.max_tasks = static_cast<std::size_t>(uni(1, 5));
  if (uni(0, 4) == 0) v.max_travel_time = uni(20, 200);
  if (uni(0, 4) == 0) v.max_distance = uni(200, 2000);
  spec.vehicles.push_back(v);
  return spec;
}

TEST(ScheduleRandom, MatchesBruteForceOverBreakPlacements) {
  std::mt19937_64 rng(12345);
  int feasible = 0, with_breaks = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    const auto p = Problem::create(random_spec(rng));
    std::vector<std::size_t> tasks(p->tasks().size());
    for (std::size_t i = 0; i < tasks.size(); ++i) tasks[i] = i;
    std::shuffle(tasks.begin(), tasks.end(), rng);
    tasks.resize(std::uniform_int_distribution<std::size_t>(0, tasks.size())(rng));

    const std::size_t n_breaks = p->vehicle(0).breaks.size();
    std::vector<std::vector<int>> all;
    std::vector<int> cur;
    placements(tasks.size() + 1, static_cast<int>(n_breaks), cur, all);
    std::optional<Duration> best;
    for (const auto& at : all) {
      const Sim s = simulate(*p, 0, tasks, at);
      if (s.feasible && (!best || s.end < *best)) best = s.end;
    }

    const ScheduleResult r = schedule_route(*p, 0, tasks);
    EXPECT_EQ(route_feasible(*p, 0, tasks), best.has_value() || tasks.empty())
        << "iteration " << iter;
    if (tasks.empty()) {
      EXPECT_TRUE(r.feasible);
      continue;
    }
    ASSERT_EQ(r.feasible, best.has_value()) << "iteration " << iter;
    if (!r.feasible) {
      EXPECT_TRUE(r.violation.has_value());
      continue;
    }
    ++feasible;
    with_breaks += n_breaks > 0;

    // Its own order, re-simulated independently, gives the same figures.
    std::vector<int> at(tasks.size() + 1, 0);
    std::vector<std::size_t> order;
    std::size_t done = 0;
    for (const Step& st : r.route.steps) {
      if (st.type == StepType::Break) ++at[done];
      if (st.task != kNone) {
        order.push_back(st.task);
        ++done;
      }
    }
    ASSERT_EQ(order, tasks);
    const Sim own = simulate(*p, 0, tasks, at);
    ASSERT_TRUE(own.feasible) << "iteration " << iter;
    const Step& last = r.route.steps.back();
    const Duration end = last.type == StepType::End
                             ? last.arrival
                             : last.arrival + last.waiting_time + last.setup + last.service;
    EXPECT_EQ(end, *best) << "iteration " << iter;
    EXPECT_EQ(end, own.end) << "iteration " << iter;
    std::vector<Duration> arrivals;
    for (const Step& st : r.route.steps)
      if (st.task != kNone) arrivals.push_back(st.arrival);
    EXPECT_EQ(arrivals, own.arrivals) << "iteration " << iter;

    // schedule_plan on the returned visits reproduces the route.
    RoutePlan plan;
    std::size_t next_break = 0;
    for (const Step& st : r.route.steps) {
      if (st.type == StepType::Break)
        plan.visits.push_back({true, next_break++});
      else if (st.task != kNone)
        plan.visits.push_back({false, st.task});
    }
    const ScheduleResult again = schedule_plan(*p, plan);
    ASSERT_TRUE(again.feasible);
    EXPECT_EQ(again.route.cost, r.route.cost);
    EXPECT_EQ(again.route.steps.size(), r.route.steps.size());
  }
  EXPECT_GT(feasible, 200);
  EXPECT_GT(with_breaks, 100);
}

// VROOM's timeline against the independent simulation: the same breaks, end, travel, distance
// and cost as the earliest schedule; leaving at its departure reproduces its arrivals and end;
// leaving one unit later ends later or fails (so its departure is the latest one); it waits no
// more; and the validator accepts it as reported.
TEST(ScheduleRandom, VroomTimelineLeavesAsLateAsTheEarliestEndAllows) {
  std::mt19937_64 rng(777);
  int later = 0, checked = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    const ProblemSpec spec = random_spec(rng);
    const auto p = Problem::create(spec);
    std::vector<std::size_t> tasks(p->tasks().size());
    for (std::size_t i = 0; i < tasks.size(); ++i) tasks[i] = i;
    std::shuffle(tasks.begin(), tasks.end(), rng);
    tasks.resize(std::uniform_int_distribution<std::size_t>(1, tasks.size())(rng));
    const ScheduleResult e = schedule_route(*p, 0, tasks, Timeline::Earliest);
    const ScheduleResult v = schedule_route(*p, 0, tasks, Timeline::Vroom);
    ASSERT_EQ(e.feasible, v.feasible) << "iteration " << iter;
    if (!v.feasible) continue;
    ++checked;
    const Route& ve = v.route;
    ASSERT_EQ(ve.steps.size(), e.route.steps.size());
    std::vector<int> at(tasks.size() + 1, 0);
    std::size_t done = 0;
    for (std::size_t k = 0; k < ve.steps.size(); ++k) {
      ASSERT_EQ(ve.steps[k].type, e.route.steps[k].type) << "iteration " << iter;
      if (ve.steps[k].type == StepType::Break) ++at[done];
      if (ve.steps[k].task != kNone) ++done;
    }
    auto end_of = [](const Route& r) {
      const Step& last = r.steps.back();
      return last.type == StepType::End
                 ? last.arrival
                 : last.arrival + last.waiting_time + last.setup + last.service;
    };
    EXPECT_EQ(end_of(ve), end_of(e.route)) << "iteration " << iter;
    EXPECT_EQ(ve.cost, e.route.cost);
    EXPECT_EQ(ve.duration, e.route.duration);
    EXPECT_EQ(ve.distance, e.route.distance);
    EXPECT_LE(ve.waiting_time, e.route.waiting_time) << "iteration " << iter;
    const Duration depart = ve.steps.front().arrival;
    EXPECT_GE(depart, e.route.steps.front().arrival);
    later += depart > e.route.steps.front().arrival;

    ProblemSpec leaving = spec;
    leaving.vehicles[0].time_window.start = depart;
    const Sim own = simulate(*Problem::create(leaving), 0, tasks, at);
    ASSERT_TRUE(own.feasible) << "iteration " << iter;
    EXPECT_EQ(own.end, end_of(ve)) << "iteration " << iter;
    std::vector<Duration> arrivals;
    for (const Step& st : ve.steps)
      if (st.task != kNone) arrivals.push_back(st.arrival);
    EXPECT_EQ(arrivals, own.arrivals) << "iteration " << iter;
    if (depart < leaving.vehicles[0].time_window.end) {
      leaving.vehicles[0].time_window.start = depart + 1;
      const Sim late = simulate(*Problem::create(leaving), 0, tasks, at);
      EXPECT_TRUE(!late.feasible || late.end > own.end) << "iteration " << iter;
    }
    std::vector<Unassigned> left;
    for (std::size_t t = 0; t < p->tasks().size(); ++t)
      if (std::find(tasks.begin(), tasks.end(), t) == tasks.end())
        left.push_back({t, 0, TaskType::Job, UnassignedReason::NotRouted});
    const ValidationReport report = validate(*p, make_solution(*p, {ve}, left));
    EXPECT_TRUE(report.ok()) << "iteration " << iter << "\n" << report.to_text();
  }
  EXPECT_GT(checked, 500);
  EXPECT_GT(later, 100);
}

}  // namespace
}  // namespace routesolve
