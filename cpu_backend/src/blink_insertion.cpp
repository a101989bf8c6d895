#include "blink_insertion.hpp"

#include <algorithm>

namespace routesolve::cpu::detail {

namespace {

inline Cost arc(const TravelView& tv, std::size_t a, std::size_t b) {
  if (a == kNone || b == kNone) return 0;
  return tv.cost(a, b);
}

inline bool reachable(const TravelView& tv, std::size_t a, std::size_t b) {
  return a == kNone || b == kNone || (tv.cost(a, b) < kUnreachable && tv.duration(a, b) < kUnreachable);
}

}  // namespace

BlinkInsertion::BlinkInsertion(const Neighbours& near, const VehicleClasses& classes, double blink_rate,
                               std::size_t near_tours)
    : near_(&near), classes_(&classes), blink_rate_(blink_rate), near_tours_(near_tours) {}

InsertionChoice BlinkInsertion::best_in_tour(const WorkingSolution& solution, std::size_t task, std::size_t v,
                                             std::mt19937_64* rng, Cost bound) const {
  InsertionChoice best;
  best.delta = bound;
  const Problem& problem = solution.problem();
  if (!problem.compatible(v, task)) return best;
  const SegmentModel& m = solution.model();
  const Tour& tour = solution.tour(v);
  const TravelView& tv = m.travel(v);
  const std::size_t n = tour.size();
  const Cost opening = tour.empty() ? problem.fixed_cost(v) : 0;
  const std::size_t max_tasks = problem.vehicle(v).max_tasks;
  const Task& t = problem.task(task);
  const bool pair = t.sibling != kNone;
  if (max_tasks != kNone && n + (pair ? 2 : 1) > max_tasks) return best;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto blink = [&] { return rng != nullptr && blink_rate_ > 0 && unit(*rng) < blink_rate_; };
  const std::size_t p = t.location;
  const RouteSegment& ps = m.task(task);

  if (!pair) {
    // What the tour carries at its start and end must fit with the job (a necessary condition
    // that rules out the full tours before any position is priced).
    const RouteSegment& whole = tour.prefix[n + 1];
    for (std::size_t d = 0; d < m.dims(); ++d) {
      const std::int64_t start = whole.load.carried[d] + ps.load.carried[d];
      const std::int64_t capacity = problem.vehicle(v).capacity[d];
      if (start > capacity || start + whole.load.net[d] + ps.load.net[d] > capacity) return best;
    }
    for (std::size_t k = 0; k <= n; ++k) {
      const std::size_t a = tour.prefix[k].last, b = tour.suffix[k + 1].first;
      const Cost in = arc(tv, a, p), out = arc(tv, p, b);
      if (in >= kUnreachable || out >= kUnreachable) continue;  // durations: checked by the merge
      const Cost delta = in + out - arc(tv, a, b) + opening;
      if (delta >= best.delta || blink()) continue;
      if (!m.feasible(v, tour.prefix[k], ps, tour.suffix[k + 1])) continue;
      best = InsertionChoice{v, k, k, delta};
    }
    return best;
  }

  const std::size_t d = problem.task(t.sibling).location;
  const RouteSegment& ds = m.task(t.sibling);
  if (!reachable(tv, p, d)) return best;
  for (std::size_t i = 0; i <= n; ++i) {
    const std::size_t a = tour.prefix[i].last, b = tour.suffix[i + 1].first;
    if (!reachable(tv, a, p)) continue;
    const Cost pickup_delta = arc(tv, a, p) + arc(tv, p, b) - arc(tv, a, b) + opening;
    RouteSegment current = m.merge(v, tour.prefix[i], ps);
    if (current.time.time_warp > 0 || current.unreachable) continue;
    for (std::size_t j = i; j <= n; ++j) {
      const std::size_t x = j == i ? p : tour.prefix[j].last, y = tour.suffix[j + 1].first;
      Cost delta;
      if (j == i) {
        delta = arc(tv, a, p) + arc(tv, p, d) + arc(tv, d, b) - arc(tv, a, b) + opening;
      } else {
        delta = pickup_delta + arc(tv, x, d) + arc(tv, d, y) - arc(tv, x, y);
      }
      if (reachable(tv, x, d) && reachable(tv, d, y) && delta < best.delta && !blink()) {
        if (m.feasible(v, current, ds, tour.suffix[j + 1])) best = InsertionChoice{v, i, j, delta};
      }
      if (j < n) {
        current = m.merge(v, current, m.task(tour.tasks[j]));
        if (current.time.time_warp > 0 || current.unreachable) break;
      }
    }
  }
  return best;
}

void BlinkInsertion::sort(const WorkingSolution& solution, std::vector<std::size_t>& tasks,
                          std::mt19937_64& rng) const {
  const Problem& problem = solution.problem();
  std::shuffle(tasks.begin(), tasks.end(), rng);
  const bool windows = !solution.model().exact() || problem.tasks().empty() ||
                       std::any_of(problem.tasks().begin(), problem.tasks().end(), [](const Task& t) {
                         return t.time_windows.front().start > 0 || t.time_windows.back().end < kMaxTime;
                       });
  const std::size_t choice = rng() % (windows ? 12 : 10);
  auto demand = [&](std::size_t t) {
    std::int64_t s = 0;
    for (std::int64_t x : problem.task(t).delivery) s += x;
    for (std::int64_t x : problem.task(t).pickup) s += x;
    return s;
  };
  const Vehicle& first = problem.vehicle(0);
  const TravelView tv = solution.model().travel(0);
  auto depot_distance = [&](std::size_t t) {
    const std::size_t depot = first.start != kNone ? first.start : first.end;
    return depot == kNone ? Cost{0} : tv.cost(depot, problem.task(t).location);
  };
  if (choice < 4) return;  // random
  if (choice < 8) {
    std::stable_sort(tasks.begin(), tasks.end(), [&](auto a, auto b) { return demand(a) > demand(b); });
  } else if (choice < 10) {
    std::stable_sort(tasks.begin(), tasks.end(), [&](auto a, auto b) { return depot_distance(a) > depot_distance(b); });
  } else if (choice < 11) {
    std::stable_sort(tasks.begin(), tasks.end(), [&](auto a, auto b) { return depot_distance(a) < depot_distance(b); });
  } else {
    std::stable_sort(tasks.begin(), tasks.end(), [&](auto a, auto b) {
      return problem.task(a).time_windows.back().end < problem.task(b).time_windows.back().end;
    });
  }
}

void BlinkInsertion::apply(WorkingSolution& solution, std::vector<std::size_t> tasks, std::mt19937_64& rng,
                           std::size_t max_routes) const {
  sort(solution, tasks, rng);
  const Problem& problem = solution.problem();
  const std::size_t nv = solution.vehicle_count();
  std::vector<char> tried(nv, 0);
  std::vector<std::size_t> candidates;
  for (std::size_t task : tasks) {
    if (solution.assigned(task)) continue;
    candidates.clear();
    auto consider = [&](std::size_t v) {
      if (v == kNone || tried[v]) return;
      tried[v] = 1;
      candidates.push_back(v);
    };
    std::size_t seen = 0;
    for (std::size_t w : near_->of(task)) {
      if (seen >= near_tours_) break;
      if (!solution.assigned(w)) continue;
      ++seen;
      consider(solution.route_of(w));
    }
    if (solution.used_routes() < max_routes) {
      for (std::size_t c = 0; c < classes_->count(); ++c)
        for (std::size_t v : classes_->members(c))
          if (solution.tour(v).empty() && problem.compatible(v, task)) {
            consider(v);
            break;
          }
    }
    InsertionChoice best;
    for (std::size_t v : candidates) {
      const InsertionChoice c = best_in_tour(solution, task, v, &rng, best.delta);
      if (c.found()) best = c;
    }
    if (!best.found()) {
      for (std::size_t v = 0; v < nv; ++v) {
        if (solution.tour(v).empty()) continue;
        if (!tried[v]) {
          tried[v] = 1;
          candidates.push_back(v);
          const InsertionChoice c = best_in_tour(solution, task, v, &rng, best.delta);
          if (c.found()) best = c;
        }
      }
    }
    for (std::size_t v : candidates) tried[v] = 0;
    if (!best.found()) continue;
    if (problem.task(task).sibling != kNone) solution.insert_pair(task, best.vehicle, best.i, best.j);
    else solution.insert(task, best.vehicle, best.i);
  }
}

}  // namespace routesolve::cpu::detail
