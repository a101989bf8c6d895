#include "routesolve/search/savings.hpp"

#include <algorithm>
#include <tuple>

namespace routesolve::search {

std::optional<TourPlan> savings_plan(const SegmentModel& model, const VehicleClasses& classes,
                                     const Neighbours& near,
                                     const std::vector<std::size_t>& insertable,
                                     const Deadline& deadline) {
  constexpr std::size_t kPoll = 4096;  // merges (or tasks) between two looks at the deadline
  const Problem& p = model.problem();
  if (classes.count() != 1 || p.vehicles().empty() || insertable.empty()) return std::nullopt;
  for (std::size_t t : insertable)
    if (p.task(t).type != TaskType::Job || !p.compatible(0, t)) return std::nullopt;
  const std::size_t v = 0;  // every vehicle is like vehicle 0
  const Vehicle& vehicle = p.vehicle(v);
  const TravelView& tv = model.travel(v);
  auto arc = [&](std::size_t a, std::size_t b) -> Cost {
    if (a == kNone || b == kNone) return 0;
    return tv.cost(a, b);
  };

  // Routes as doubly linked chains of tasks; `body` summarises a route's tasks (no depots).
  const std::size_t nt = p.tasks().size();
  std::vector<std::size_t> route_of(nt, kNone), next(nt, kNone), prev(nt, kNone);
  std::vector<std::size_t> first, last;
  std::vector<RouteSegment> body;
  for (std::size_t t : insertable) {
    const RouteSegment alone =
        model.merge(v, model.merge(v, model.start(v), model.task(t)), model.end(v));
    if (!model.feasible(v, alone)) return std::nullopt;
    route_of[t] = first.size();
    first.push_back(t);
    last.push_back(t);
    body.push_back(model.task(t));
  }

  std::vector<std::tuple<Cost, std::size_t, std::size_t>> savings;
  for (std::size_t k = 0; k < insertable.size(); ++k) {
    if (k % kPoll == 0 && deadline.expired()) return std::nullopt;
    const std::size_t i = insertable[k];
    for (std::size_t j : near.of(i)) {
      if (route_of[j] == kNone) continue;
      const std::size_t li = p.task(i).location, lj = p.task(j).location;
      if (tv.cost(li, lj) >= kUnreachable) continue;
      const Cost s = arc(li, vehicle.end) + arc(vehicle.start, lj) - arc(li, lj);
      if (s > 0) savings.emplace_back(s, i, j);
    }
  }
  std::sort(savings.begin(), savings.end(), [](const auto& a, const auto& b) {
    if (std::get<0>(a) != std::get<0>(b)) return std::get<0>(a) > std::get<0>(b);
    return std::make_pair(std::get<1>(a), std::get<2>(a)) <
           std::make_pair(std::get<1>(b), std::get<2>(b));
  });
  std::size_t merges = 0;
  for (const auto& [s, i, j] : savings) {
    if (++merges % kPoll == 0 && deadline.expired()) return std::nullopt;
    const std::size_t ri = route_of[i], rj = route_of[j];
    if (ri == rj || last[ri] != i || first[rj] != j) continue;
    const RouteSegment joined = model.merge(v, body[ri], body[rj]);
    const RouteSegment full = model.merge(v, model.merge(v, model.start(v), joined), model.end(v));
    if (!model.feasible(v, full)) continue;
    next[i] = j;
    prev[j] = i;
    body[ri] = joined;
    last[ri] = last[rj];
    for (std::size_t t = j; t != kNone; t = next[t]) route_of[t] = ri;
    first[rj] = kNone;
  }

  TourPlan plan(p.vehicles().size());
  std::size_t used = 0;
  for (std::size_t r = 0; r < first.size(); ++r) {
    if (first[r] == kNone) continue;
    if (used == plan.size()) return std::nullopt;
    for (std::size_t t = first[r]; t != kNone; t = next[t]) plan[used].push_back(t);
    ++used;
  }
  return plan;
}

}  // namespace routesolve::search
