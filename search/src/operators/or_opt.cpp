#include "routesolve/search/operators/or_opt.hpp"

namespace routesolve::search {

TourOrOpt::TourOrOpt(const WorkingSolution& s, const TourCosts& costs, std::size_t v, std::size_t i,
                     std::size_t length, std::size_t to)
    : s_(&s), v_(v), i_(i), length_(length), to_(to) {
  delta_.cost = delta(costs, i, length, to);
}

Cost TourOrOpt::delta(const TourCosts& c, std::size_t i, std::size_t length, std::size_t to) {
  const std::size_t first = i + 1, last = i + length;  // nodes of the run
  const std::size_t prev = first - 1, next = last + 1;
  const Cost removal = c.arc(c.location(prev), c.location(next)) -
                       c.arc(c.location(prev), c.location(first)) -
                       c.arc(c.location(last), c.location(next));
  // Inserted between node `to` and node `to + 1` of the original numbering.
  const std::size_t x = to, y = to + 1;
  const Cost insertion = c.arc(c.location(x), c.location(first)) +
                         c.arc(c.location(last), c.location(y)) -
                         c.arc(c.location(x), c.location(y));
  return removal + insertion;
}

std::vector<std::size_t> TourOrOpt::moved(const std::vector<std::size_t>& tasks, std::size_t i,
                                          std::size_t length, std::size_t to) {
  std::vector<std::size_t> seq;
  seq.reserve(tasks.size());
  for (std::size_t k = 0; k <= tasks.size(); ++k) {
    if (k == to)
      for (std::size_t r = i; r < i + length; ++r) seq.push_back(tasks[r]);
    if (k < tasks.size() && (k < i || k >= i + length)) seq.push_back(tasks[k]);
  }
  return seq;
}

bool TourOrOpt::is_valid() const {
  return sequence_feasible(*s_, v_, moved(s_->tour(v_).tasks, i_, length_, to_));
}

void TourOrOpt::apply(WorkingSolution& s) const {
  s.set_tasks(v_, moved(s.tour(v_).tasks, i_, length_, to_));
}

}  // namespace routesolve::search
