// Groups of nearby routes and their subproblems (decompose.hpp), with Eigen for the geometry.

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <numbers>
#include <numeric>
#include <string>

#include "routesolve/distributed/decompose.hpp"
#include "routesolve/error.hpp"

namespace routesolve::distributed {
namespace {

/// A task's or a vehicle's place in the plane; the matrix index when it has no coordinates.
Eigen::Vector2d place(const std::optional<Coordinates>& c, std::size_t location) {
  if (c) return {c->lon, c->lat};
  return {static_cast<double>(location), 0.0};
}

/// Balanced contiguous cut of `order` (routes sorted by angle) into `groups` by task count.
std::vector<std::vector<std::size_t>> cut_by_tasks(const std::vector<std::size_t>& order,
                                                   const Plan& plan, std::size_t groups) {
  std::size_t total = 0;
  for (std::size_t v : order) total += plan[v].size();
  std::vector<std::vector<std::size_t>> out(groups);
  std::size_t seen = 0;
  for (std::size_t v : order) {
    const std::size_t g = std::min(groups - 1, total == 0 ? 0 : (seen * groups) / total);
    out[g].push_back(v);
    seen += plan[v].size();
  }
  return out;
}

}  // namespace

std::vector<std::vector<std::size_t>> group_routes(const Problem& problem, const Plan& plan,
                                                   std::size_t groups, unsigned round) {
  groups = std::max<std::size_t>(1, groups);
  std::vector<std::size_t> used, idle;
  for (std::size_t v = 0; v < plan.size(); ++v) (plan[v].empty() ? idle : used).push_back(v);
  groups = std::min(groups, std::max<std::size_t>(1, used.size()));
  // Barycentres of the routes (rows), the centre of the vehicles' starts.
  Eigen::MatrixX2d bary(static_cast<Eigen::Index>(used.size()), 2);
  for (std::size_t r = 0; r < used.size(); ++r) {
    Eigen::Vector2d sum = Eigen::Vector2d::Zero();
    for (std::size_t t : plan[used[r]])
      sum += place(problem.task(t).coords, problem.task(t).location);
    bary.row(static_cast<Eigen::Index>(r)) =
        (sum / static_cast<double>(plan[used[r]].size())).transpose();
  }
  Eigen::Vector2d centre = Eigen::Vector2d::Zero();
  std::size_t starts = 0;
  for (const Vehicle& veh : problem.vehicles()) {
    if (veh.start == kNone) continue;
    centre += place(veh.start_coords, veh.start);
    ++starts;
  }
  if (starts > 0)
    centre /= static_cast<double>(starts);
  else if (!used.empty())
    centre = bary.colwise().mean().transpose();

  std::vector<std::vector<std::size_t>> out;
  if (round % 2 == 0 || groups < 2) {
    // Polar sectors, turned by a fraction of a sector each round so that borders move.
    const double turn = 2.0 * std::numbers::pi / static_cast<double>(groups) *
                        (0.5 * static_cast<double>(round / 2));
    std::vector<double> angle(used.size());
    for (std::size_t r = 0; r < used.size(); ++r) {
      const Eigen::Vector2d d = bary.row(static_cast<Eigen::Index>(r)).transpose() - centre;
      angle[r] =
          std::fmod(std::atan2(d.y(), d.x()) + std::numbers::pi + turn, 2.0 * std::numbers::pi);
    }
    std::vector<std::size_t> order(used.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return angle[a] < angle[b]; });
    for (std::size_t& r : order) r = used[r];
    out = cut_by_tasks(order, plan, groups);
  } else {
    // k-means on the barycentres, seeded with the sectors' centres; a few Lloyd steps.
    const auto sectors = group_routes(problem, plan, groups, round - 1);
    std::map<std::size_t, Eigen::Index> row_of;
    for (std::size_t r = 0; r < used.size(); ++r) row_of[used[r]] = static_cast<Eigen::Index>(r);
    Eigen::MatrixX2d centres(static_cast<Eigen::Index>(groups), 2);
    for (std::size_t g = 0; g < groups; ++g) {
      Eigen::RowVector2d s = Eigen::RowVector2d::Zero();
      for (std::size_t v : sectors[g]) s += bary.row(row_of[v]);
      centres.row(static_cast<Eigen::Index>(g)) =
          s / static_cast<double>(std::max<std::size_t>(1, sectors[g].size()));
    }
    std::vector<std::size_t> label(used.size(), 0);
    for (int step = 0; step < 10; ++step) {
      for (std::size_t r = 0; r < used.size(); ++r) {
        Eigen::Index best = 0;
        (centres.rowwise() - bary.row(static_cast<Eigen::Index>(r)))
            .rowwise()
            .squaredNorm()
            .minCoeff(&best);
        label[r] = static_cast<std::size_t>(best);
      }
      Eigen::MatrixX2d sum = Eigen::MatrixX2d::Zero(static_cast<Eigen::Index>(groups), 2);
      Eigen::VectorXd count = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(groups));
      for (std::size_t r = 0; r < used.size(); ++r) {
        sum.row(static_cast<Eigen::Index>(label[r])) += bary.row(static_cast<Eigen::Index>(r));
        count(static_cast<Eigen::Index>(label[r])) += 1.0;
      }
      for (Eigen::Index g = 0; g < centres.rows(); ++g)
        if (count(g) > 0) centres.row(g) = sum.row(g) / count(g);
    }
    out.assign(groups, {});
    for (std::size_t r = 0; r < used.size(); ++r) out[label[r]].push_back(used[r]);
    std::erase_if(out, [](const auto& g) { return g.empty(); });
  }
  for (std::size_t i = 0; i < idle.size(); ++i) out[i % out.size()].push_back(idle[i]);
  for (auto& g : out) std::sort(g.begin(), g.end());
  return out;
}

Subproblem make_subproblem(const Problem& problem, const Plan& plan,
                           const std::vector<std::size_t>& vehicles,
                           const std::vector<std::size_t>& extra) {
  const ProblemSpec& spec = problem.spec();
  if (spec.matrices.empty())
    throw Error(ErrorCode::Unsupported, "decompose: the problem has no matrices to cut");
  Subproblem out;
  std::vector<std::size_t> tasks;  // jobs and pickups of the group
  for (std::size_t v : vehicles)
    for (std::size_t t : plan[v])
      if (problem.task(t).type != TaskType::Delivery) tasks.push_back(t);
  tasks.insert(tasks.end(), extra.begin(), extra.end());
  std::map<std::size_t, std::size_t> loc;  // location -> sub location (ordered: deterministic)
  auto add = [&](std::size_t l) {
    if (l != kNone) loc.emplace(l, 0);
  };
  for (std::size_t t : tasks) {
    add(problem.task(t).location);
    if (problem.task(t).sibling != kNone) add(problem.task(problem.task(t).sibling).location);
  }
  for (std::size_t v : vehicles) {
    add(problem.vehicle(v).start);
    add(problem.vehicle(v).end);
  }
  std::vector<std::size_t> locations;
  for (auto& [l, sub] : loc) {
    sub = locations.size();
    locations.push_back(l);
  }
  ProblemSpec sub;
  sub.scale = spec.scale;
  sub.planar_coordinates = spec.planar_coordinates;
  sub.name = spec.name;
  sub.source = spec.source;
  std::sort(tasks.begin(), tasks.end());
  for (std::size_t t : tasks) {
    const Task& task = problem.task(t);
    if (task.type == TaskType::Job) {
      JobSpec j = spec.jobs[task.source_index];
      j.location.index = loc.at(task.location);
      sub.jobs.push_back(std::move(j));
    } else {
      ShipmentSpec s = spec.shipments[task.source_index];
      s.pickup.location.index = loc.at(task.location);
      s.delivery.location.index = loc.at(problem.task(task.sibling).location);
      sub.shipments.push_back(std::move(s));
    }
  }
  for (std::size_t v : vehicles) {
    VehicleSpec vs = spec.vehicles[v];
    if (vs.start) vs.start->index = loc.at(problem.vehicle(v).start);
    if (vs.end) vs.end->index = loc.at(problem.vehicle(v).end);
    sub.vehicles.push_back(std::move(vs));
    out.vehicle_of.push_back(v);
  }
  const std::size_t m = locations.size();
  std::map<const void*, Matrix> parts;  // a storage cut once, shared as the full one was
  auto cut = [&](const Matrix& full) {
    if (full.size() == 0) return Matrix();
    if (const auto it = parts.find(full.storage()); it != parts.end()) return it->second;
    Matrix part;
    if (full.computed()) {
      // The group's points stand for its rows and columns: no m x m cells.
      auto points = std::make_shared<PlanarSource>(
          PlanarSource{{}, full.planar()->scale, full.planar()->rounding});
      for (std::size_t l : locations) points->points.push_back(full.planar()->points[l]);
      part = Matrix::from_points(std::move(points));
    } else {
      part = Matrix(m);
      for (std::size_t a = 0; a < m; ++a)
        for (std::size_t b = 0; b < m; ++b) part(a, b) = full(locations[a], locations[b]);
    }
    parts.emplace(full.storage(), part);
    return part;
  };
  for (const auto& [name, pm] : spec.matrices) {
    ProfileMatrices p;
    p.durations = cut(pm.durations);
    p.distances = cut(pm.distances);
    if (pm.costs) p.costs = cut(*pm.costs);
    sub.matrices.emplace(name, std::move(p));
  }
  out.problem = Problem::create(std::move(sub));
  // Sub tasks back to tasks: jobs and shipments keep their order (sorted task indices).
  std::vector<std::size_t> job_task, pickup_task;
  for (std::size_t t : tasks)
    (problem.task(t).type == TaskType::Job ? job_task : pickup_task).push_back(t);
  for (const Task& st : out.problem->tasks()) {
    if (st.type == TaskType::Job)
      out.task_of.push_back(job_task[st.source_index]);
    else if (st.type == TaskType::Pickup)
      out.task_of.push_back(pickup_task[st.source_index]);
    else
      out.task_of.push_back(problem.task(pickup_task[st.source_index]).sibling);
  }
  return out;
}

CheckpointScore plan_score(const Problem& problem, const Plan& plan) {
  CheckpointScore s;
  std::vector<char> routed(problem.tasks().size(), 0);
  for (std::size_t v = 0; v < plan.size(); ++v) {
    if (plan[v].empty()) continue;
    const ScheduleResult r = schedule_route(problem, v, plan[v]);
    if (!r.feasible)
      throw Error(ErrorCode::Internal,
                  "decompose: route of vehicle " + std::to_string(v) + " is infeasible");
    ++s.routes;
    s.cost += r.route.cost;
    for (std::size_t t : plan[v]) routed[t] = 1;
  }
  for (std::size_t t = 0; t < problem.tasks().size(); ++t) {
    if (routed[t] || problem.task(t).type == TaskType::Delivery) continue;
    ++s.unassigned;
    s.priority_lost += problem.task(t).priority;
  }
  return s;
}

Plan plan_of(const Problem& problem, const Solution& solution) {
  Plan plan(problem.vehicles().size());
  for (const Route& r : solution.routes)
    for (const Step& st : r.steps)
      if (st.task != kNone) plan[r.vehicle].push_back(st.task);
  return plan;
}

}  // namespace routesolve::distributed
