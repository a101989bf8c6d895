#include "routesolve/search/reloads.hpp"

#include <algorithm>

#include "routesolve/search/search_state.hpp"

namespace routesolve::search {

ReloadRepair::ReloadRepair(const Problem& problem) {
  for (std::size_t v = 0; v < problem.vehicles().size(); ++v)
    if (!problem.vehicle(v).reloads.empty()) vehicles_.push_back(v);
}

namespace {

/// The empty sequence: no location, no load, no time.
RouteSegment nothing() {
  RouteSegment s;
  s.load = empty_load();
  return s;
}

/// Exact confirmation where the segments relax (breaks, setup, several windows).
bool confirmed(const WorkingSolution& s, std::size_t v, const std::vector<std::size_t>& tasks) {
  return s.model().exact() || schedule(s.problem(), v, tasks).feasible;
}

}  // namespace

bool ReloadRepair::drop_useless(WorkingSolution& s, std::size_t v) const {
  const SegmentModel& m = s.model();
  const RouteSegment none = nothing();
  bool changed = false;
  for (bool again = true; again;) {
    again = false;
    const Tour& tour = s.tour(v);
    const Cost before = tour.prefix()[tour.size() + 1].cost;
    // The reload whose removal saves the most, among those the tour can do without.
    std::size_t best = kNone;
    Cost best_cost = before;
    for (std::size_t i = 0; i < tour.size(); ++i) {
      if (s.problem().task(tour.tasks[i]).type != TaskType::Reload) continue;
      // tasks[i] is node i + 1: the tour without it is prefix[i] + suffix[i + 2].
      if (!m.feasible(v, tour.prefix()[i], none, tour.suffix()[i + 2])) continue;
      const Cost c = m.merge(v, tour.prefix()[i], tour.suffix()[i + 2]).cost;
      if (c > best_cost || (best != kNone && c == best_cost)) continue;
      std::vector<std::size_t> rest = tour.tasks;
      rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(i));
      if (!confirmed(s, v, rest)) continue;
      best = tour.tasks[i];
      best_cost = c;
    }
    if (best != kNone) {
      s.remove({best});
      changed = again = true;
    }
  }
  return changed;
}

bool ReloadRepair::place(WorkingSolution& s, std::size_t task) const {
  const SegmentModel& m = s.model();
  const Problem& p = s.problem();
  const RouteSegment& x = m.task(task);
  struct Best {
    Cost delta = kInfiniteCost;
    std::size_t v = kNone, reload = kNone, k = 0,
                r = 0;  // task before tasks[k], reload before tasks[r]
    bool reload_first = false;
  } best;
  RouteSegment acc, tmp;
  // As the tours are: the cheapest feasible position in a multi-trip tour.
  {
    Cost plain = kInfiniteCost;
    std::size_t pv = kNone, pk = 0;
    for (std::size_t v : vehicles_) {
      if (!s.in_region(v) || !p.compatible(v, task) || s.tour_empty(v)) continue;
      const Tour& tour = s.tour(v);
      const std::size_t n = tour.size();
      for (std::size_t k = 0; k <= n; ++k) {
        if (!m.feasible(v, tour.prefix()[k], x, tour.suffix()[k + 1])) continue;
        m.merge_into(tmp, v, tour.prefix()[k], x);
        const Cost delta = m.merge(v, tmp, tour.suffix()[k + 1]).cost - tour.prefix()[n + 1].cost;
        if (delta >= plain) continue;
        std::vector<std::size_t> tasks = tour.tasks;
        tasks.insert(tasks.begin() + static_cast<std::ptrdiff_t>(k), task);
        if (!confirmed(s, v, tasks)) continue;
        plain = delta;
        pv = v;
        pk = k;
      }
    }
    if (pv != kNone) {
      s.insert(task, pv, pk);
      return true;
    }
  }
  for (std::size_t v : vehicles_) {
    if (!s.in_region(v) || !p.compatible(v, task) || s.tour_empty(v)) continue;
    const Tour& tour = s.tour(v);
    const std::size_t n = tour.size();
    const Cost before = tour.prefix()[n + 1].cost;
    // One unused reload per location (they are interchangeable).
    std::vector<std::size_t> free;
    for (std::size_t r : p.vehicle(v).reloads) {
      if (s.assigned(r)) continue;
      bool seen = false;
      for (std::size_t f : free) seen = seen || p.task(f).location == p.task(r).location;
      if (!seen) free.push_back(r);
    }
    for (std::size_t r : free) {
      const RouteSegment& y = m.task(r);
      auto consider = [&](const RouteSegment& head, const RouteSegment& last,
                          const RouteSegment& tail, std::size_t k, std::size_t gap,
                          bool reload_first) {
        if (!m.feasible(v, head, last, tail)) return;
        m.merge_into(tmp, v, head, last);
        const Cost delta = m.merge(v, tmp, tail).cost - before;
        if (delta >= best.delta) return;
        best = Best{delta, v, r, k, gap, reload_first};
      };
      // The reload in gap g (before tasks[g]), the task in gap k >= g after it.
      for (std::size_t g = 0; g <= n; ++g) {
        m.merge_into(acc, v, tour.prefix()[g], y);
        for (std::size_t k = g;; ++k) {
          consider(acc, x, tour.suffix()[k + 1], k, g, true);
          if (k == n) break;
          m.merge_into(tmp, v, acc, m.task(tour.tasks[k]));
          acc = tmp;
          if (acc.time.time_warp > 0 || acc.unreachable) break;
        }
      }
      // The task in gap k, the reload in gap g >= k after it.
      for (std::size_t k = 0; k <= n; ++k) {
        m.merge_into(acc, v, tour.prefix()[k], x);
        for (std::size_t g = k;; ++g) {
          consider(acc, y, tour.suffix()[g + 1], k, g, false);
          if (g == n) break;
          m.merge_into(tmp, v, acc, m.task(tour.tasks[g]));
          acc = tmp;
          if (acc.time.time_warp > 0 || acc.unreachable) break;
        }
      }
    }
  }
  if (best.v == kNone) return false;
  std::vector<std::size_t> tasks = s.tour(best.v).tasks;
  // Both before the original tasks[gap]: insert the later one first.
  const std::size_t first = best.reload_first ? best.r : best.k,
                    second = best.reload_first ? best.k : best.r;
  const std::size_t first_task = best.reload_first ? best.reload : task;
  const std::size_t second_task = best.reload_first ? task : best.reload;
  tasks.insert(tasks.begin() + static_cast<std::ptrdiff_t>(second), second_task);
  tasks.insert(tasks.begin() + static_cast<std::ptrdiff_t>(first), first_task);
  if (!confirmed(s, best.v, tasks)) return false;
  s.insert(second_task, best.v, second);
  s.insert(first_task, best.v, first);
  return true;
}

void ReloadRepair::run(WorkingSolution& solution, std::size_t max_tasks) const {
  if (vehicles_.empty()) return;
  for (std::size_t v : vehicles_)
    if (solution.in_region(v)) drop_useless(solution, v);
  std::vector<std::size_t> waiting = solution.unassigned_tasks();
  std::erase_if(waiting, [&](std::size_t t) { return !solution.may_insert(t); });
  if (waiting.size() > max_tasks) waiting.resize(max_tasks);
  for (std::size_t t : waiting) place(solution, t);
}

}  // namespace routesolve::search
