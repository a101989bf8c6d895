#include "routesolve/search/operators/tour_costs.hpp"

#include <algorithm>

namespace routesolve::search {

TourCosts::TourCosts(const WorkingSolution& solution, std::size_t v)
    : travel_(solution.model().travel(v)) {
  const Tour& tour = solution.tour(v);
  const Problem& p = solution.problem();
  const std::size_t n = tour.size();
  locations_.resize(n + 2);
  locations_[0] = p.vehicle(v).start;
  for (std::size_t k = 0; k < n; ++k) locations_[k + 1] = p.task(tour.tasks[k]).location;
  locations_[n + 1] = p.vehicle(v).end;
  forward_.assign(n + 2, 0);
  backward_.assign(n + 2, 0);
  for (std::size_t k = 1; k < n + 2; ++k) {
    forward_[k] = forward_[k - 1] + arc(locations_[k - 1], locations_[k]);
    backward_[k] = backward_[k - 1] + arc(locations_[k], locations_[k - 1]);
  }
}

Cost TourCosts::arc(std::size_t a, std::size_t b) const {
  if (a == kNone || b == kNone) return 0;
  return travel_.cost(a, b);
}

bool sequence_feasible(const WorkingSolution& solution, std::size_t v,
                       const std::vector<std::size_t>& tasks) {
  const SegmentModel& m = solution.model();
  const Problem& p = solution.problem();
  // Shipments: a delivery after its pickup.
  for (std::size_t k = 0; k < tasks.size(); ++k) {
    const Task& t = p.task(tasks[k]);
    if (t.type != TaskType::Delivery) continue;
    if (std::find(tasks.begin(), tasks.begin() + static_cast<std::ptrdiff_t>(k), t.sibling) ==
        tasks.begin() + static_cast<std::ptrdiff_t>(k))
      return false;
  }
  RouteSegment s = m.start(v);
  for (std::size_t t : tasks) {
    s = m.merge(v, s, m.task(t));
    if (s.time.time_warp > 0 || s.unreachable) return false;
  }
  return m.feasible(v, m.merge(v, s, m.end(v)));
}

}  // namespace routesolve::search
