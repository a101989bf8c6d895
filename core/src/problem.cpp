// Problem: Problem::create as a sequence of named steps (problem_build.hpp says which file holds
// each), and the accessors of the built Problem.

#include "routesolve/problem.hpp"

#include <cmath>
#include <utility>

#include "problem_build.hpp"

namespace routesolve {

std::shared_ptr<const Problem> Problem::create(ProblemSpec spec) {
  auto p = std::shared_ptr<Problem>(new Problem());
  {
    ProblemBuilder build(spec, *p);
    build.check_presence_and_scales();
    build.read_dimensions();
    build.check_matrices();
    p->dimensions_ = build.dims;
    build.index_profiles();
    build.add_jobs();
    build.add_shipments();
    build.add_vehicles();
    build.derive_cost_units();
    build.fill_travel_tables();
    build.fill_compatibility();
    build.add_steps();
    build.check_dispatch_state();
  }
  p->spec_ = std::move(spec);
  return p;
}

TravelView Problem::travel(std::size_t v) const { return travel_by_index(vehicles_[v].travel); }

TravelView Problem::travel_by_index(std::size_t t) const {
  const TravelData& td = travel_[t];
  TravelView view;
  view.n = td.n;
  view.durations = td.durations;
  view.distances = td.distances;
  view.costs = td.costs;
  return view;
}

// The cost table is a spec matrix itself only where fill_travel_tables found every arc's cost
// equal to that matrix's entry; a converted table is the problem's own copy, never planar.
const PlanarSource* Problem::planar_costs(std::size_t v) const {
  const TravelData& td = travel_[vehicles_[v].travel];
  const ProfileMatrices& m = spec_.matrices.at(profile_names_[td.profile]);
  for (const Matrix* x : {&m.durations, &m.distances, m.costs ? &*m.costs : nullptr})
    if (x != nullptr && x->planar() != nullptr && x->storage() == td.costs.data())
      return x->planar();
  return nullptr;
}

// fixed * D / g == fixed * cost_scale(): exact, and checked against overflow in create().
Cost Problem::fixed_cost(std::size_t v) const {
  return vehicles_[v].costs.fixed * static_cast<Cost>(cost_scale_);
}

Cost Problem::balance_cost(Duration longest) const {
  if (spec_.balance <= 0.0 || longest <= 0) return 0;
  const long double units =
      static_cast<long double>(spec_.balance) * static_cast<long double>(longest) *
      static_cast<long double>(cost_scale_) / static_cast<long double>(spec_.scale.time);
  return units >= static_cast<long double>(kMaxTime) ? kMaxTime
                                                     : static_cast<Cost>(std::llround(units));
}

// Per-hour / per-km arcs cost travel * c.hour + distance * c.km internal units (problem_costs.cpp),
// so `arcs` is the route's exact cost and arcs / cost_scale() its user cost.
Cost Problem::route_cost(std::size_t v, Duration travel, Distance distance, Cost arcs) const {
  const Cost fixed = fixed_cost(v);
  const Vehicle& veh = vehicles_[v];
  if (route_rounding_ == RouteRounding::None ||
      spec_.matrices.at(profile_names_[veh.profile]).costs)
    return fixed + arcs;
  const auto scale = static_cast<Cost>(cost_scale_);
  if (route_rounding_ == RouteRounding::Down) return fixed + arcs / scale * scale;
  if (spec_.scale.time == 1.0 && spec_.scale.distance == 1.0) {
    // VROOM's own arithmetic (CostWrapper::user_cost_from_user_metrics): doubles, then + 0.5.
    const double user =
        static_cast<double>(travel) * static_cast<double>(veh.costs.per_hour) / 3600.0 +
        static_cast<double>(distance) * static_cast<double>(veh.costs.per_km) / 1000.0;
    return fixed + static_cast<Cost>(user + 0.5) * scale;
  }
  return fixed + (arcs + scale / 2) / scale * scale;  // scaled units (an extension): exact half up
}

std::size_t Problem::find_task(TaskType type, Id id) const {
  const auto it = task_by_id_.find({static_cast<int>(type), id});
  return it == task_by_id_.end() ? kNone : it->second;
}

std::size_t Problem::find_vehicle(Id id) const {
  const auto it = vehicle_by_id_.find(id);
  return it == vehicle_by_id_.end() ? kNone : it->second;
}

bool Problem::has_steps() const noexcept {
  for (const Vehicle& v : vehicles_)
    if (!v.steps.empty()) return true;
  return false;
}

bool Problem::has_reloads() const noexcept {
  for (const Vehicle& v : vehicles_)
    if (!v.reloads.empty()) return true;
  return false;
}

}  // namespace routesolve
