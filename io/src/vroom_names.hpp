#pragma once
// VROOM's names for step types and unassigned reasons, shared by the solution writer
// (vroom_solution.cpp) and reader (vroom_solution_reader.cpp).

#include <array>
#include <string_view>
#include <utility>

#include "routesolve/solution.hpp"

namespace routesolve::io::detail {

// VROOM's names for step and task types (fixed by VROOM's format, not by to_string()).
inline constexpr std::array<std::pair<StepType, std::string_view>, 7> kStepNames{{
    {StepType::Start, "start"},
    {StepType::Job, "job"},
    {StepType::Pickup, "pickup"},
    {StepType::Delivery, "delivery"},
    {StepType::Break, "break"},
    {StepType::End, "end"},
    {StepType::Reload, "reload"},  // multi-trip: routesolve's extension
}};

inline constexpr std::array<UnassignedReason, 10> kReasons{
    UnassignedReason::NoCompatibleVehicle, UnassignedReason::Capacity,
    UnassignedReason::TimeWindow,          UnassignedReason::MaxTasks,
    UnassignedReason::MaxTravelTime,       UnassignedReason::MaxDistance,
    UnassignedReason::Unreachable,         UnassignedReason::Break,
    UnassignedReason::NotRouted,           UnassignedReason::MaxWorkingTime,
};

}  // namespace routesolve::io::detail
