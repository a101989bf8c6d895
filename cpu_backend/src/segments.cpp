#include "segments.hpp"

#include <algorithm>

namespace routesolve::cpu::detail {

DurationSegment merge_durations(const DurationSegment& a, const DurationSegment& b, Duration travel) {
  const Duration delta = a.duration - a.time_warp + travel;
  const Duration wait = std::max<Duration>(b.earliest - delta - a.latest, 0);
  const Duration warp = std::max<Duration>(a.earliest + delta - b.latest, 0);
  DurationSegment s;
  s.duration = a.duration + b.duration + travel + wait;
  s.time_warp = a.time_warp + b.time_warp + warp;
  s.earliest = std::max(b.earliest - delta, a.earliest) - wait;
  s.latest = std::min(b.latest - delta, a.latest) + warp;
  return s;
}

LoadSegment merge_loads(const LoadSegment& a, const LoadSegment& b, std::size_t dims) {
  LoadSegment s{};
  for (std::size_t d = 0; d < dims; ++d) {
    s.carried[d] = a.carried[d] + b.carried[d];
    s.net[d] = a.net[d] + b.net[d];
    s.peak[d] = std::max(a.peak[d], a.net[d] + b.peak[d]);
  }
  return s;
}

SegmentModel::SegmentModel(const Problem& problem) : problem_(&problem), dims_(problem.dimensions()) {
  supported_ = dims_ <= kMaxSegmentDims;
  const std::size_t nv = problem.vehicles().size();
  for (std::size_t v = 0; v < nv; ++v) {
    travel_.push_back(problem.travel(v));
    const Vehicle& vehicle = problem.vehicle(v);
    if (!vehicle.breaks.empty()) exact_ = false;
    RouteSegment s;
    s.load = LoadSegment{};
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
    s.time.duration = task.setup + task.service;
    s.time.earliest = task.time_windows.front().start;
    s.time.latest = task.time_windows.back().end;
    for (std::size_t d = 0; d < std::min(dims_, kMaxSegmentDims); ++d) {
      const std::int64_t delivery = d < task.delivery.size() ? task.delivery[d] : 0;
      const std::int64_t pickup = d < task.pickup.size() ? task.pickup[d] : 0;
      // Job deliveries ride from the start; shipment halves only change the load where they are.
      s.load.carried[d] = task.type == TaskType::Job ? delivery : 0;
      s.load.net[d] = pickup - delivery;
      s.load.peak[d] = std::max<std::int64_t>(0, pickup - delivery);
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
  s.time = merge_durations(a.time, b.time, t);
  for (std::size_t d = 0; d < dims_; ++d) {
    s.load.carried[d] = a.load.carried[d] + b.load.carried[d];
    s.load.net[d] = a.load.net[d] + b.load.net[d];
    s.load.peak[d] = std::max(a.load.peak[d], a.load.net[d] + b.load.peak[d]);
  }
  return s;
}

std::int64_t SegmentModel::load_excess(std::size_t v, const RouteSegment& route) const {
  const Amount& capacity = problem_->vehicle(v).capacity;
  std::int64_t excess = 0;
  for (std::size_t d = 0; d < dims_; ++d)
    excess += std::max<std::int64_t>(0, route.load.carried[d] + route.load.peak[d] - capacity[d]);
  return excess;
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
  for (std::size_t d = 0; d < dims_; ++d) {
    const std::int64_t carried = a.load.carried[d] + b.load.carried[d] + c.load.carried[d];
    const std::int64_t peak_bc = std::max(b.load.peak[d], b.load.net[d] + c.load.peak[d]);
    const std::int64_t peak = std::max(a.load.peak[d], a.load.net[d] + peak_bc);
    if (carried + peak > vehicle.capacity[d]) return false;
  }
  return merge_durations(merge_durations(a.time, b.time, t1), c.time, t2).time_warp == 0;
}

Cost SegmentModel::penalised_cost(std::size_t v, const RouteSegment& route, Cost load_weight,
                                  Cost time_weight) const {
  return route.cost + load_weight * load_excess(v, route) + time_weight * time_excess(v, route);
}

}  // namespace routesolve::cpu::detail
