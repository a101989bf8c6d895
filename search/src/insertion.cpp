#include "routesolve/search/insertion.hpp"

#include <algorithm>
#include <tuple>

namespace routesolve::search {

namespace {

// Ties between failure counts go to the reason listed first.
constexpr std::array<UnassignedReason, 10> kReasonOrder = {
    UnassignedReason::Unreachable,         UnassignedReason::Capacity,
    UnassignedReason::TimeWindow,          UnassignedReason::MaxTravelTime,
    UnassignedReason::MaxDistance,         UnassignedReason::Break,
    UnassignedReason::MaxWorkingTime,      UnassignedReason::MaxTasks,
    UnassignedReason::NoCompatibleVehicle, UnassignedReason::NotRouted};

struct Candidate {
  Cost delta;
  std::size_t i, j;
  friend bool operator<(const Candidate& a, const Candidate& b) {
    return std::tie(a.delta, a.i, a.j) < std::tie(b.delta, b.i, b.j);
  }
};

}  // namespace

bool FailureTally::empty() const {
  return std::all_of(counts_.begin(), counts_.end(), [](std::uint64_t c) { return c == 0; });
}

UnassignedReason FailureTally::dominant() const {
  UnassignedReason best = UnassignedReason::NotRouted;
  std::uint64_t best_count = 0;
  for (UnassignedReason r : kReasonOrder) {
    const std::uint64_t c = counts_[static_cast<std::size_t>(r)];
    if (c > best_count) {
      best = r;
      best_count = c;
    }
  }
  return best;
}

std::vector<std::size_t> inserted_sequence(const Problem& problem, const RouteData& route,
                                           const Insertion& insertion, std::size_t task) {
  const auto& old = route.tasks;
  std::vector<std::size_t> seq;
  seq.reserve(old.size() + 2);
  const std::size_t sibling = problem.task(task).sibling;
  for (std::size_t k = 0; k <= old.size(); ++k) {
    if (k == insertion.position) seq.push_back(task);
    if (sibling != kNone && k == insertion.position2) seq.push_back(sibling);
    if (k < old.size()) seq.push_back(old[k]);
  }
  return seq;
}

bool insertion_time_fits(const Problem& problem, const TravelView& tv, const RouteData& route,
                         std::size_t a, const Task& t) {
  (void)problem;
  if (!route.time_filter) return true;
  const Duration departure = route.earliest_departure[a];
  const Duration latest_next = route.latest_start[a + 1];
  if (departure > kMaxTime || latest_next == kNoTime) return true;  // let core decide
  const Duration arrival = departure + arc_duration(tv, route.locations[a], t.location);
  const Duration start = earliest_in_windows(t.time_windows, arrival);
  if (start > kMaxTime) return false;
  const Duration next_arrival =
      start + t.service + arc_duration(tv, t.location, route.locations[a + 1]);
  return next_arrival <= latest_next;
}

Insertion best_insertion(const SearchState& state, const RouteData& route, std::size_t task,
                         FailureTally* tally, std::size_t max_checks, Cost bound) {
  const Problem& problem = state.problem();
  const std::size_t v = route.vehicle;
  Insertion best;
  best.vehicle = v;
  if (!problem.compatible(v, task)) return best;
  const Vehicle& vehicle = problem.vehicle(v);
  const Task& t = problem.task(task);
  const bool pair = t.sibling != kNone;
  const std::size_t n = route.size();
  FailureTally local;
  if (vehicle.max_tasks != kNone && n + (pair ? 2 : 1) > vehicle.max_tasks) {
    if (tally) tally->add(UnassignedReason::MaxTasks);
    return best;
  }
  const TravelView& tv = state.travel(v);
  const auto& loc = route.locations;
  const Cost opening = route.empty() ? state.fixed_cost(v) : 0;
  auto detour = [&](std::size_t a, std::size_t x) {  // x inserted between node a and a + 1
    return arc_cost(tv, loc[a], x) + arc_cost(tv, x, loc[a + 1]) -
           (route.empty() ? 0 : arc_cost(tv, loc[a], loc[a + 1]));
  };
  auto reachable = [&](std::size_t a, std::size_t x) {
    return !arc_unreachable(tv, loc[a], x) && !arc_unreachable(tv, x, loc[a + 1]);
  };

  std::vector<Candidate> candidates;
  if (!pair) {
    candidates.reserve(n + 1);
    for (std::size_t i = 0; i <= n; ++i) {
      if (!reachable(i, t.location)) {
        local.add(UnassignedReason::Unreachable);
        continue;
      }
      if (!fits_with(route.load_prefix_max[i], t.delivery, vehicle.capacity) ||
          !fits_with(route.load_suffix_max[i], t.pickup, vehicle.capacity)) {
        local.add(UnassignedReason::Capacity);
        continue;
      }
      if (!insertion_time_fits(problem, tv, route, i, t)) {
        local.add(UnassignedReason::TimeWindow);
        continue;
      }
      candidates.push_back({detour(i, t.location) + opening, i, i});
    }
  } else {
    const Task& d = problem.task(t.sibling);
    std::vector<char> p_ok(n + 1), d_ok(n + 1);
    for (std::size_t i = 0; i <= n; ++i) {
      p_ok[i] = reachable(i, t.location) && insertion_time_fits(problem, tv, route, i, t);
      d_ok[i] = reachable(i, d.location) && insertion_time_fits(problem, tv, route, i, d);
    }
    const bool direct_reachable = !arc_unreachable(tv, t.location, d.location);
    for (std::size_t i = 0; i <= n; ++i) {
      if (!p_ok[i]) {
        local.add(UnassignedReason::TimeWindow);
        continue;
      }
      Amount segment_max = route.load[i];
      for (std::size_t j = i; j <= n; ++j) {
        if (j > i) segment_max.max_with(route.load[j]);
        if (!fits_with(segment_max, t.pickup, vehicle.capacity)) {
          local.add(UnassignedReason::Capacity);
          break;  // the segment only grows with j
        }
        if (!d_ok[j]) {
          local.add(UnassignedReason::TimeWindow);
          continue;
        }
        Cost delta = 0;
        if (i == j) {
          if (!direct_reachable) {
            local.add(UnassignedReason::Unreachable);
            continue;
          }
          delta = arc_cost(tv, loc[i], t.location) + arc_cost(tv, t.location, d.location) +
                  arc_cost(tv, d.location, loc[i + 1]) -
                  (route.empty() ? 0 : arc_cost(tv, loc[i], loc[i + 1]));
        } else {
          delta = detour(i, t.location) + detour(j, d.location);
        }
        candidates.push_back({delta + opening, i, j});
      }
    }
  }
  std::sort(candidates.begin(), candidates.end());

  const bool trust_filters = !pair && state.exact_job_filter(v);
  std::size_t checks = 0;
  for (const Candidate& c : candidates) {
    if (c.delta >= bound) break;
    Insertion ins;
    ins.vehicle = v;
    ins.position = c.i;
    ins.position2 = c.j;
    ins.delta = c.delta;
    ins.feasible = true;
    if (trust_filters) return ins;
    if (checks++ >= max_checks) break;
    const ScheduleResult result =
        schedule(problem, v, inserted_sequence(problem, route, ins, task));
    if (result.feasible) return ins;
    local.add(result.violation.value_or(UnassignedReason::TimeWindow));
  }
  if (tally) tally->add(local.dominant());
  return best;
}

}  // namespace routesolve::search
