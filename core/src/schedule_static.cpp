// schedule_route's checks that do not depend on timing (schedule_detail.hpp); the timing model
// and the order of the checks are described in schedule.cpp.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "routesolve/error.hpp"
#include "schedule_detail.hpp"

namespace routesolve::schedule_detail {

/// Everything that does not depend on timing. Fills scratch.load_ok for the break DP.
Reason check_static(const Problem& p, std::size_t v, const std::size_t* tasks, std::size_t n,
                    Scratch& s) {
  const Vehicle& veh = p.vehicle(v);
  const std::size_t task_count = p.tasks().size();

  if (s.stamp.size() < task_count) {
    s.stamp.resize(task_count, 0);
    s.pos.resize(task_count, 0);
  }
  if (++s.generation == 0) {
    std::fill(s.stamp.begin(), s.stamp.end(), 0);
    s.generation = 1;
  }
  const std::uint32_t gen = s.generation;
  bool duplicate = false;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t t = tasks[i];
    if (t >= task_count) throw Error(ErrorCode::Internal, "schedule: task index out of range");
    if (s.stamp[t] == gen) duplicate = true;
    s.stamp[t] = gen;
    s.pos[t] = i;
  }

  // Skills.
  for (std::size_t i = 0; i < n; ++i)
    if (!p.compatible(v, tasks[i])) return UnassignedReason::NoCompatibleVehicle;

  // Shipments: both halves, pickup first; no task twice.
  if (duplicate) return UnassignedReason::NotRouted;
  for (std::size_t i = 0; i < n; ++i) {
    const Task& task = p.task(tasks[i]);
    if (task.sibling == kNone) continue;
    if (s.stamp[task.sibling] != gen) return UnassignedReason::NotRouted;
    if (task.type == TaskType::Pickup && s.pos[task.sibling] < i)
      return UnassignedReason::NotRouted;
  }

  std::size_t reloads = 0;
  for (std::size_t i = 0; i < n; ++i) reloads += p.task(tasks[i]).type == TaskType::Reload ? 1 : 0;
  if (veh.max_tasks != kNone && n - reloads > veh.max_tasks) return UnassignedReason::MaxTasks;
  if (reloads + 1 > veh.max_trips) return UnassignedReason::Capacity;

  // Capacity: each trip's load profile (routesolve/hd/segment.hpp), one dimension at a time:
  // the trip's job deliveries are all on board when it begins (at the start or at the reload
  // that begins it), and the load peaks at carried + peak.
  const std::size_t dims = p.dimensions();
  const std::size_t breaks = veh.breaks.size();
  std::vector<LoadProfile>& profile = s.profile;
  s.trip_carried.assign((reloads + 1) * dims, 0);
  profile.assign(dims, LoadProfile{});
  std::size_t trip = 0;
  auto close_trip = [&] {
    for (std::size_t d = 0; d < dims; ++d) {
      if (route_peak(profile[d]) > veh.capacity[d]) return false;
      s.trip_carried[trip * dims + d] = profile[d].carried;
    }
    profile.assign(dims, LoadProfile{});
    ++trip;
    return true;
  };
  for (std::size_t i = 0; i < n; ++i) {
    const Task& task = p.task(tasks[i]);
    if (task.type == TaskType::Reload) {
      if (!close_trip()) return UnassignedReason::Capacity;
      continue;
    }
    const bool job = task.type == TaskType::Job;
    for (std::size_t d = 0; d < dims; ++d)
      profile[d] = merge(profile[d], visit_load(task.delivery[d], task.pickup[d], job));
  }
  if (!close_trip()) return UnassignedReason::Capacity;
  if (breaks > 0) {
    // The load on board after i tasks, for the breaks' max_load: the trip's carried + the net
    // of its tasks so far.
    Amount& load = s.load;
    zero(load, dims);
    for (std::size_t d = 0; d < dims; ++d) load[d] = s.trip_carried[d];
    std::size_t trips_begun = 0;
    s.load_ok.resize((n + 1) * breaks);
    auto note_breaks = [&](std::size_t i) {
      for (std::size_t b = 0; b < breaks; ++b) {
        const auto& max_load = veh.breaks[b].max_load;
        s.load_ok[i * breaks + b] = !max_load || load.fits_in(*max_load) ? 1 : 0;
      }
    };
    note_breaks(0);
    for (std::size_t i = 0; i < n; ++i) {
      const Task& task = p.task(tasks[i]);
      if (task.type == TaskType::Reload) {
        ++trips_begun;
        for (std::size_t d = 0; d < dims; ++d) load[d] = s.trip_carried[trips_begun * dims + d];
      } else {
        const bool job = task.type == TaskType::Job;
        for (std::size_t d = 0; d < dims; ++d)
          load[d] = load_after(load[d], visit_load(task.delivery[d], task.pickup[d], job));
      }
      note_breaks(i + 1);
    }
  }

  // Travel: reachability, then the route totals.
  const TravelView tv = p.travel(v);
  std::size_t prev = veh.start;
  Duration total_duration = 0;
  Distance total_distance = 0;
  auto leg = [&](std::size_t from, std::size_t to) {
    if (from == kNone || to == kNone) return true;
    const auto d = tv.duration(from, to), m = tv.distance(from, to), c = tv.cost(from, to);
    if (d >= kUnreachable || m >= kUnreachable || c >= kUnreachable) return false;
    total_duration += d;
    total_distance += m;
    return true;
  };
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t loc = p.task(tasks[i]).location;
    if (!leg(prev, loc)) return UnassignedReason::Unreachable;
    prev = loc;
  }
  if (!leg(prev, veh.end)) return UnassignedReason::Unreachable;
  if (total_duration > veh.max_travel_time) return UnassignedReason::MaxTravelTime;
  if (total_distance > veh.max_distance) return UnassignedReason::MaxDistance;
  return std::nullopt;
}

}  // namespace routesolve::schedule_detail
