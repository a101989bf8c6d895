#pragma once
// Ruin by adjacent string removal (SISR: Christiaens & Vanden Berghe 2020, "Slack induction by
// string removals for vehicle routing problems"): around a random seed task, strings of
// consecutive visits are cut from nearby tours, sometimes keeping a run of visits in the middle
// (split string), so that the recreate step finds slack in several neighbouring tours at once.

#include <cstddef>
#include <random>
#include <vector>

#include "routesolve/search/neighbours.hpp"
#include "routesolve/search/working_solution.hpp"

namespace routesolve::search {

class StringRemoval {
 public:
  struct Parameters {
    double average_removed = 10.0;  ///< c-bar: tasks removed on average
    std::size_t max_string = 10;    ///< L-max: longest string
    double split_rate = 0.5;        ///< chance that a string keeps a run of visits
    double keep_more = 0.5;         ///< chance to keep one more visit in a split string
  };

  /// `adjacency`: each task's nearest tasks, in increasing distance.
  StringRemoval(const Neighbours& adjacency, Parameters parameters);

  /// Removes strings from the solution; returns the removed jobs and shipment pickups.
  std::vector<std::size_t> apply(WorkingSolution& solution, std::mt19937_64& rng) const;

 private:
  const Neighbours* adjacency_;
  Parameters parameters_;
};

}  // namespace routesolve::search
