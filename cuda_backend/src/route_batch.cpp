// Route batches built from a Problem: plans (task order) or solution routes (steps), borrowing
// the problem's travel matrices; and the Problem-level entry points of both evaluation paths.

#include <cstdint>
#include <string>
#include <vector>

#include "routesolve/cuda/route_eval.hpp"
#include "routesolve/error.hpp"

namespace routesolve::cuda {
namespace {

std::int32_t location_or_none(std::size_t location) {
  return location == kNone ? kNoLocation : static_cast<std::int32_t>(location);
}

RouteBatch empty_batch(const Problem& problem) {
  RouteBatch batch;
  batch.travel.reserve(problem.travel_count());
  for (std::size_t t = 0; t < problem.travel_count(); ++t)
    batch.travel.push_back(problem.travel_by_index(t));
  return batch;
}

const Vehicle& vehicle_of(const Problem& problem, std::size_t v, const std::string& where) {
  if (v >= problem.vehicles().size())
    throw Error(ErrorCode::InvalidInput,
                where + ".vehicle: index " + std::to_string(v) + " out of range (" +
                    std::to_string(problem.vehicles().size()) + " vehicles)");
  return problem.vehicle(v);
}

}  // namespace

RouteBatch make_route_batch(const Problem& problem, const std::vector<RoutePlan>& plans) {
  RouteBatch batch = empty_batch(problem);
  std::vector<std::uint32_t> visits;
  for (std::size_t p = 0; p < plans.size(); ++p) {
    const std::string where = "plans[" + std::to_string(p) + "]";
    const Vehicle& vehicle = vehicle_of(problem, plans[p].vehicle, where);
    visits.clear();
    for (std::size_t i = 0; i < plans[p].visits.size(); ++i) {
      const PlannedVisit& visit = plans[p].visits[i];
      if (visit.is_break) continue;  // taken where the vehicle is: no travel
      if (visit.index >= problem.tasks().size())
        throw Error(ErrorCode::InvalidInput, where + ".visits[" + std::to_string(i) +
                                                 "]: task index " + std::to_string(visit.index) +
                                                 " out of range");
      visits.push_back(static_cast<std::uint32_t>(problem.task(visit.index).location));
    }
    batch.add_route(static_cast<std::uint32_t>(vehicle.travel), location_or_none(vehicle.start),
                    location_or_none(vehicle.end), visits);
  }
  return batch;
}

RouteBatch make_route_batch(const Problem& problem, const std::vector<Route>& routes) {
  RouteBatch batch = empty_batch(problem);
  std::vector<std::uint32_t> visits;
  for (std::size_t r = 0; r < routes.size(); ++r) {
    const std::string where = "routes[" + std::to_string(r) + "]";
    const Vehicle& vehicle = vehicle_of(problem, routes[r].vehicle, where);
    std::int32_t start = kNoLocation, end = kNoLocation;
    visits.clear();
    for (std::size_t s = 0; s < routes[r].steps.size(); ++s) {
      const Step& step = routes[r].steps[s];
      switch (step.type) {
        case StepType::Start:
          start = location_or_none(step.location);
          break;
        case StepType::End:
          end = location_or_none(step.location);
          break;
        case StepType::Break:
          break;  // no travel
        case StepType::Job:
        case StepType::Pickup:
        case StepType::Delivery:
        case StepType::Reload:  // a multi-trip vehicle's return to a depot: travelled like a task
          if (step.location == kNone)
            throw Error(ErrorCode::InvalidInput,
                        where + ".steps[" + std::to_string(s) + "]: task step without a location");
          visits.push_back(static_cast<std::uint32_t>(step.location));
          break;
      }
    }
    batch.add_route(static_cast<std::uint32_t>(vehicle.travel), start, end, visits);
  }
  return batch;
}

std::vector<RouteTotals> evaluate_routes_host(const Problem& problem,
                                              const std::vector<RoutePlan>& plans) {
  return evaluate_routes_host(make_route_batch(problem, plans));
}

std::vector<RouteTotals> evaluate_routes_host(const Problem& problem,
                                              const std::vector<Route>& routes) {
  return evaluate_routes_host(make_route_batch(problem, routes));
}

std::vector<RouteTotals> evaluate_routes_device(const Problem& problem,
                                                const std::vector<RoutePlan>& plans,
                                                const DeviceEvalOptions& options) {
  return evaluate_routes_device(make_route_batch(problem, plans), options);
}

std::vector<RouteTotals> evaluate_routes_device(const Problem& problem,
                                                const std::vector<Route>& routes,
                                                const DeviceEvalOptions& options) {
  return evaluate_routes_device(make_route_batch(problem, routes), options);
}

}  // namespace routesolve::cuda
