// VROOM problem JSON, vehicles: profile, start and end, capacity, skills, time window, breaks,
// costs, speed factor, route limits and given steps (`steps`: type, id, service_at /
// service_after / service_before).

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "routesolve/error.hpp"
#include "vroom_json_parser.hpp"

namespace routesolve::io::detail {

BreakSpec ProblemParser::vehicle_break(const Json& b, const std::string& path,
                                       std::unordered_map<Id, std::string>& ids) {
  r_.expect_object(b, path);
  BreakSpec br;
  br.id = id(b, path);
  unique(ids, br.id, join_path(path, "id"), "break");
  br.time_windows = time_windows(b, path);
  br.service = integer(b, path, "service");
  br.description = optional_string(b, path, "description");
  if (const Json* max_load = r_.member(b, "max_load"))
    br.max_load = amount(*max_load, join_path(path, "max_load"));
  return br;
}

VehicleStepSpec ProblemParser::vehicle_step(const Json& s, const std::string& path) {
  r_.expect_object(s, path);
  // A misspelt bound would silently drop a constraint: every field of a step must be known.
  static constexpr std::string_view kFields[] = {
      "type", "id", "service_at", "service_after", "service_before", "fixed"};
  for (const auto& [key, value] : s.items())
    if (std::find(std::begin(kFields), std::end(kFields), key) == std::end(kFields))
      r_.fail(join_path(path, key),
              "unknown field of a step (expected type, id, service_at, service_after, "
              "service_before or fixed)");
  VehicleStepSpec step;
  const Json* type = r_.member(s, "type");
  if (type == nullptr)
    r_.fail(join_path(path, "type"),
            "missing (expected start, job, pickup, delivery, break or end)");
  const std::string name = r_.string(*type, join_path(path, "type"));
  static const std::pair<const char*, VehicleStepType> kTypes[] = {
      {"start", VehicleStepType::Start},   {"job", VehicleStepType::Job},
      {"pickup", VehicleStepType::Pickup}, {"delivery", VehicleStepType::Delivery},
      {"break", VehicleStepType::Break},   {"end", VehicleStepType::End}};
  bool known = false;
  for (const auto& [n, t] : kTypes)
    if (name == n) {
      step.type = t;
      known = true;
    }
  if (!known)
    r_.fail(join_path(path, "type"),
            fmt::format(
                "unknown step type \"{}\" (expected start, job, pickup, delivery, break or end)",
                name));
  if (step.type != VehicleStepType::Start && step.type != VehicleStepType::End)
    step.id = id(s, path);
  static const std::pair<const char*, std::optional<Duration> VehicleStepSpec::*> kBounds[] = {
      {"service_at", &VehicleStepSpec::service_at},
      {"service_after", &VehicleStepSpec::service_after},
      {"service_before", &VehicleStepSpec::service_before}};
  for (const auto& [key, field] : kBounds)
    if (const Json* value = r_.member(s, key))
      step.*field = static_cast<Duration>(r_.unsigned_integer(*value, join_path(path, key)));
  if (const Json* fixed = r_.member(s, "fixed")) {  // routesolve's extension (problem.hpp)
    if (!fixed->is_boolean())
      r_.fail(join_path(path, "fixed"),
              fmt::format("expected true or false, got {}", describe(*fixed)));
    step.fixed = fixed->get<bool>();
  }
  return step;
}

// Multi-trip (routesolve's extension): reload_locations, each a [lon, lat] or a matrix index (the
// forms VROOM takes for start and end: `reload_locations` with coordinates, or
// `reload_location_indices`), reload_service and max_trips.
void ProblemParser::reloads(const Json& v, const std::string& path, VehicleSpec& vehicle) {
  const Json* coords = r_.member(v, "reload_locations");
  const Json* indices = r_.member(v, "reload_location_indices");
  if (coords != nullptr && indices != nullptr && coords->is_array() && indices->is_array() &&
      coords->size() != indices->size())
    r_.fail(
        join_path(path, "reload_location_indices"),
        fmt::format("has {} entries, reload_locations has {}", indices->size(), coords->size()));
  std::size_t count = 0;
  if (coords != nullptr) {
    r_.expect_array(*coords, join_path(path, "reload_locations"));
    count = coords->size();
  }
  if (indices != nullptr) {
    r_.expect_array(*indices, join_path(path, "reload_location_indices"));
    count = indices->size();
  }
  for (std::size_t i = 0; i < count; ++i) {
    LocationSpec loc;
    if (coords != nullptr) {
      const std::string p = index_path(join_path(path, "reload_locations"), i);
      const Json& c = (*coords)[i];
      r_.expect_array(c, p);
      if (c.size() != 2)
        r_.fail(p, fmt::format("expected [lon, lat], got an array of {} value(s)", c.size()));
      loc.coords =
          Coordinates{r_.number(c[0], index_path(p, 0)), r_.number(c[1], index_path(p, 1))};
    }
    if (indices != nullptr) {
      const std::string p = index_path(join_path(path, "reload_location_indices"), i);
      loc.index = static_cast<std::size_t>(r_.unsigned_integer((*indices)[i], p));
      index_uses_.push_back({*loc.index, p, vehicle.profile});
    }
    vehicle.reload_locations.push_back(loc);
  }
  if (r_.member(v, "reload_service") != nullptr)
    vehicle.reload_service = integer(v, path, "reload_service");
  if (const Json* mt = r_.member(v, "max_trips")) {
    const std::string p = join_path(path, "max_trips");
    vehicle.max_trips = static_cast<std::size_t>(r_.unsigned_integer(*mt, p));
    if (*vehicle.max_trips == 0) r_.fail(p, "must be at least 1 (found 0)");
  }
}

VehicleSpec ProblemParser::vehicle(const Json& v, const std::string& path) {
  r_.expect_object(v, path);
  VehicleSpec vehicle;
  vehicle.id = id(v, path);
  unique(vehicle_ids_, vehicle.id, join_path(path, "id"), "vehicle");
  if (const Json* profile = r_.member(v, "profile")) {
    vehicle.profile = r_.string(*profile, join_path(path, "profile"));
    if (vehicle.profile.empty())
      r_.fail(join_path(path, "profile"), "expected a profile name, got \"\"");
  }
  const std::size_t first_use = index_uses_.size();
  vehicle.start = location(v, path, "start", "start_index");
  vehicle.end = location(v, path, "end", "end_index");
  // Re-optimisation input (an extension): where the vehicle is now, in start's forms.
  vehicle.current_location = location(v, path, "current_location", "current_location_index");
  for (std::size_t i = first_use; i < index_uses_.size(); ++i)
    index_uses_[i].profile = vehicle.profile;
  vehicle.capacity = optional_amount(v, path, "capacity");
  if (const Json* load = r_.member(v, "current_load"))
    vehicle.current_load = amount(*load, join_path(path, "current_load"));
  vehicle.skills = skills(v, path);
  if (const Json* tw = r_.member(v, "time_window"))
    vehicle.time_window = time_window(*tw, join_path(path, "time_window"));
  if (const Json* breaks = r_.member(v, "breaks")) {
    const std::string p = join_path(path, "breaks");
    r_.expect_array(*breaks, p);
    std::unordered_map<Id, std::string> break_ids;
    for (std::size_t i = 0; i < breaks->size(); ++i)
      vehicle.breaks.push_back(vehicle_break((*breaks)[i], index_path(p, i), break_ids));
  }
  if (const Json* costs = r_.member(v, "costs")) {
    const std::string p = join_path(path, "costs");
    r_.expect_object(*costs, p);
    vehicle.costs.fixed = integer(*costs, p, "fixed");
    if (r_.member(*costs, "per_hour") != nullptr)
      vehicle.costs.per_hour = integer(*costs, p, "per_hour");
    vehicle.costs.per_km = integer(*costs, p, "per_km");
  }
  if (const Json* sf = r_.member(v, "speed_factor")) {
    const std::string p = join_path(path, "speed_factor");
    vehicle.speed_factor = r_.number(*sf, p);
    if (vehicle.speed_factor <= 0)
      r_.fail(p, fmt::format("expected a positive number, got {}", describe(*sf)));
  }
  if (const Json* mt = r_.member(v, "max_tasks"))
    vehicle.max_tasks =
        static_cast<std::size_t>(r_.unsigned_integer(*mt, join_path(path, "max_tasks")));
  if (const Json* mt = r_.member(v, "max_travel_time"))
    vehicle.max_travel_time =
        static_cast<Duration>(r_.unsigned_integer(*mt, join_path(path, "max_travel_time")));
  if (const Json* md = r_.member(v, "max_distance"))
    vehicle.max_distance =
        static_cast<Distance>(r_.unsigned_integer(*md, join_path(path, "max_distance")));
  if (const Json* mw = r_.member(v, "max_working_time"))
    vehicle.max_working_time =
        static_cast<Duration>(r_.unsigned_integer(*mw, join_path(path, "max_working_time")));
  reloads(v, path, vehicle);
  if (const Json* steps = r_.member(v, "steps")) {
    const std::string p = join_path(path, "steps");
    r_.expect_array(*steps, p);
    for (std::size_t i = 0; i < steps->size(); ++i)
      vehicle.steps.push_back(vehicle_step((*steps)[i], index_path(p, i)));
  }
  vehicle.description = optional_string(v, path, "description");
  return vehicle;
}

}  // namespace routesolve::io::detail
