#include "routesolve/search/search_state.hpp"

#include <algorithm>

namespace routesolve::search {

void add_amount(Amount& a, const Amount& b) {
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) a[i] += b[i];
}

void subtract_amount(Amount& a, const Amount& b) {
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) a[i] -= b[i];
}

bool fits_with(const Amount& a, const Amount& extra, const Amount& capacity) {
  for (std::size_t i = 0; i < capacity.size(); ++i) {
    const std::int64_t x = (i < a.size() ? a[i] : 0) + (i < extra.size() ? extra[i] : 0);
    if (x > capacity[i]) return false;
  }
  return true;
}

Cost sequence_travel_cost(const Problem& problem, std::size_t v,
                          const std::vector<std::size_t>& tasks) {
  if (tasks.empty()) return 0;
  const Vehicle& vehicle = problem.vehicle(v);
  const TravelView tv = problem.travel(v);
  Cost cost = 0;
  std::size_t previous = vehicle.start;
  for (std::size_t t : tasks) {
    const std::size_t loc = problem.task(t).location;
    cost += arc_cost(tv, previous, loc);
    previous = loc;
  }
  cost += arc_cost(tv, previous, vehicle.end);
  return cost;
}

Cost route_cost(const Problem& problem, std::size_t v, const std::vector<std::size_t>& tasks) {
  if (tasks.empty()) return 0;
  return sequence_travel_cost(problem, v, tasks) + problem.fixed_cost(v);
}

Duration earliest_in_windows(const std::vector<TimeWindow>& windows, Duration t) {
  if (windows.empty()) return t;
  for (const TimeWindow& w : windows)
    if (t <= w.end) return std::max(t, w.start);
  return kMaxTime + 1;
}

Duration latest_in_windows(const std::vector<TimeWindow>& windows, Duration t) {
  if (windows.empty()) return t;
  for (auto it = windows.rbegin(); it != windows.rend(); ++it)
    if (it->start <= t) return std::min(t, it->end);
  return kNoTime;
}

Cost RouteData::cost(const Problem& problem) const {
  return tasks.empty() ? 0 : travel_cost + problem.fixed_cost(vehicle);
}

RouteData make_route_data(const Problem& problem, std::size_t v, std::vector<std::size_t> tasks) {
  RouteData r;
  r.vehicle = v;
  r.tasks = std::move(tasks);
  const std::size_t n = r.tasks.size();
  const Vehicle& vehicle = problem.vehicle(v);
  const TravelView tv = problem.travel(v);
  const std::size_t dims = problem.dimensions();

  r.locations.resize(n + 2);
  r.locations[0] = vehicle.start;
  for (std::size_t i = 0; i < n; ++i) r.locations[i + 1] = problem.task(r.tasks[i]).location;
  r.locations[n + 1] = vehicle.end;

  r.forward_cost.assign(n + 2, 0);
  r.backward_cost.assign(n + 2, 0);
  for (std::size_t k = 1; k < n + 2; ++k) {
    r.forward_cost[k] = r.forward_cost[k - 1] + arc_cost(tv, r.locations[k - 1], r.locations[k]);
    r.backward_cost[k] = r.backward_cost[k - 1] + arc_cost(tv, r.locations[k], r.locations[k - 1]);
  }
  r.travel_cost = n == 0 ? 0 : r.forward_cost[n + 1];

  // Loads: jobs' deliveries are on board from the start; every task then drops its delivery
  // and loads its pickup (shipment halves carry the amount in one of the two).
  r.delivery_prefix.assign(n + 1, Amount(dims));
  r.pickup_prefix.assign(n + 1, Amount(dims));
  for (std::size_t i = 0; i < n; ++i) {
    const Task& task = problem.task(r.tasks[i]);
    r.delivery_prefix[i + 1] = r.delivery_prefix[i];
    r.pickup_prefix[i + 1] = r.pickup_prefix[i];
    if (task.type == TaskType::Job) {
      add_amount(r.delivery_prefix[i + 1], task.delivery);
      add_amount(r.pickup_prefix[i + 1], task.pickup);
    } else {
      ++r.shipment_tasks;
    }
  }
  r.load.assign(n + 1, Amount(dims));
  r.load[0] = r.delivery_prefix[n];
  for (std::size_t i = 0; i < n; ++i) {
    const Task& task = problem.task(r.tasks[i]);
    r.load[i + 1] = r.load[i];
    subtract_amount(r.load[i + 1], task.delivery);
    add_amount(r.load[i + 1], task.pickup);
  }
  r.load_prefix_max = r.load;
  r.load_suffix_max = r.load;
  for (std::size_t k = 1; k <= n; ++k) r.load_prefix_max[k].max_with(r.load_prefix_max[k - 1]);
  for (std::size_t k = n; k-- > 0;) r.load_suffix_max[k].max_with(r.load_suffix_max[k + 1]);

  // Relaxed time bounds (setup times ignored, so they never reject a feasible insertion).
  r.time_filter = vehicle.breaks.empty();
  if (r.time_filter) {
    r.earliest_departure.assign(n + 2, kMaxTime + 1);
    r.latest_start.assign(n + 2, kNoTime);
    r.earliest_departure[0] = vehicle.time_window.start;
    for (std::size_t k = 1; k <= n; ++k) {
      const Task& task = problem.task(r.tasks[k - 1]);
      if (r.earliest_departure[k - 1] > kMaxTime) break;
      const Duration arrival =
          r.earliest_departure[k - 1] + arc_duration(tv, r.locations[k - 1], r.locations[k]);
      const Duration start = earliest_in_windows(task.time_windows, arrival);
      if (start > kMaxTime) break;
      r.earliest_departure[k] = start + task.service;
    }
    r.latest_start[n + 1] = vehicle.time_window.end;
    for (std::size_t k = n; k >= 1; --k) {
      const Task& task = problem.task(r.tasks[k - 1]);
      if (r.latest_start[k + 1] == kNoTime) break;
      const Duration deadline = r.latest_start[k + 1] -
                                arc_duration(tv, r.locations[k], r.locations[k + 1]) - task.service;
      r.latest_start[k] = latest_in_windows(task.time_windows, deadline);
    }
  }
  return r;
}

SearchState::SearchState(const Problem& problem) : problem_(&problem) {
  const std::size_t nv = problem.vehicles().size();
  const std::size_t nt = problem.tasks().size();
  bool any_setup = false;
  for (const Task& t : problem.tasks()) any_setup = any_setup || t.setup != 0;
  for (std::size_t v = 0; v < nv; ++v) {
    travel_.push_back(problem.travel(v));
    fixed_.push_back(problem.fixed_cost(v));
    routes_.push_back(make_route_data(problem, v, {}));
    const Vehicle& vehicle = problem.vehicle(v);
    exact_job_filter_.push_back(!any_setup && vehicle.breaks.empty() &&
                                vehicle.max_travel_time >= kMaxTime &&
                                vehicle.max_distance >= kMaxTime);
  }
  route_of_.assign(nt, kNone);
  position_of_.assign(nt, 0);
}

void SearchState::set_route(std::size_t v, std::vector<std::size_t> tasks) {
  // Only tasks still marked here: a task may already belong to a route rewritten before.
  for (std::size_t t : routes_[v].tasks)
    if (route_of_[t] == v) route_of_[t] = kNone;
  routes_[v] = make_route_data(*problem_, v, std::move(tasks));
  const auto& seq = routes_[v].tasks;
  for (std::size_t i = 0; i < seq.size(); ++i) {
    route_of_[seq[i]] = v;
    position_of_[seq[i]] = i;
  }
}

TourPlan SearchState::plan() const {
  TourPlan out(routes_.size());
  for (std::size_t v = 0; v < routes_.size(); ++v) out[v] = routes_[v].tasks;
  return out;
}

void SearchState::load(const TourPlan& plan) {
  // Emptied first: a task may move to a vehicle of lower index.
  for (std::size_t v = 0; v < routes_.size(); ++v) set_route(v, {});
  for (std::size_t v = 0; v < routes_.size() && v < plan.size(); ++v) set_route(v, plan[v]);
}

Cost SearchState::total_cost() const {
  Cost c = 0;
  for (const RouteData& r : routes_) c += r.cost(*problem_);
  return c;
}

std::size_t SearchState::used_routes() const {
  return static_cast<std::size_t>(
      std::count_if(routes_.begin(), routes_.end(), [](const RouteData& r) { return !r.empty(); }));
}

std::size_t SearchState::assigned_count() const {
  return static_cast<std::size_t>(
      std::count_if(route_of_.begin(), route_of_.end(), [](std::size_t v) { return v != kNone; }));
}

long SearchState::priority_sum() const {
  long sum = 0;
  for (std::size_t t = 0; t < route_of_.size(); ++t)
    if (route_of_[t] != kNone && problem_->task(t).type != TaskType::Delivery)
      sum += problem_->task(t).priority;
  return sum;
}

ScheduleResult schedule(const Problem& problem, std::size_t v,
                        const std::vector<std::size_t>& tasks) {
  if (tasks.empty()) {
    ScheduleResult empty;
    empty.feasible = true;
    return empty;
  }
  return schedule_route(problem, v, tasks);
}

}  // namespace routesolve::search
