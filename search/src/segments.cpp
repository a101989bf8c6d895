#include "routesolve/search/segments.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace routesolve::search {

namespace {

/// Equal summaries over the first `dims` load dimensions (the only meaningful ones).
bool same_segment(const RouteSegment& a, const RouteSegment& b, std::size_t dims) {
  if (a.first != b.first || a.last != b.last || a.tasks != b.tasks || a.cost != b.cost ||
      a.travel != b.travel || a.distance != b.distance || a.unreachable != b.unreachable ||
      a.time.duration != b.time.duration || a.time.time_warp != b.time.time_warp ||
      a.time.earliest != b.time.earliest || a.time.latest != b.time.latest ||
      a.load.reloads != b.load.reloads)
    return false;
  for (std::size_t d = 0; d < dims && d < kMaxDims; ++d) {
    const LoadProfile x = a.load.dim(d), y = b.load.dim(d);
    if (x.carried != y.carried || x.net != y.net || x.peak != y.peak) return false;
  }
  return true;
}

}  // namespace

SegmentModel::SegmentModel(const Problem& problem)
    : problem_(&problem), dims_(problem.dimensions()) {
  supported_ = dims_ <= kMaxDims;
  const std::size_t nv = problem.vehicles().size();
  std::map<std::tuple<std::size_t, std::size_t, Cost, Duration, Duration>, std::vector<std::size_t>>
      end_index;
  for (std::size_t v = 0; v < nv; ++v) {
    const Vehicle& vehicle = problem.vehicle(v);
    travel_.push_back(problem.travel(v));
    // Distances only matter to the search where they are limited: without max_distance the
    // segments do not read them (one matrix read less per arc; at 5,000 stops on roads the
    // tables do not fit in cache and the pricing waits on memory).
    if (vehicle.max_distance >= kMaxTime) travel_.back().distances = nullptr;
    SegmentLimits limits{vehicle.max_tasks, vehicle.max_travel_time, vehicle.max_distance,
                         vehicle.capacity.values().data()};
    limits.max_reloads = static_cast<std::int64_t>(vehicle.max_trips) - 1;
    limits.max_working_time = vehicle.max_working_time;
    limits.shift_start = vehicle.time_window.start;
    limits_.push_back(limits);
    fixed_costs_.push_back(problem.fixed_cost(v));
    single_trip_.push_back(vehicle.reloads.empty() ? 1 : 0);
    if (!vehicle.breaks.empty()) exact_ = false;
    RouteSegment s;
    s.load = empty_load();
    s.time.earliest = vehicle.time_window.start;
    s.time.latest = vehicle.time_window.end;
    s.first = s.last = vehicle.start;
    const RouteSegment start = s;
    s.first = s.last = vehicle.end;
    // Breaks are left to core's schedule, which places them exactly and which every step the
    // search keeps must pass (AnnealingSearch::touched_tours_feasible): the segments relax them.
    // (Reserving their service before the shift's end refused routes that take a break while
    // they would otherwise wait, VROOM's among them.)
    // Vehicles whose three end segments are equal share them (their values are all the model
    // gives; the travel between tasks is read from each vehicle's own view).
    RouteSegment whole;
    routesolve::merge_into(whole, travel_.back(), dims_, start, s);
    const auto key =
        std::make_tuple(vehicle.start, vehicle.end, whole.cost, whole.travel, whole.time.duration);
    std::vector<std::size_t>& candidates = end_index[key];
    std::size_t found = kNone;
    for (std::size_t at : candidates)
      if (same_segment(ends_[at], start, dims_) && same_segment(ends_[at + 1], whole, dims_) &&
          same_segment(ends_[at + 2], s, dims_))
        found = at;
    if (found == kNone) {
      found = ends_.size();
      candidates.push_back(found);
      ends_.push_back(start);
      ends_.push_back(whole);
      ends_.push_back(s);
    }
    end_of_.push_back(found);
  }
  tasks_.resize(problem.tasks().size());
  for (std::size_t t = 0; t < problem.tasks().size(); ++t) {
    const Task& task = problem.task(t);
    if (task.setup != 0 || task.time_windows.size() > 1) exact_ = false;
    if (!task.time_windows.empty() &&
        (task.time_windows.front().start > 0 || task.time_windows.back().end < kMaxTime))
      windowed_ = true;
    RouteSegment& s = tasks_[t];
    s.first = s.last = task.location;
    if (task.type == TaskType::Reload) {  // not a task for max_tasks; a load reset
      s.time = visit_duration(task.service, 0, kMaxTime);
      s.load = reload_load();
      continue;
    }
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

RouteSegment SegmentModel::merge(std::size_t v, const RouteSegment& a,
                                 const RouteSegment& b) const {
  return routesolve::merge(travel_[v], dims_, a, b);
}

std::int64_t SegmentModel::load_excess(std::size_t v, const RouteSegment& route) const {
  return routesolve::load_excess(route.load, problem_->vehicle(v).capacity.values().data(), dims_);
}

Duration SegmentModel::time_excess(std::size_t v, const RouteSegment& route) const {
  const Vehicle& vehicle = problem_->vehicle(v);
  Duration excess =
      route.time.time_warp + std::max<Duration>(0, route.travel - vehicle.max_travel_time);
  if (vehicle.max_working_time < kMaxTime)
    excess += std::max<Duration>(
        0, working_time(route.time, vehicle.time_window.start) - vehicle.max_working_time);
  return excess;
}

bool SegmentModel::feasible(std::size_t v, const RouteSegment& route) const {
  const Vehicle& vehicle = problem_->vehicle(v);
  if (route.unreachable || route.time.time_warp > 0) return false;
  if (vehicle.max_tasks != kNone && route.tasks > vehicle.max_tasks) return false;
  if (route.travel > vehicle.max_travel_time || route.distance > vehicle.max_distance) return false;
  if (route.load.reloads > limits_[v].max_reloads) return false;
  if (vehicle.max_working_time < kMaxTime &&
      working_time(route.time, vehicle.time_window.start) > vehicle.max_working_time)
    return false;
  return load_excess(v, route) == 0;
}

bool SegmentModel::feasible(std::size_t v, const RouteSegment& a, const RouteSegment& b,
                            const RouteSegment& c) const {
  return routesolve::feasible(travel_[v], limits_[v], dims_, a, b, c);
}

Cost SegmentModel::penalised_cost(std::size_t v, const RouteSegment& route, Cost load_weight,
                                  Cost time_weight) const {
  return route.cost + load_weight * load_excess(v, route) + time_weight * time_excess(v, route);
}

}  // namespace routesolve::search
