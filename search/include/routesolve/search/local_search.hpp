#pragma once
// Descent: for every task (in a seeded random order), the best improving move among relocate,
// pair relocate, swap, 2-opt and 2-opt* with its granular neighbours is applied; unassigned
// tasks are retried after every pass; stops at a local optimum, the deadline or the stop flag.

#include <cstddef>
#include <functional>
#include <optional>
#include <random>
#include <vector>

#include "routesolve/search/neighbours.hpp"
#include "routesolve/backend.hpp"
#include "routesolve/search/search_control.hpp"
#include "routesolve/search/search_state.hpp"
#include "routesolve/search/vehicle_classes.hpp"

namespace routesolve::search {

struct LocalSearchStats {
  std::size_t passes = 0;
  std::size_t moves = 0;
  std::size_t inserted = 0;
};

class LocalSearch {
 public:
  /// `insertable`: tasks (jobs, shipment pickups) that may be routed when unassigned.
  LocalSearch(SearchState& state, const Neighbours& neighbours, const VehicleClasses& classes,
              Objective objective, const Deadline& deadline, std::mt19937_64& rng,
              std::vector<std::size_t> insertable);

  /// Runs the descent; `on_pass` (may be empty) is called after every pass.
  LocalSearchStats run(const std::function<void()>& on_pass = {});

  /// Reasons of the tasks the last reinsertion could not place.
  [[nodiscard]] const std::vector<std::pair<std::size_t, UnassignedReason>>& left_out() const {
    return left_out_;
  }

 private:
  /// Applies the best improving feasible move around task u; true when one was applied.
  bool improve_task(std::size_t u);
  /// Tries to route unassigned tasks; returns how many were inserted.
  std::size_t reinsert_unassigned();

  SearchState& state_;
  const Neighbours& neighbours_;
  const VehicleClasses& classes_;
  Objective objective_;
  const Deadline& deadline_;
  std::mt19937_64& rng_;
  std::vector<std::size_t> insertable_;
  std::vector<std::pair<std::size_t, UnassignedReason>> left_out_;
};

}  // namespace routesolve::search
