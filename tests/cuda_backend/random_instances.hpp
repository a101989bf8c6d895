#pragma once
// Random instances for the tests of the batched insertion engine and the device paths:
// capacities in two dimensions, pickups and deliveries, time windows, setup, service,
// heterogeneous vehicles, open routes, shipments, breaks, priorities; and the routes of a
// solution as two solves that made the same decisions share them.

#include <cmath>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"

namespace routesolve::test {

struct InstanceKind {
  bool shipments = false;
  bool heterogeneous = false;  // several start/end/speed/capacity/skills classes
  bool breaks = false;         // vehicles 0 and 2 take a break (one with a max_load)
  bool priorities = false;     // a third of the jobs and shipments have a priority
};

inline ProblemPtr random_instance(std::uint64_t seed, std::size_t jobs, InstanceKind kind) {
  std::mt19937_64 rng(seed);
  auto uni = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  const std::size_t pairs = kind.shipments ? jobs / 4 : 0;
  const std::size_t locations = 2 + jobs + 2 * pairs;
  std::vector<std::pair<std::int64_t, std::int64_t>> xy(locations);
  for (auto& p : xy) p = {uni(0, 100), uni(0, 100)};
  if (locations > 5) xy[5] = xy[4];  // two jobs at one place: setup is skipped between them
  Matrix dur(locations), dist(locations);
  for (std::size_t i = 0; i < locations; ++i)
    for (std::size_t j = 0; j < locations; ++j) {
      const double dx = static_cast<double>(xy[i].first - xy[j].first);
      const double dy = static_cast<double>(xy[i].second - xy[j].second);
      dist(i, j) = static_cast<std::int64_t>(std::sqrt(dx * dx + dy * dy) * 10.0);
      dur(i, j) = dist(i, j) + (i != j ? uni(0, 5) : 0);  // asymmetric
    }
  ProblemSpec spec;
  spec.matrices["car"] = ProfileMatrices{dur, dist, std::nullopt};
  const std::int64_t horizon = 6000;
  auto window = [&]() {
    const std::int64_t a = uni(0, horizon - 800);
    return TimeWindow{a, a + uni(200, 2500)};
  };
  for (std::size_t j = 0; j < jobs; ++j) {
    JobSpec job;
    job.id = 1 + j;
    job.location.index = 2 + j;
    job.service = uni(0, 30);
    job.setup = uni(0, 2) == 0 ? uni(1, 20) : 0;
    job.delivery = Amount{uni(0, 10), uni(0, 3)};
    job.pickup = Amount{uni(0, 4) == 0 ? uni(0, 10) : 0, 0};
    if (uni(0, 2) != 0) job.time_windows = {window()};
    if (kind.heterogeneous && uni(0, 5) == 0) job.skills = {7};
    if (kind.priorities && uni(0, 2) == 0) job.priority = static_cast<int>(uni(1, 100));
    spec.jobs.push_back(job);
  }
  for (std::size_t s = 0; s < pairs; ++s) {
    ShipmentSpec sh;
    sh.pickup.id = 1000 + s;
    sh.pickup.location.index = 2 + jobs + 2 * s;
    sh.delivery.id = 2000 + s;
    sh.delivery.location.index = 3 + jobs + 2 * s;
    sh.amount = Amount{uni(1, 10), 0};
    sh.pickup.service = uni(0, 20);
    if (uni(0, 1) == 0) sh.delivery.time_windows = {window()};
    if (kind.priorities && uni(0, 2) == 0) sh.priority = static_cast<int>(uni(1, 100));
    spec.shipments.push_back(sh);
  }
  const std::size_t vehicles = 3 + static_cast<std::size_t>(uni(0, 2));
  for (std::size_t v = 0; v < vehicles; ++v) {
    VehicleSpec veh;
    veh.id = 10 + v;
    veh.start = LocationSpec{0, std::nullopt};
    veh.end = LocationSpec{0, std::nullopt};
    veh.capacity = Amount{uni(20, 60), uni(5, 15)};
    veh.time_window = TimeWindow{0, horizon};
    if (kind.heterogeneous) {
      if (v == 1) veh.end.reset();                            // open route
      if (v == 2) veh.start = LocationSpec{1, std::nullopt};  // other depot
      if (v == 3) veh.speed_factor = 1.5;                     // other travel index
      if (v == 0) veh.skills = {7};
      if (v == 1) veh.max_tasks = 5;
      if (v == 2) veh.max_travel_time = 2500;
      veh.costs.fixed = uni(0, 1) * 500;
      veh.costs.per_km = uni(0, 1);
    }
    if (kind.breaks && (v == 0 || v == 2)) {
      BreakSpec br;
      br.id = 100 + v;
      const std::int64_t a = uni(500, 2500);
      br.time_windows = {TimeWindow{a, a + uni(100, 600)}};
      br.service = uni(50, 300);
      if (v == 2) br.max_load = Amount{uni(5, 30), 10};
      veh.breaks.push_back(br);
    }
    spec.vehicles.push_back(veh);
  }
  return Problem::create(std::move(spec));
}

/// (vehicle, task sequence) of every route of a solution: what two solves that made the same
/// decisions share.
inline std::vector<std::pair<std::size_t, std::vector<std::size_t>>> routes_of(const Solution& s) {
  std::vector<std::pair<std::size_t, std::vector<std::size_t>>> out;
  for (const Route& r : s.routes) {
    out.emplace_back(r.vehicle, std::vector<std::size_t>{});
    for (const Step& step : r.steps)
      if (step.type == StepType::Job || step.type == StepType::Pickup ||
          step.type == StepType::Delivery)
        out.back().second.push_back(step.task);
  }
  return out;
}

}  // namespace routesolve::test
