#include "routesolve/search/vehicle_classes.hpp"

#include <algorithm>

namespace routesolve::search {

namespace {

bool same_break(const Break& a, const Break& b) {
  return a.time_windows == b.time_windows && a.service == b.service && a.max_load == b.max_load;
}

}  // namespace

bool interchangeable(const Problem& problem, std::size_t a, std::size_t b) {
  const Vehicle& x = problem.vehicle(a);
  const Vehicle& y = problem.vehicle(b);
  if (x.travel != y.travel || x.start != y.start || x.end != y.end || !(x.capacity == y.capacity) ||
      x.skills != y.skills || !(x.time_window == y.time_window) || x.max_tasks != y.max_tasks ||
      x.max_travel_time != y.max_travel_time || x.max_distance != y.max_distance ||
      problem.fixed_cost(a) != problem.fixed_cost(b) || x.breaks.size() != y.breaks.size() ||
      x.max_working_time != y.max_working_time)
    return false;
  if (!x.reloads.empty() || !y.reloads.empty()) return false;  // each has its own reload tasks
  for (std::size_t i = 0; i < x.breaks.size(); ++i)
    if (!same_break(x.breaks[i], y.breaks[i])) return false;
  return true;
}

VehicleClasses::VehicleClasses(const Problem& problem) {
  const std::size_t nv = problem.vehicles().size();
  class_of_.assign(nv, 0);
  for (std::size_t v = 0; v < nv; ++v) {
    std::size_t found = members_.size();
    for (std::size_t c = 0; c < members_.size(); ++c) {
      if (interchangeable(problem, members_[c].front(), v)) {
        found = c;
        break;
      }
    }
    if (found == members_.size()) members_.emplace_back();
    members_[found].push_back(v);
    class_of_[v] = found;
  }
  opening_.resize(members_.size());
  for (std::size_t c = 0; c < opening_.size(); ++c) opening_[c] = c;
  std::stable_sort(opening_.begin(), opening_.end(), [&](std::size_t a, std::size_t b) {
    const auto& x = problem.vehicle(members_[a].front()).capacity.values();
    const auto& y = problem.vehicle(members_[b].front()).capacity.values();
    return std::lexicographical_compare(y.begin(), y.end(), x.begin(), x.end());
  });
}

}  // namespace routesolve::search
