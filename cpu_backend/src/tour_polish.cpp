#include "tour_polish.hpp"

#include <algorithm>

namespace routesolve::cpu::detail {

TourCosts::TourCosts(const WorkingSolution& solution, std::size_t v) : travel_(solution.model().travel(v)) {
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

bool sequence_feasible(const WorkingSolution& solution, std::size_t v, const std::vector<std::size_t>& tasks) {
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

Cost TourTwoOpt::delta(const TourCosts& c, std::size_t i, std::size_t j) {
  // Nodes: task k is node k + 1. Reverse nodes i+1 .. j+1.
  const std::size_t a = i, b = i + 1, e = j + 1, f = j + 2;
  return c.arc(c.location(a), c.location(e)) + c.backward(b, e) + c.arc(c.location(b), c.location(f)) -
         c.arc(c.location(a), c.location(b)) - c.forward(b, e) - c.arc(c.location(e), c.location(f));
}

bool TourTwoOpt::improve(WorkingSolution& solution, std::size_t v) {
  const std::vector<std::size_t>& tasks = solution.tour(v).tasks;
  const std::size_t n = tasks.size();
  if (n < 2) return false;
  const TourCosts costs(solution, v);
  for (std::size_t i = 0; i + 1 < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      if (delta(costs, i, j) >= 0) continue;
      std::vector<std::size_t> seq = tasks;
      std::reverse(seq.begin() + static_cast<std::ptrdiff_t>(i), seq.begin() + static_cast<std::ptrdiff_t>(j) + 1);
      if (!sequence_feasible(solution, v, seq)) continue;
      solution.set_tasks(v, std::move(seq));
      return true;
    }
  }
  return false;
}

Cost TourOrOpt::delta(const TourCosts& c, std::size_t i, std::size_t length, std::size_t to) {
  const std::size_t first = i + 1, last = i + length;  // nodes of the run
  const std::size_t prev = first - 1, next = last + 1;
  const Cost removal = c.arc(c.location(prev), c.location(next)) - c.arc(c.location(prev), c.location(first)) -
                       c.arc(c.location(last), c.location(next));
  // Inserted between node `to` and node `to + 1` of the original numbering.
  const std::size_t x = to, y = to + 1;
  const Cost insertion = c.arc(c.location(x), c.location(first)) + c.arc(c.location(last), c.location(y)) -
                         c.arc(c.location(x), c.location(y));
  return removal + insertion;
}

std::vector<std::size_t> TourOrOpt::moved(const std::vector<std::size_t>& tasks, std::size_t i, std::size_t length,
                                          std::size_t to) {
  std::vector<std::size_t> seq;
  seq.reserve(tasks.size());
  for (std::size_t k = 0; k <= tasks.size(); ++k) {
    if (k == to)
      for (std::size_t r = i; r < i + length; ++r) seq.push_back(tasks[r]);
    if (k < tasks.size() && (k < i || k >= i + length)) seq.push_back(tasks[k]);
  }
  return seq;
}

bool TourOrOpt::improve(WorkingSolution& solution, std::size_t v) {
  const std::vector<std::size_t>& tasks = solution.tour(v).tasks;
  const std::size_t n = tasks.size();
  if (n < 2) return false;
  const TourCosts costs(solution, v);
  for (std::size_t length = 1; length <= 3 && length < n; ++length) {
    for (std::size_t i = 0; i + length <= n; ++i) {
      for (std::size_t to = 0; to <= n; ++to) {
        if (to >= i && to <= i + length) continue;
        if (delta(costs, i, length, to) >= 0) continue;
        std::vector<std::size_t> seq = moved(tasks, i, length, to);
        if (!sequence_feasible(solution, v, seq)) continue;
        solution.set_tasks(v, std::move(seq));
        return true;
      }
    }
  }
  return false;
}

void polish_tour(WorkingSolution& solution, std::size_t v, std::size_t max_moves) {
  for (std::size_t moves = 0; moves < max_moves; ++moves) {
    if (TourTwoOpt::improve(solution, v)) continue;
    if (TourOrOpt::improve(solution, v)) continue;
    break;
  }
}

}  // namespace routesolve::cpu::detail
