#include "routesolve/search/operators/two_opt.hpp"

#include <algorithm>

namespace routesolve::search {

TourTwoOpt::TourTwoOpt(const WorkingSolution& s, const TourCosts& costs, std::size_t v,
                       std::size_t i, std::size_t j)
    : s_(&s), v_(v), i_(i), j_(j) {
  delta_.cost = delta(costs, i, j);
}

Cost TourTwoOpt::delta(const TourCosts& c, std::size_t i, std::size_t j) {
  // Nodes: task k is node k + 1. Reverse nodes i+1 .. j+1.
  const std::size_t a = i, b = i + 1, e = j + 1, f = j + 2;
  return c.arc(c.location(a), c.location(e)) + c.backward(b, e) +
         c.arc(c.location(b), c.location(f)) - c.arc(c.location(a), c.location(b)) -
         c.forward(b, e) - c.arc(c.location(e), c.location(f));
}

std::vector<std::size_t> TourTwoOpt::reversed() const {
  std::vector<std::size_t> seq = s_->tour(v_).tasks;
  std::reverse(seq.begin() + static_cast<std::ptrdiff_t>(i_),
               seq.begin() + static_cast<std::ptrdiff_t>(j_) + 1);
  return seq;
}

bool TourTwoOpt::is_valid() const { return sequence_feasible(*s_, v_, reversed()); }

void TourTwoOpt::apply(WorkingSolution& s) const { s.set_tasks(v_, reversed()); }

}  // namespace routesolve::search
