#include "segments.hpp"

#include <algorithm>

namespace routesolve::cpu::detail {

SegmentModel::SegmentModel(const Problem& problem) : problem_(&problem), dims_(problem.dimensions()) {
  supported_ = dims_ <= kMaxDims;
  const std::size_t nv = problem.vehicles().size();
  for (std::size_t v = 0; v < nv; ++v) {
    travel_.push_back(problem.travel(v));
    const Vehicle& vehicle = problem.vehicle(v);
    if (!vehicle.breaks.empty()) exact_ = false;
    RouteSegment s;
    s.load = empty_load();
    s.time.earliest = vehicle.time_window.start;
    s.time.latest = vehicle.time_window.end;
    s.first = s.last = vehicle.start;
    starts_.push_back(s);
    s.first = s.last = vehicle.end;
    ends_.push_back(s);
  }
  tasks_.resize(problem.tasks().size());
  for (std::size_t t = 0; t < problem.tasks().size(); ++t) {
    const Task& task = problem.task(t);
    if (task.setup != 0 || task.time_windows.size() > 1) exact_ = false;
    RouteSegment& s = tasks_[t];
    s.first = s.last = task.location;
    s.tasks = 1;
    s.time = visit_duration(task.setup + task.service, task.time_windows.front().start,
                            task.time_windows.back().end);
    s.load = empty_load();
    for (std::size_t d = 0; d < std::min(dims_, kMaxDims); ++d) {
      const std::int64_t delivery = d < task.delivery.size() ? task.delivery[d] : 0;
      const std::int64_t pickup = d < task.pickup.size() ? task.pickup[d] : 0;
      s.load.set(d, visit_load(delivery, pickup, task.type == TaskType::Job));
    }
  }
}

RouteSegment SegmentModel::merge(std::size_t v, const RouteSegment& a, const RouteSegment& b) const {
  const TravelView& tv = travel_[v];
  RouteSegment s;
  s.first = a.first != kNone || a.tasks > 0 ? a.first : b.first;
  s.last = b.last != kNone || b.tasks > 0 ? b.last : a.last;
  s.tasks = a.tasks + b.tasks;
  s.cost = a.cost + b.cost;
  s.travel = a.travel + b.travel;
  s.distance = a.distance + b.distance;
  s.unreachable = a.unreachable || b.unreachable;
  Duration t = 0;
  if (a.last != kNone && b.first != kNone) {
    const std::int64_t c = tv.cost(a.last, b.first);
    t = tv.duration(a.last, b.first);
    if (t >= kUnreachable || c >= kUnreachable) {
      s.unreachable = true;
      t = 0;
    } else {
      s.cost += c;
      s.travel += t;
      s.distance += tv.distances ? tv.distance(a.last, b.first) : 0;
    }
  }
  s.time = routesolve::merge(a.time, b.time, t);
  s.load = routesolve::merge(a.load, b.load, dims_);
  return s;
}

std::int64_t SegmentModel::load_excess(std::size_t v, const RouteSegment& route) const {
  return routesolve::load_excess(route.load, problem_->vehicle(v).capacity.values().data(), dims_);
}

Duration SegmentModel::time_excess(std::size_t v, const RouteSegment& route) const {
  const Vehicle& vehicle = problem_->vehicle(v);
  return route.time.time_warp + std::max<Duration>(0, route.travel - vehicle.max_travel_time);
}

bool SegmentModel::feasible(std::size_t v, const RouteSegment& route) const {
  const Vehicle& vehicle = problem_->vehicle(v);
  if (route.unreachable || route.time.time_warp > 0) return false;
  if (vehicle.max_tasks != kNone && route.tasks > vehicle.max_tasks) return false;
  if (route.travel > vehicle.max_travel_time || route.distance > vehicle.max_distance) return false;
  return load_excess(v, route) == 0;
}

bool SegmentModel::feasible(std::size_t v, const RouteSegment& a, const RouteSegment& b, const RouteSegment& c) const {
  if (a.unreachable || b.unreachable || c.unreachable) return false;
  const Vehicle& vehicle = problem_->vehicle(v);
  if (vehicle.max_tasks != kNone && a.tasks + b.tasks + c.tasks > vehicle.max_tasks) return false;
  const TravelView& tv = travel_[v];
  // The two joining arcs, as merge() finds them: (a + b) ends where b ends unless b is empty.
  Duration t1 = 0, t2 = 0;
  Distance d1 = 0, d2 = 0;
  const std::size_t ab_last = b.last != kNone || b.tasks > 0 ? b.last : a.last;
  if (a.last != kNone && b.first != kNone) {
    t1 = tv.duration(a.last, b.first);
    if (t1 >= kUnreachable || tv.cost(a.last, b.first) >= kUnreachable) return false;
    d1 = tv.distances ? tv.distance(a.last, b.first) : 0;
  }
  if (ab_last != kNone && c.first != kNone) {
    t2 = tv.duration(ab_last, c.first);
    if (t2 >= kUnreachable || tv.cost(ab_last, c.first) >= kUnreachable) return false;
    d2 = tv.distances ? tv.distance(ab_last, c.first) : 0;
  }
  if (a.travel + b.travel + c.travel + t1 + t2 > vehicle.max_travel_time) return false;
  if (a.distance + b.distance + c.distance + d1 + d2 > vehicle.max_distance) return false;
  if (!fits(a.load, b.load, c.load, vehicle.capacity.values().data(), dims_)) return false;
  return routesolve::merge(routesolve::merge(a.time, b.time, t1), c.time, t2).time_warp == 0;
}

Cost SegmentModel::penalised_cost(std::size_t v, const RouteSegment& route, Cost load_weight,
                                  Cost time_weight) const {
  return route.cost + load_weight * load_excess(v, route) + time_weight * time_excess(v, route);
}

}  // namespace routesolve::cpu::detail
