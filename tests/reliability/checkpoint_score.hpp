#pragma once
// The objective terms of a solution as a checkpoint records them, so that the reliability tests
// can compare a resumed solve with the checkpoint it started from.

#include "routesolve/checkpoint.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"

namespace routesolve::test {

inline CheckpointScore score_of(const Problem& problem, const Solution& s) {
  CheckpointScore score;
  for (const Unassigned& u : s.unassigned)
    if (u.type != TaskType::Delivery) {
      ++score.unassigned;
      score.priority_lost += problem.task(u.task).priority;
    }
  score.routes = s.routes.size();
  score.cost = s.summary.cost;
  return score;
}

}  // namespace routesolve::test
