#pragma once
// Pre-check of every task alone: can any vehicle serve it (with its sibling for shipments)?

#include <optional>
#include <vector>

#include "routesolve/search/vehicle_classes.hpp"
#include "routesolve/solution.hpp"

namespace routesolve::search {

/// Per task: nullopt when some vehicle serves it alone; otherwise the most informative reason
/// seen (NoCompatibleVehicle when no vehicle has the skills). Both halves of a shipment share
/// the verdict of the pair.
std::vector<std::optional<UnassignedReason>> precheck_tasks(const Problem& problem,
                                                            const VehicleClasses& classes);

}  // namespace routesolve::search
