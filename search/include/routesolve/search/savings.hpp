#pragma once
// Construction by savings (Clarke & Wright 1964), parallel version: every job starts on a route
// of its own; pairs (i, j) with j among i's nearest tasks are merged "... i" + "j ..." in
// decreasing order of saving c(i, end) + c(start, j) - c(i, j) while the merged route stays
// feasible under the segment model. Used where it fits: one class of interchangeable vehicles
// and jobs only (CVRP and VRPTW); regret insertion covers everything else.

#include <cstddef>
#include <optional>
#include <vector>

#include "routesolve/search/neighbours.hpp"
#include "routesolve/search/search_control.hpp"
#include "routesolve/search/vehicle_classes.hpp"
#include "routesolve/search/working_solution.hpp"

namespace routesolve::search {

/// The savings plan of the insertable tasks, or nullopt when the problem is not of that kind,
/// the routes outnumber the vehicles, or the deadline (time limit or stop flag) passed first
/// (polled every few thousand merges: a SIGINT is honoured within milliseconds).
std::optional<TourPlan> savings_plan(const SegmentModel& model, const VehicleClasses& classes,
                                     const Neighbours& near,
                                     const std::vector<std::size_t>& insertable,
                                     const Deadline& deadline = Deadline(0.0, nullptr));

}  // namespace routesolve::search
