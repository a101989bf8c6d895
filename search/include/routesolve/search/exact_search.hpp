#pragma once
// Ruin and recreate on the exact representation (SearchState), for the problems the segment
// model does not cover (more than kMaxDims capacity dimensions): each step removes a task and up
// to kExactRuinTasks - 1 of its nearest routed tasks, re-inserts them and every unassigned task
// by exact regret insertion (every position confirmed by core's schedule_route), and keeps the
// result by the annealing's rule (a better rank always, the same rank when its cost passes the
// temperature's threshold). Stops after its steps, at the deadline or on the stop flag, and
// leaves the best plan it met in the state.

#include <cstddef>
#include <functional>
#include <random>
#include <utility>
#include <vector>

#include "routesolve/backend.hpp"
#include "routesolve/hd/score.hpp"
#include "routesolve/search/neighbours.hpp"
#include "routesolve/search/search_control.hpp"
#include "routesolve/search/search_state.hpp"
#include "routesolve/search/vehicle_classes.hpp"

namespace routesolve::search {

/// The score of a state; `insertable` are the tasks that count when unassigned (the hopeless
/// ones are left out, as in WorkingSolution::score).
[[nodiscard]] Score state_score(const SearchState& state,
                                const std::vector<std::size_t>& insertable);

/// Temperatures in internal cost units, from `start_temperature` at the first step down to
/// `end_temperature` at the last (geometrically, over the steps or the time limit); 0: descent.
struct ExactSearchParameters {
  double start_temperature = 0.0;
  double end_temperature = 0.0;
};

class ExactSearch {
 public:
  using Parameters = ExactSearchParameters;

  /// `insertable`: tasks (jobs, shipment pickups) that may be routed when unassigned.
  ExactSearch(SearchState& state, const Neighbours& neighbours, const VehicleClasses& classes,
              Objective objective, const Deadline& deadline, std::mt19937_64& rng,
              std::vector<std::size_t> insertable, Parameters parameters = {});

  /// Runs `steps` steps (0: until the deadline); `on_step` (may be empty) is called after each.
  /// Returns the steps made (fewer when no task is routed: there is nothing to ruin).
  std::size_t run(std::size_t steps, const std::function<void()>& on_step = {});

  /// Why the tasks the best plan leaves unassigned could not be inserted.
  [[nodiscard]] const std::vector<std::pair<std::size_t, UnassignedReason>>& left_out() const {
    return left_out_;
  }

 private:
  /// One step at `temperature`; false when the deadline cut it short or no task is routed.
  bool step(double temperature);

  SearchState& state_;
  const Neighbours& neighbours_;
  const VehicleClasses& classes_;
  Objective objective_;
  const Deadline& deadline_;
  std::mt19937_64& rng_;
  std::vector<std::size_t> insertable_;
  Parameters parameters_;
  std::vector<std::pair<std::size_t, UnassignedReason>> left_out_, current_left_out_;
  Score best_score_;
  TourPlan best_;
};

}  // namespace routesolve::search
