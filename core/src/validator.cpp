// The independent validator. It recomputes every figure of a solution from the Problem alone
// (travel views, tasks, vehicles) and shares no code with schedule.cpp or the solvers: a bug in
// one of them shows up as a disagreement with the other.
//
// Two modes (ValidateOptions::check_figures):
//  - figures checked: the reported times are the timeline; each one is checked for feasibility
//    and for agreement with an earliest-time schedule (arrival = departure + travel).
//  - figures ignored: the validator builds its own earliest-time schedule of the given order and
//    checks only that the order is feasible (for solutions without figures, e.g. CVRPLIB .sol).
//
// This file: the violation names, the report text, the order of the checks. The checks themselves
// are in validator_structure.cpp, validator_schedule.cpp and validator_summary.cpp
// (validator_detail.hpp).

#include "routesolve/validator.hpp"

#include <string>
#include <utility>

#include "validator_detail.hpp"

namespace routesolve {

std::string_view to_string(ViolationKind kind) noexcept {
  switch (kind) {
    case ViolationKind::UnknownVehicle:
      return "unknown vehicle";
    case ViolationKind::DuplicateVehicle:
      return "duplicate vehicle";
    case ViolationKind::UnknownTask:
      return "unknown task";
    case ViolationKind::DuplicateTask:
      return "duplicate task";
    case ViolationKind::MissingTask:
      return "missing task";
    case ViolationKind::BadStepOrder:
      return "bad step order";
    case ViolationKind::Skills:
      return "skills";
    case ViolationKind::Capacity:
      return "capacity";
    case ViolationKind::TimeWindow:
      return "time window";
    case ViolationKind::VehicleTimeWindow:
      return "vehicle time window";
    case ViolationKind::BreakMissing:
      return "break missing";
    case ViolationKind::BreakTimeWindow:
      return "break time window";
    case ViolationKind::BreakMaxLoad:
      return "break max load";
    case ViolationKind::ShipmentSplit:
      return "shipment split";
    case ViolationKind::ShipmentOrder:
      return "shipment order";
    case ViolationKind::MaxTasks:
      return "max tasks";
    case ViolationKind::MaxTravelTime:
      return "max travel time";
    case ViolationKind::MaxDistance:
      return "max distance";
    case ViolationKind::Unreachable:
      return "unreachable";
    case ViolationKind::ArrivalMismatch:
      return "arrival mismatch";
    case ViolationKind::DurationMismatch:
      return "duration mismatch";
    case ViolationKind::DistanceMismatch:
      return "distance mismatch";
    case ViolationKind::LoadMismatch:
      return "load mismatch";
    case ViolationKind::CostMismatch:
      return "cost mismatch";
    case ViolationKind::SummaryMismatch:
      return "summary mismatch";
    case ViolationKind::WrongLocation:
      return "wrong location";
    case ViolationKind::MaxWorkingTime:
      return "max working time";
    case ViolationKind::MaxTrips:
      return "max trips";
  }
  return "unknown violation";
}

std::string ValidationReport::to_text() const {
  std::string text;
  for (const Violation& v : violations) {
    text += v.where;
    text += ": ";
    text += to_string(v.kind);
    text += ": ";
    text += v.message;
    text += '\n';
  }
  return text;
}

namespace validation {

ValidationReport Validator::run() {
  for (std::size_t r = 0; r < s_.routes.size(); ++r) check_route(r);
  check_unassigned();
  check_accounting();
  check_shipments();
  if (o_.check_figures) check_summary();
  return std::move(report_);
}

void Validator::report(ViolationKind kind, std::string where, std::string message) {
  report_.violations.push_back(Violation{kind, std::move(where), std::move(message)});
}

void Validator::expect_equal(ViolationKind kind, const std::string& where, std::string_view what,
                             std::int64_t expected, std::int64_t found) {
  if (expected != found)
    report(kind, where,
           std::string(what) + ": expected " + str(expected) + ", found " + str(found));
}

}  // namespace validation

ValidationReport validate(const Problem& problem, const Solution& solution,
                          const ValidateOptions& options) {
  return validation::Validator(problem, solution, options).run();
}

}  // namespace routesolve
