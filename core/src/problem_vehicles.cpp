// Problem::create, vehicles: the profiles they use, each vehicle with normalised capacity, skills,
// time window and breaks, and which vehicle may serve which task (skills).

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "problem_build.hpp"
#include "routesolve/error.hpp"

namespace routesolve {

using problem_build::filled;
using problem_build::idx;
using problem_build::sorted_unique;

// Profiles used by vehicles, in order of first use; locations() is the smallest of their sizes.
void ProblemBuilder::index_profiles() {
  for (std::size_t v = 0; v < spec.vehicles.size(); ++v) {
    const std::string& name = spec.vehicles[v].profile;
    if (profile_index.count(name)) continue;
    const auto it = spec.matrices.find(name);
    if (it == spec.matrices.end())
      check.fail(idx("vehicles", v) + ".profile", "no matrices for profile '" + name + "'");
    profile_index.emplace(name, pr.profile_names_.size());
    pr.profile_names_.push_back(name);
    min_size = std::min(min_size, it->second.durations.size());
  }
  pr.locations_ = min_size;
}

// Multi-trip: one reload task per possible reload at each reload location, appended after the
// jobs and shipments (their indices stay those of a problem without reloads). A reload unloads
// what the trip picked up and loads what the next trip delivers, so a shipment may not ride
// through one: multi-trip vehicles and shipments together are refused.
void ProblemBuilder::add_reloads(const VehicleSpec& vs, const std::string& base, Vehicle& veh) {
  check.duration(vs.reload_service, base + ".reload_service");
  veh.reload_service = vs.reload_service;
  if (vs.max_trips && *vs.max_trips == 0)
    check.fail(base + ".max_trips", "must be at least 1 (found 0)");
  if (vs.reload_locations.empty()) {
    veh.max_trips = 1;
    return;
  }
  if (vs.reload_locations.size() > kMaxReloadLocations)
    check.fail(base + ".reload_locations", "at most " + std::to_string(kMaxReloadLocations) +
                                               " locations (found " +
                                               std::to_string(vs.reload_locations.size()) + ")");
  if (!spec.shipments.empty())
    throw Error(ErrorCode::Unsupported,
                (spec.source.empty() ? std::string() : spec.source + ": ") + base +
                    ".reload_locations: multi-trip vehicles with shipments are not supported");
  const std::size_t routable = pr.routable_tasks_;
  std::size_t trips = 1;
  if (vs.max_trips) {
    trips = *vs.max_trips;
  } else {
    // Default: enough trips for this vehicle alone to carry every task's load.
    for (std::size_t d = 0; d < dims; ++d) {
      if (veh.capacity[d] <= 0 || veh.capacity[d] >= kMaxTime) continue;
      std::int64_t total = 0;
      for (std::size_t t = 0; t < routable; ++t)
        total += pr.tasks_[t].delivery[d] + pr.tasks_[t].pickup[d];
      trips = std::max<std::size_t>(
          trips, static_cast<std::size_t>((total + veh.capacity[d] - 1) / veh.capacity[d]));
    }
  }
  veh.max_trips = trips;
  // More reloads than tasks are never useful: at most one between two tasks.
  const std::size_t per_location = std::min(trips - 1, routable > 0 ? routable - 1 : 0);
  for (std::size_t l = 0; l < vs.reload_locations.size(); ++l) {
    const std::string lbase = idx(base + ".reload_locations", l);
    const std::size_t loc = location(vs.reload_locations[l], lbase);
    for (std::size_t k = 0; k < per_location; ++k) {
      Task t;
      t.type = TaskType::Reload;
      t.id = veh.reloads.size();
      t.location = loc;
      t.coords = vs.reload_locations[l].coords;
      t.service = vs.reload_service;
      t.delivery = Amount(dims);
      t.pickup = Amount(dims);
      t.time_windows = {TimeWindow{0, kMaxTime}};
      t.source_index = pr.vehicles_.size();  // the owner
      veh.reloads.push_back(pr.tasks_.size());
      pr.tasks_.push_back(std::move(t));
    }
  }
}

void ProblemBuilder::add_vehicles() {
  pr.routable_tasks_ = pr.tasks_.size();
  std::set<Id> seen_vehicles;
  for (std::size_t v = 0; v < spec.vehicles.size(); ++v) {
    const VehicleSpec& vs = spec.vehicles[v];
    const std::string base = idx("vehicles", v);
    if (!seen_vehicles.insert(vs.id).second)
      check.fail(base + ".id", "duplicate vehicle id " + std::to_string(vs.id));
    Vehicle veh;
    veh.id = vs.id;
    veh.profile = profile_index.at(vs.profile);
    if (!vs.start && !vs.end) check.fail(base, "a vehicle needs a start or an end location");
    if (vs.start) {
      veh.start = location(*vs.start, base + ".start");
      veh.start_coords = vs.start->coords;
    }
    if (vs.end) {
      veh.end = location(*vs.end, base + ".end");
      veh.end_coords = vs.end->coords;
    }
    check.amount(vs.capacity, dims, base + ".capacity");
    veh.capacity = filled(vs.capacity, dims, kMaxTime);
    veh.skills = sorted_unique(vs.skills);
    {
      const auto tw = check.windows({vs.time_window}, base + ".time_window");
      veh.time_window = tw.front();
    }
    std::set<Id> seen_breaks;
    for (std::size_t b = 0; b < vs.breaks.size(); ++b) {
      const BreakSpec& bs = vs.breaks[b];
      const std::string bbase = idx(base + ".breaks", b);
      if (!seen_breaks.insert(bs.id).second)
        check.fail(bbase + ".id", "duplicate break id " + std::to_string(bs.id));
      Break br;
      br.id = bs.id;
      br.time_windows = check.windows(bs.time_windows, bbase + ".time_windows");
      check.duration(bs.service, bbase + ".service");
      br.service = bs.service;
      if (bs.max_load) {
        check.amount(*bs.max_load, dims, bbase + ".max_load");
        // An empty max_load sets no limit, like an empty capacity.
        if (!bs.max_load->empty() || dims == 0) br.max_load = filled(*bs.max_load, dims, kMaxTime);
      }
      br.description = bs.description;
      veh.breaks.push_back(std::move(br));
    }
    veh.max_tasks = vs.max_tasks.value_or(kNone);
    if (vs.max_travel_time) {
      check.non_negative(*vs.max_travel_time, base + ".max_travel_time");
      veh.max_travel_time = std::min(*vs.max_travel_time, kMaxTime);
    }
    if (vs.max_distance) {
      check.non_negative(*vs.max_distance, base + ".max_distance");
      veh.max_distance = std::min(*vs.max_distance, kMaxTime);
    }
    check.non_negative(vs.costs.fixed, base + ".costs.fixed");
    check.non_negative(vs.costs.per_hour, base + ".costs.per_hour");
    check.non_negative(vs.costs.per_km, base + ".costs.per_km");
    veh.costs = vs.costs;
    if (!(vs.speed_factor > 0.0) || vs.speed_factor > 5.0)
      check.fail(base + ".speed_factor",
                 "must be in (0, 5] (found " + std::to_string(vs.speed_factor) + ")");
    veh.speed_factor = vs.speed_factor;
    if (vs.max_working_time) {
      check.non_negative(*vs.max_working_time, base + ".max_working_time");
      veh.max_working_time = std::min(*vs.max_working_time, kMaxTime);
    }
    add_reloads(vs, base, veh);
    veh.description = vs.description;
    pr.vehicle_by_id_[veh.id] = v;
    pr.vehicles_.push_back(std::move(veh));
  }
}

// A vehicle may serve a task when it has every skill the task requires; a reload only by the
// vehicle it belongs to.
void ProblemBuilder::fill_compatibility() {
  // Vehicles with the same skills and no reloads of their own share a row: a CVRPLIB file
  // without VEHICLES has as many vehicles as customers, and a row each would be an n x n table
  // (900 MB at 30,000).
  std::map<std::pair<std::vector<std::uint32_t>, std::size_t>, std::size_t> rows;
  pr.compatible_.clear();
  pr.compatible_row_.assign(pr.vehicles_.size(), 0);
  for (std::size_t v = 0; v < pr.vehicles_.size(); ++v) {
    const auto& vs = pr.vehicles_[v].skills;
    const std::size_t owner = pr.vehicles_[v].reloads.empty() ? kNone : v;
    const auto [it, added] = rows.emplace(std::make_pair(vs, owner), pr.compatible_.size());
    pr.compatible_row_[v] = it->second;
    if (!added) continue;
    std::vector<char>& row = pr.compatible_.emplace_back(pr.tasks_.size(), 0);
    for (std::size_t t = 0; t < pr.tasks_.size(); ++t) {
      const auto& ts = pr.tasks_[t].skills;
      row[t] = std::includes(vs.begin(), vs.end(), ts.begin(), ts.end()) ? 1 : 0;
    }
    for (std::size_t t = pr.routable_tasks_; t < pr.tasks_.size(); ++t) row[t] = 0;
    for (std::size_t t : pr.vehicles_[v].reloads) row[t] = 1;  // its own reloads only
  }
}

}  // namespace routesolve
