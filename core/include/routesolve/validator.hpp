#pragma once
// The independent validator: recomputes every figure of a solution from the problem alone and
// reports each violated constraint. It shares no scheduling code with the solvers.

#include <string>
#include <vector>

#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"

namespace routesolve {

enum class ViolationKind {
  UnknownVehicle,
  DuplicateVehicle,
  UnknownTask,
  DuplicateTask,
  MissingTask,
  BadStepOrder,
  Skills,
  Capacity,
  TimeWindow,
  VehicleTimeWindow,
  BreakMissing,
  BreakTimeWindow,
  BreakMaxLoad,
  ShipmentSplit,
  ShipmentOrder,
  MaxTasks,
  MaxTravelTime,
  MaxDistance,
  Unreachable,
  ArrivalMismatch,
  DurationMismatch,
  DistanceMismatch,
  LoadMismatch,
  CostMismatch,
  SummaryMismatch,
  WrongLocation,
  MaxWorkingTime,
  MaxTrips,
};

std::string_view to_string(ViolationKind kind) noexcept;

struct Violation {
  ViolationKind kind;
  std::string where;    ///< e.g. "routes[2].steps[5]" or "unassigned[0]"
  std::string message;  ///< what is wrong, with expected and found values
};

struct ValidationReport {
  std::vector<Violation> violations;
  [[nodiscard]] bool ok() const noexcept { return violations.empty(); }
  /// One line per violation: "where: kind: message".
  [[nodiscard]] std::string to_text() const;
};

struct ValidateOptions {
  /// Check the reported figures (arrival, duration, distance, load, cost, summary), not only
  /// feasibility. Off for solutions that carry no figures (e.g. CVRPLIB .sol files).
  bool check_figures = true;
  /// Require every task to be either routed or listed as unassigned.
  bool require_all_tasks_accounted = true;
};

/// Checks a solution against a problem and reports every violation found.
ValidationReport validate(const Problem& problem, const Solution& solution,
                          const ValidateOptions& options = {});

}  // namespace routesolve
