#include "routesolve/search/blink_insertion.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "routesolve/search/tuning.hpp"
#include "routesolve/solution.hpp"

namespace routesolve::search {

BlinkInsertion::BlinkInsertion(const Neighbours& near, const VehicleClasses& classes,
                               double blink_rate, std::size_t near_tours)
    : near_(&near),
      classes_(&classes),
      blink_threshold_(blink_threshold(blink_rate)),
      near_tours_(near_tours) {}

void BlinkInsertion::sort(const WorkingSolution& solution, std::vector<std::size_t>& tasks,
                          std::mt19937_64& rng) const {
  const Problem& problem = solution.problem();
  std::shuffle(tasks.begin(), tasks.end(), rng);
  const bool windows = solution.model().windowed();
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
    std::stable_sort(tasks.begin(), tasks.end(),
                     [&](auto a, auto b) { return demand(a) > demand(b); });
  } else if (choice < 10) {
    std::stable_sort(tasks.begin(), tasks.end(),
                     [&](auto a, auto b) { return depot_distance(a) > depot_distance(b); });
  } else if (choice < 11) {
    std::stable_sort(tasks.begin(), tasks.end(),
                     [&](auto a, auto b) { return depot_distance(a) < depot_distance(b); });
  } else {
    std::stable_sort(tasks.begin(), tasks.end(), [&](auto a, auto b) {
      return problem.task(a).time_windows.back().end < problem.task(b).time_windows.back().end;
    });
  }
}

void BlinkInsertion::farthest_first(const WorkingSolution& solution,
                                    std::vector<std::size_t>& tasks, std::mt19937_64& rng) {
  const Problem& problem = solution.problem();
  std::vector<std::size_t> depots;
  for (const Vehicle& v : problem.vehicles()) {
    if (v.start != kNone) depots.push_back(v.start);
    if (v.end != kNone) depots.push_back(v.end);
  }
  std::sort(depots.begin(), depots.end());
  depots.erase(std::unique(depots.begin(), depots.end()), depots.end());
  std::shuffle(tasks.begin(), tasks.end(), rng);
  if (depots.empty()) return;  // open routes without ends: no distance to order by
  const TravelView tv = solution.model().travel(0);
  std::vector<std::pair<Cost, std::size_t>> keyed;  // the round trip from the nearest depot
  keyed.reserve(tasks.size());
  for (std::size_t t : tasks) {
    const std::size_t at = problem.task(t).location;
    Cost nearest = kInfiniteCost;
    for (std::size_t d : depots) nearest = std::min(nearest, tv.cost(d, at) + tv.cost(at, d));
    keyed.emplace_back(nearest, t);
  }
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t k = 0; k < keyed.size(); ++k) tasks[k] = keyed[k].second;
}

void BlinkInsertion::begin(const WorkingSolution& solution, std::vector<std::size_t> tasks,
                           std::mt19937_64& rng, std::size_t max_routes, Pass& pass,
                           std::size_t open_with, Order order) const {
  if (order == Order::FarthestFirst)
    farthest_first(solution, tasks, rng);
  else
    sort(solution, tasks, rng);
  pass.opening = false;
  if (open_with != kNone) {
    const auto it = std::find(tasks.begin(), tasks.end(), open_with);
    if (it != tasks.end() && solution.used_routes() < max_routes) {
      std::rotate(tasks.begin(), it, it + 1);
      pass.opening = true;
    }
  }
  pass.tasks = std::move(tasks);
  pass.next = 0;
  pass.max_routes = max_routes;
  pass.widened = false;
  pass.key = rng();
  pass.asked = 0;
  pass.candidates.clear();
  pass.tried.assign(solution.vehicle_count(), 0);
  pass.first_empty.assign(classes_->count(), 0);
}

void BlinkInsertion::advance(Pass& pass) const {
  for (std::size_t v : pass.candidates) pass.tried[v] = 0;
  pass.candidates.clear();
  pass.widened = false;
  ++pass.next;
}

bool BlinkInsertion::next(const WorkingSolution& solution, Pass& pass,
                          InsertionRequest& request) const {
  const Problem& problem = solution.problem();
  while (!pass.done() && solution.assigned(pass.tasks[pass.next])) advance(pass);
  if (pass.done()) return false;
  const std::size_t task = pass.tasks[pass.next];
  // The next task's neighbours load while this one is priced.
  if (pass.next + 1 < pass.tasks.size() && !pass.widened)
    near_->prefetch(pass.tasks[pass.next + 1]);
  const std::size_t first = pass.candidates.size();
  auto consider = [&](std::size_t v) {
    if (v == kNone || pass.tried[v] || !solution.in_region(v)) return;
    pass.tried[v] = 1;
    pass.candidates.push_back(v);
  };
  // The first empty vehicle of each class that can take the task (at 500 vehicles, a scan from
  // the class's first member was most of a request's cost once most tours are used).
  auto empty_vehicles = [&] {
    for (std::size_t c : classes_->opening_order()) {
      const std::vector<std::size_t>& members = classes_->members(c);
      std::size_t& k = pass.first_empty[c];
      while (k < members.size() &&
             !(solution.tour_empty(members[k]) && solution.in_region(members[k])))
        ++k;
      for (std::size_t j = k; j < members.size(); ++j) {
        const std::size_t v = members[j];
        if (solution.tour_empty(v) && solution.in_region(v) && problem.compatible(v, task)) {
          consider(v);
          break;
        }
      }
    }
  };
  if (pass.opening && pass.next == 0) {
    empty_vehicles();
  } else if (!pass.widened) {
    std::size_t seen = 0;
    for (std::size_t w : near_->of(task)) {
      if (seen >= near_tours_) break;
      if (!solution.assigned(w)) continue;
      ++seen;
      consider(solution.route_of(w));
    }
    if (solution.used_routes() < pass.max_routes) empty_vehicles();
  } else {
    for (std::size_t v = 0; v < solution.vehicle_count(); ++v)
      if (!solution.tour_empty(v)) consider(v);
  }
  request.solution = &solution;
  request.task = task;
  request.vehicles = std::span<const std::size_t>(pass.candidates).subspan(first);
  request.blink_key = hd::mix(pass.key + 0x9E3779B97F4A7C15ULL * ++pass.asked);
  request.blink_threshold = blink_threshold_;
  return true;
}

namespace {

/// The task (with its sibling) in tour v at (i, j), as insert / insert_pair would put it.
std::vector<std::size_t> with_task(const WorkingSolution& solution, std::size_t task, std::size_t v,
                                   std::size_t i, std::size_t j) {
  const std::vector<std::size_t>& tasks = solution.tour(v).tasks;
  const std::size_t sibling = solution.problem().task(task).sibling;
  std::vector<std::size_t> out;
  out.reserve(tasks.size() + 2);
  for (std::size_t k = 0; k <= tasks.size(); ++k) {
    if (k == i) out.push_back(task);
    if (sibling != kNone && k == j) out.push_back(sibling);
    if (k < tasks.size()) out.push_back(tasks[k]);
  }
  return out;
}

/// Where the segment model relaxes and its choice failed core's schedule: the cheapest insertion
/// by travel cost over the same tours that the schedule accepts, among the kExactInsertionChecks
/// cheapest (not found() when none of them is feasible).
InsertionChoice exact_insertion(const WorkingSolution& solution, std::size_t task,
                                const std::vector<std::size_t>& vehicles) {
  const Problem& problem = solution.problem();
  const Task& t = problem.task(task);
  const bool pair = t.sibling != kNone;
  std::vector<InsertionChoice> options;
  for (std::size_t v : vehicles) {
    const Vehicle& veh = problem.vehicle(v);
    const TravelView tv = solution.model().travel(v);
    const std::vector<std::size_t>& tasks = solution.tour(v).tasks;
    const std::size_t n = tasks.size();
    // Location of node k of the tour with start (0) and end (n + 1); kNone where open.
    auto at = [&](std::size_t k) {
      return k == 0 ? veh.start : k == n + 1 ? veh.end : problem.task(tasks[k - 1]).location;
    };
    auto arc = [&](std::size_t a, std::size_t b) {
      return a == kNone || b == kNone ? Cost{0} : tv.cost(a, b);
    };
    const Cost opening = n == 0 ? problem.fixed_cost(v) : 0;
    const std::size_t x = t.location, y = pair ? problem.task(t.sibling).location : kNone;
    for (std::size_t i = 0; i <= n; ++i) {
      const std::size_t before = at(i), after = at(i + 1);
      if (!pair) {
        options.push_back({v, i, i, opening + arc(before, x) + arc(x, after) - arc(before, after)});
        continue;
      }
      for (std::size_t j = i; j <= n; ++j) {
        Cost d = opening;
        if (j == i) {
          d += arc(before, x) + arc(x, y) + arc(y, after) - arc(before, after);
        } else {
          d += arc(before, x) + arc(x, after) - arc(before, after);
          d += arc(at(j), y) + arc(y, at(j + 1)) - arc(at(j), at(j + 1));
        }
        options.push_back({v, i, j, d});
      }
    }
  }
  const auto cheaper = [](const InsertionChoice& a, const InsertionChoice& b) {
    return a.delta != b.delta       ? a.delta < b.delta
           : a.vehicle != b.vehicle ? a.vehicle < b.vehicle
           : a.i != b.i             ? a.i < b.i
                                    : a.j < b.j;
  };
  const std::size_t tried = std::min(options.size(), kExactInsertionChecks);
  std::partial_sort(options.begin(), options.begin() + static_cast<std::ptrdiff_t>(tried),
                    options.end(), cheaper);
  for (std::size_t k = 0; k < tried; ++k) {
    const InsertionChoice& c = options[k];
    if (route_feasible(problem, c.vehicle, with_task(solution, task, c.vehicle, c.i, c.j)))
      return c;
  }
  return {};
}

}  // namespace

void BlinkInsertion::take(WorkingSolution& solution, Pass& pass,
                          const InsertionChoice& engine_choice) const {
  InsertionChoice best = engine_choice;
  // The engine prices by segments; where they relax, its choice stands only if the schedule
  // accepts it, else the exact cheapest of the same tours (AnnealingSearch keeps tours feasible).
  if (best.found() && !solution.model().exact() &&
      !route_feasible(solution.problem(), best.vehicle,
                      with_task(solution, pass.tasks[pass.next], best.vehicle, best.i, best.j)))
    best = exact_insertion(solution, pass.tasks[pass.next], pass.candidates);
  const std::size_t task = pass.tasks[pass.next];
  if (pass.opening && pass.next == 0) {
    pass.opening = false;
    if (!best.found()) {  // no empty vehicle takes it: ask again as for any task
      for (std::size_t v : pass.candidates) pass.tried[v] = 0;
      pass.candidates.clear();
      return;
    }
  } else if (!best.found()) {
    if (!pass.widened) {
      pass.widened = true;  // the next request tries every other non-empty tour
      return;
    }
    advance(pass);  // left out
    return;
  }
  if (solution.problem().task(task).sibling != kNone)
    solution.insert_pair(task, best.vehicle, best.i, best.j);
  else
    solution.insert(task, best.vehicle, best.i);
  advance(pass);
}

void BlinkInsertion::finish(WorkingSolution& solution, Pass& pass, InsertionEngine& engine,
                            const Deadline* deadline) const {
  InsertionRequest request;
  InsertionChoice choice;
  for (std::size_t k = 0; next(solution, pass, request); ++k) {
    if (deadline != nullptr && k % 64 == 0 && deadline->expired()) return;
    engine.price(std::span<const InsertionRequest>(&request, 1),
                 std::span<InsertionChoice>(&choice, 1));
    take(solution, pass, choice);
  }
}

void BlinkInsertion::apply(WorkingSolution& solution, std::vector<std::size_t> tasks,
                           std::mt19937_64& rng, std::size_t max_routes, InsertionEngine& engine,
                           const Deadline* deadline, Order order) const {
  Pass pass;
  begin(solution, std::move(tasks), rng, max_routes, pass, kNone, order);
  finish(solution, pass, engine, deadline);
}

}  // namespace routesolve::search
