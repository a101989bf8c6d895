// Solution -> VROOM output JSON. Internal integer units are converted with the problem's
// UnitScale (time, distance) and cost_scale() (cost): integers when a scale is 1, otherwise
// numbers rounded to 3 decimals; the reader (vroom_solution_reader.cpp) multiplies back and
// rounds to the nearest integer.

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "routesolve/error.hpp"
#include "routesolve/io/formats.hpp"
#include "routesolve/io/polyline.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "vroom_names.hpp"
#include "vroom_reader.hpp"

namespace routesolve::io {

namespace {

using OJson = nlohmann::ordered_json;
using detail::kStepNames;

std::string_view step_name(StepType type) {
  for (const auto& [t, name] : kStepNames)
    if (t == type) return name;
  return "job";
}

// Internal units -> output units: exact integers at scale 1, else 3 decimals.
OJson scaled(std::int64_t value, double scale) {
  if (scale == 1.0) return OJson(value);
  return OJson(std::round(static_cast<double>(value) / scale * 1000.0) / 1000.0);
}

OJson amount_json(const Amount& a) {
  OJson out = OJson::array();
  for (const auto v : a) out.push_back(v);
  return out;
}

OJson coords_json(const Coordinates& c) { return OJson::array({c.lon, c.lat}); }

class SolutionWriter {
 public:
  SolutionWriter(const Problem& problem, const LegLines* geometry = nullptr)
      : problem_(problem),
        geometry_(geometry),
        time_(problem.spec().scale.time),
        distance_(problem.spec().scale.distance),
        cost_(problem.cost_scale()) {}

  OJson write(const Solution& solution) const {
    OJson out = OJson::object();
    out["code"] = 0;
    out["summary"] = summary(solution);
    OJson unassigned = OJson::array();
    for (const auto& u : solution.unassigned) unassigned.push_back(unassigned_json(u));
    out["unassigned"] = std::move(unassigned);
    OJson routes = OJson::array();
    for (const auto& r : solution.routes) routes.push_back(route(r));
    out["routes"] = std::move(routes);
    out["backend"] = solution.backend;
    return out;
  }

 private:
  // A cost VROOM rounded to its unit (Problem::route_cost) is written as VROOM writes it: an
  // integer.
  OJson cost(Cost value) const {
    const auto unit = static_cast<Cost>(cost_);
    if (problem_.rounds_route_costs() && cost_ != 1.0 && value % unit == 0)
      return OJson(value / unit);
    return scaled(value, cost_);
  }

  // Fields shared by the summary and each route, in VROOM's order.
  template <typename Totals>
  void totals(OJson& out, const Totals& t) const {
    out["setup"] = scaled(t.setup, time_);
    out["service"] = scaled(t.service, time_);
    out["duration"] = scaled(t.duration, time_);
    out["waiting_time"] = scaled(t.waiting_time, time_);
    out["priority"] = t.priority;
    if (problem_.has_distances()) out["distance"] = scaled(t.distance, distance_);
    out["delivery"] = amount_json(t.delivery);
    out["pickup"] = amount_json(t.pickup);
  }

  /// VROOM's `violations`: [{"cause": ..., "duration": ...}], the duration for times only.
  OJson violations(const std::vector<PlanViolation>& list) const {
    OJson out = OJson::array();
    for (const PlanViolation& v : list) {
      OJson one = OJson::object();
      one["cause"] = v.cause;
      if (v.cause == "delay" || v.cause == "lead_time") one["duration"] = scaled(v.duration, time_);
      out.push_back(std::move(one));
    }
    return out;
  }

  OJson summary(const Solution& solution) const {
    const Summary& s = solution.summary;
    OJson out = OJson::object();
    out["cost"] = cost(s.cost);
    out["routes"] = s.routes;
    out["unassigned"] = s.unassigned;
    totals(out, s);
    out["violations"] = violations(s.violations);
    OJson times = OJson::object();  // VROOM reports milliseconds
    for (const auto& stage : solution.profile)
      times[stage.stage] = std::llround(stage.seconds * 1000.0);
    out["computing_times"] = std::move(times);
    // Not VROOM's: the balance term (an extension, "options": {"balance": W}) that `cost`
    // includes, and the longest route's working time it is computed from.
    if (problem_.spec().balance > 0.0) {
      OJson balance = OJson::object();
      balance["weight"] = problem_.spec().balance;
      balance["longest_working_time"] = scaled(s.longest_working_time, time_);
      balance["cost"] = scaled(s.balance_cost, cost_);
      out["balance"] = std::move(balance);
    }
    // Not VROOM's: the backend that really ran, why it is not the one asked for, and device
    // results that did not check out (VROOM readers ignore unknown summary fields).
    if (!solution.backend.empty()) out["backend"] = solution.backend;
    if (!solution.fallback.empty()) out["fallback"] = solution.fallback;
    if (solution.mismatches > 0) out["mismatches"] = solution.mismatches;
    return out;
  }

  OJson unassigned_json(const Unassigned& u) const {
    OJson out = OJson::object();
    out["id"] = u.id;
    out["type"] = to_string(u.type);
    if (u.task < problem_.tasks().size()) {
      const Task& t = problem_.task(u.task);
      if (t.coords) out["location"] = coords_json(*t.coords);
      out["location_index"] = t.location;
      if (!t.description.empty()) out["description"] = t.description;
    }
    out["reason"] = to_string(u.reason);
    return out;
  }

  OJson route(const Route& r) const {
    const Vehicle* vehicle =
        r.vehicle < problem_.vehicles().size() ? &problem_.vehicle(r.vehicle) : nullptr;
    OJson out = OJson::object();
    out["vehicle"] = vehicle != nullptr ? vehicle->id : r.vehicle_id;
    out["cost"] = cost(r.cost);
    totals(out, r);
    if (vehicle != nullptr && !vehicle->description.empty())
      out["description"] = vehicle->description;
    OJson steps = OJson::array();
    const bool located = std::any_of(r.steps.begin(), r.steps.end(),
                                     [](const Step& s) { return s.location != kNone; });
    if (located && r.steps.front().type != StepType::Start)
      steps.push_back(step(open_start(r), vehicle));
    for (const auto& s : r.steps) steps.push_back(step(s, vehicle));
    if (located && r.steps.back().type != StepType::End)
      steps.push_back(step(open_end(r), vehicle));
    out["steps"] = std::move(steps);
    out["violations"] = violations(r.violations);
    if (geometry_ != nullptr)
      if (const auto path = route_path(r, vehicle)) out["geometry"] = encode_polyline(*path);
    return out;
  }

  /// VROOM's start step of a route without a start location: at the first task, when the route
  /// begins, with the load it leaves with.
  Step open_start(const Route& r) const {
    Step out;
    out.type = StepType::Start;
    const auto first = std::find_if(r.steps.begin(), r.steps.end(),
                                    [](const Step& s) { return s.location != kNone; });
    out.location = first->location;
    out.task = first->task;
    out.arrival = r.steps.front().arrival;
    out.load = r.steps.front().load;  // before the first step: undo what its task loads
    if (r.steps.front().task < problem_.tasks().size()) {
      const Task& t = problem_.task(r.steps.front().task);
      if (t.pickup.size() == out.load.size()) out.load -= t.pickup;
      if (t.delivery.size() == out.load.size()) out.load += t.delivery;
    }
    return out;
  }

  /// VROOM's end step of a route without an end location: at the last task, when the last step
  /// is done, with the figures of that step.
  static Step open_end(const Route& r) {
    Step out;
    out.type = StepType::End;
    const auto last = std::find_if(r.steps.rbegin(), r.steps.rend(),
                                   [](const Step& s) { return s.location != kNone; });
    out.location = last->location;
    out.task = last->task;
    const Step& done = r.steps.back();
    out.arrival = done.arrival + done.waiting_time + done.setup + done.service;
    out.duration = done.duration;
    out.distance = done.distance;
    out.load = done.load;
    return out;
  }

  /// The route's path through its located steps, each leg along `geometry_` when it has the leg
  /// (a road path), else straight; none when a located step has no coordinates.
  std::optional<std::vector<Coordinates>> route_path(const Route& r, const Vehicle* vehicle) const {
    std::vector<Coordinates> path;
    std::size_t previous = kNone;
    for (const Step& s : r.steps) {
      if (s.location == kNone) continue;
      std::optional<Coordinates> c;
      if (s.type == StepType::Start && vehicle != nullptr)
        c = vehicle->start_coords;
      else if (s.type == StepType::End && vehicle != nullptr)
        c = vehicle->end_coords;
      else if (s.task < problem_.tasks().size())
        c = problem_.task(s.task).coords;
      if (!c) return std::nullopt;
      auto add = [&](const Coordinates& x) {
        if (path.empty() || !(path.back() == x)) path.push_back(x);
      };
      const auto leg =
          previous == kNone ? geometry_->end() : geometry_->find({previous, s.location});
      if (leg != geometry_->end() && leg->second.size() >= 2)
        for (const Coordinates& x : leg->second) add(x);
      else
        add(*c);
      previous = s.location;
    }
    if (path.empty()) return std::nullopt;
    return path;
  }

  OJson step(const Step& s, const Vehicle* vehicle) const {
    OJson out = OJson::object();
    out["type"] = step_name(s.type);
    std::optional<Coordinates> coords;
    std::string description;
    switch (s.type) {
      case StepType::Start:
      case StepType::End: {  // a route without that location ends (starts) at a task
        const bool start = s.type == StepType::Start;
        if (vehicle != nullptr) coords = start ? vehicle->start_coords : vehicle->end_coords;
        if (!coords && s.task < problem_.tasks().size()) coords = problem_.task(s.task).coords;
        break;
      }
      case StepType::Break:
        out["id"] = s.id;
        if (vehicle != nullptr)
          for (const auto& b : vehicle->breaks)
            if (b.id == s.id) description = b.description;
        break;
      case StepType::Job:
      case StepType::Pickup:
      case StepType::Delivery:
        out["id"] = s.id;
        if (s.task < problem_.tasks().size()) {
          coords = problem_.task(s.task).coords;
          description = problem_.task(s.task).description;
        }
        break;
      case StepType::Reload:  // no id: the location says which depot
        if (s.task < problem_.tasks().size()) coords = problem_.task(s.task).coords;
        break;
    }
    if (coords) out["location"] = coords_json(*coords);
    if (s.location != kNone) out["location_index"] = s.location;
    out["setup"] = scaled(s.setup, time_);
    out["service"] = scaled(s.service, time_);
    out["waiting_time"] = scaled(s.waiting_time, time_);
    out["load"] = amount_json(s.load);
    out["arrival"] = scaled(s.arrival, time_);
    out["duration"] = scaled(s.duration, time_);
    if (problem_.has_distances()) out["distance"] = scaled(s.distance, distance_);
    if (!description.empty()) out["description"] = description;
    out["violations"] = violations(s.violations);
    return out;
  }

  const Problem& problem_;
  const LegLines* geometry_;
  double time_, distance_, cost_;
};

}  // namespace

void write_vroom_solution(std::ostream& out, const Problem& problem, const Solution& solution,
                          const LegLines* geometry) {
  out << SolutionWriter(problem, geometry).write(solution).dump() << '\n';
}

std::string vroom_solution_to_string(const Problem& problem, const Solution& solution) {
  std::ostringstream out;
  write_vroom_solution(out, problem, solution);
  return out.str();
}

}  // namespace routesolve::io
