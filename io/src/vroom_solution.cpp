// Solution <-> VROOM output JSON. Internal integer units are converted with the problem's
// UnitScale (time, distance) and cost_scale() (cost): integers when a scale is 1, otherwise
// numbers rounded to 3 decimals; the parser multiplies back and rounds to the nearest integer.

#include <fmt/format.h>

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
#include "vroom_reader.hpp"

namespace routesolve::io {

namespace {

using detail::index_path;
using detail::join_path;
using detail::Json;
using OJson = nlohmann::ordered_json;

// VROOM's names for step and task types (fixed by VROOM's format, not by to_string()).
constexpr std::array<std::pair<StepType, std::string_view>, 7> kStepNames{{
    {StepType::Start, "start"},
    {StepType::Job, "job"},
    {StepType::Pickup, "pickup"},
    {StepType::Delivery, "delivery"},
    {StepType::Break, "break"},
    {StepType::End, "end"},
    {StepType::Reload, "reload"},  // multi-trip: routesolve's extension
}};

constexpr std::array<UnassignedReason, 10> kReasons{
    UnassignedReason::NoCompatibleVehicle, UnassignedReason::Capacity,
    UnassignedReason::TimeWindow,          UnassignedReason::MaxTasks,
    UnassignedReason::MaxTravelTime,       UnassignedReason::MaxDistance,
    UnassignedReason::Unreachable,         UnassignedReason::Break,
    UnassignedReason::NotRouted,           UnassignedReason::MaxWorkingTime,
};

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
    out["cost"] = scaled(s.cost, cost_);
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
    out["cost"] = scaled(r.cost, cost_);
    totals(out, r);
    if (vehicle != nullptr && !vehicle->description.empty())
      out["description"] = vehicle->description;
    OJson steps = OJson::array();
    for (const auto& s : r.steps) steps.push_back(step(s, vehicle));
    out["steps"] = std::move(steps);
    out["violations"] = violations(r.violations);
    if (geometry_ != nullptr)
      if (const auto path = route_path(r, vehicle)) out["geometry"] = encode_polyline(*path);
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
      if (s.type == StepType::Start && vehicle != nullptr) c = vehicle->start_coords;
      else if (s.type == StepType::End && vehicle != nullptr) c = vehicle->end_coords;
      else if (s.task < problem_.tasks().size()) c = problem_.task(s.task).coords;
      if (!c) return std::nullopt;
      auto add = [&](const Coordinates& x) {
        if (path.empty() || !(path.back() == x)) path.push_back(x);
      };
      const auto leg = previous == kNone ? geometry_->end() : geometry_->find({previous, s.location});
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
        if (vehicle != nullptr) coords = vehicle->start_coords;
        break;
      case StepType::End:
        if (vehicle != nullptr) coords = vehicle->end_coords;
        break;
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

// ---- parsing
// -------------------------------------------------------------------------------------

class SolutionParser {
 public:
  SolutionParser(const std::string& source, const Problem& problem)
      : r_(source),
        problem_(problem),
        time_(problem.spec().scale.time),
        distance_(problem.spec().scale.distance),
        cost_(problem.cost_scale()) {}

  Solution parse(const Json& root) {
    if (!root.is_object())
      r_.fail("", fmt::format("expected a JSON object at the top level, got {}",
                              detail::describe(root)));
    Solution solution;
    if (const Json* routes = r_.member(root, "routes")) {
      r_.expect_array(*routes, "routes");
      for (std::size_t i = 0; i < routes->size(); ++i)
        solution.routes.push_back(route((*routes)[i], index_path("routes", i)));
    }
    if (const Json* unassigned = r_.member(root, "unassigned")) {
      r_.expect_array(*unassigned, "unassigned");
      for (std::size_t i = 0; i < unassigned->size(); ++i)
        solution.unassigned.push_back(
            unassigned_entry((*unassigned)[i], index_path("unassigned", i)));
    }
    if (const Json* summary = r_.member(root, "summary")) {
      r_.expect_object(*summary, "summary");
      solution.summary = summary_of(*summary, "summary");
      if (const Json* times = r_.member(*summary, "computing_times")) {
        const std::string p = "summary.computing_times";
        r_.expect_object(*times, p);
        for (const auto& [stage, ms] : times->items())
          solution.profile.push_back(
              {stage, r_.non_negative_number(ms, join_path(p, stage)) / 1000.0});
      }
      if (const Json* fallback = r_.member(*summary, "fallback"))
        solution.fallback = r_.string(*fallback, "summary.fallback");
      if (const Json* mismatches = r_.member(*summary, "mismatches"))
        solution.mismatches = r_.unsigned_integer(*mismatches, "summary.mismatches");
    }
    if (const Json* backend = r_.member(root, "backend"))
      solution.backend = r_.string(*backend, "backend");
    return solution;
  }

 private:
  // A figure in output units back to internal units (absent = 0).
  std::int64_t figure(const Json& obj, const std::string& path, std::string_view key,
                      double scale) const {
    const Json* v = r_.member(obj, key);
    if (v == nullptr) return 0;
    const std::string p = join_path(path, key);
    if (scale == 1.0 && !v->is_number_float())
      return static_cast<std::int64_t>(r_.unsigned_integer(*v, p));
    const double scaled = std::round(r_.non_negative_number(*v, p) * scale);
    if (scaled > static_cast<double>(kMaxTime))
      r_.fail(p, fmt::format("{} is too large", detail::describe(*v)));
    return static_cast<std::int64_t>(scaled);
  }

  Amount optional_amount(const Json& obj, const std::string& path, std::string_view key) const {
    const Json* v = r_.member(obj, key);
    return v == nullptr ? Amount() : r_.amount(*v, join_path(path, key));
  }

  int priority(const Json& obj, const std::string& path) const {
    const Json* v = r_.member(obj, "priority");
    if (v == nullptr) return 0;
    return static_cast<int>(r_.unsigned_integer(*v, join_path(path, "priority"), 1u << 30));
  }

  template <typename Totals>
  void totals(Totals& t, const Json& obj, const std::string& path) const {
    t.setup = figure(obj, path, "setup", time_);
    t.service = figure(obj, path, "service", time_);
    t.duration = figure(obj, path, "duration", time_);
    t.waiting_time = figure(obj, path, "waiting_time", time_);
    t.distance = figure(obj, path, "distance", distance_);
    t.priority = priority(obj, path);
    t.delivery = optional_amount(obj, path, "delivery");
    t.pickup = optional_amount(obj, path, "pickup");
  }

  Summary summary_of(const Json& s, const std::string& path) const {
    Summary out;
    out.cost = figure(s, path, "cost", cost_);
    if (const Json* v = r_.member(s, "routes"))
      out.routes = static_cast<std::size_t>(r_.unsigned_integer(*v, join_path(path, "routes")));
    if (const Json* v = r_.member(s, "unassigned"))
      out.unassigned =
          static_cast<std::size_t>(r_.unsigned_integer(*v, join_path(path, "unassigned")));
    totals(out, s, path);
    if (const Json* b = r_.member(s, "balance")) {
      const std::string bp = join_path(path, "balance");
      r_.expect_object(*b, bp);
      out.longest_working_time = figure(*b, bp, "longest_working_time", time_);
      out.balance_cost = figure(*b, bp, "cost", cost_);
    }
    return out;
  }

  std::optional<StepType> step_type(std::string_view name) const {
    for (const auto& [t, n] : kStepNames)
      if (n == name) return t;
    return std::nullopt;
  }

  TaskType task_type(const Json& value, const std::string& path) const {
    const std::string name = r_.string(value, path);
    if (name == "job") return TaskType::Job;
    if (name == "pickup") return TaskType::Pickup;
    if (name == "delivery") return TaskType::Delivery;
    r_.fail(path, fmt::format("unknown task type \"{}\" (expected job, pickup or delivery)", name));
  }

  Step step(const Json& s, const std::string& path, std::size_t vehicle) const {
    r_.expect_object(s, path);
    Step out;
    const std::string type_path = join_path(path, "type");
    const std::string type_name = r_.string(r_.required(s, path, "type"), type_path);
    const auto type = step_type(type_name);
    if (!type)
      r_.fail(type_path,
              fmt::format(
                  "unknown step type \"{}\" (expected start, job, pickup, delivery, break, end or reload)",
                  type_name));
    out.type = *type;
    switch (out.type) {
      case StepType::Job:
      case StepType::Pickup:
      case StepType::Delivery: {
        out.id = r_.id(r_.required(s, path, "id"), join_path(path, "id"));
        const TaskType t = out.type == StepType::Job      ? TaskType::Job
                           : out.type == StepType::Pickup ? TaskType::Pickup
                                                          : TaskType::Delivery;
        out.task = problem_.find_task(t, out.id);
        if (out.task != kNone) out.location = problem_.task(out.task).location;
        break;
      }
      case StepType::Break:
        if (const Json* id = r_.member(s, "id")) out.id = r_.id(*id, join_path(path, "id"));
        break;
      case StepType::Start:
        if (vehicle != kNone) out.location = problem_.vehicle(vehicle).start;
        break;
      case StepType::End:
        if (vehicle != kNone) out.location = problem_.vehicle(vehicle).end;
        break;
      case StepType::Reload:
        break;  // its task: one of the vehicle's reloads at its location (route())
    }
    // What the file says wins, so that the validator can report a wrong location.
    if (const Json* index = r_.member(s, "location_index"))
      out.location =
          static_cast<std::size_t>(r_.unsigned_integer(*index, join_path(path, "location_index")));
    out.arrival = figure(s, path, "arrival", time_);
    out.setup = figure(s, path, "setup", time_);
    out.service = figure(s, path, "service", time_);
    out.waiting_time = figure(s, path, "waiting_time", time_);
    out.duration = figure(s, path, "duration", time_);
    out.distance = figure(s, path, "distance", distance_);
    out.load = optional_amount(s, path, "load");
    return out;
  }

  Route route(const Json& r, const std::string& path) const {
    r_.expect_object(r, path);
    Route out;
    out.vehicle_id = r_.id(r_.required(r, path, "vehicle"), join_path(path, "vehicle"));
    out.vehicle = problem_.find_vehicle(out.vehicle_id);
    out.cost = figure(r, path, "cost", cost_);
    totals(out, r, path);
    if (const Json* steps = r_.member(r, "steps")) {
      const std::string p = join_path(path, "steps");
      r_.expect_array(*steps, p);
      for (std::size_t i = 0; i < steps->size(); ++i)
        out.steps.push_back(step((*steps)[i], index_path(p, i), out.vehicle));
      assign_reloads(out, p);
    }
    return out;
  }

  /// Each reload step gets the next unused reload task of the vehicle at its location.
  void assign_reloads(Route& route, const std::string& path) const {
    std::vector<char> used;
    for (std::size_t i = 0; i < route.steps.size(); ++i) {
      Step& st = route.steps[i];
      if (st.type != StepType::Reload) continue;
      const std::string p = index_path(path, i);
      if (route.vehicle == kNone) continue;  // the validator reports the unknown vehicle
      const std::vector<std::size_t>& reloads = problem_.vehicle(route.vehicle).reloads;
      used.resize(reloads.size(), 0);
      if (st.location == kNone) r_.fail(p, "a reload step needs a location_index");
      for (std::size_t k = 0; k < reloads.size() && st.task == kNone; ++k) {
        if (used[k] || problem_.task(reloads[k]).location != st.location) continue;
        used[k] = 1;
        st.task = reloads[k];
        st.id = problem_.task(reloads[k]).id;
      }
      if (st.task == kNone)
        r_.fail(join_path(p, "location_index"),
                fmt::format("vehicle {} has no reload left at location {}", route.vehicle_id, st.location));
    }
  }

  Unassigned unassigned_entry(const Json& u, const std::string& path) const {
    r_.expect_object(u, path);
    Unassigned out;
    out.id = r_.id(r_.required(u, path, "id"), join_path(path, "id"));
    if (const Json* type = r_.member(u, "type"))
      out.type = task_type(*type, join_path(path, "type"));
    out.task = problem_.find_task(out.type, out.id);
    // Reasons are routesolve's; files from VROOM itself carry none.
    if (const Json* reason = r_.member(u, "reason")) {
      const std::string p = join_path(path, "reason");
      const std::string name = r_.string(*reason, p);
      bool known = false;
      for (const auto candidate : kReasons) {
        if (to_string(candidate) == name) {
          out.reason = candidate;
          known = true;
        }
      }
      if (!known) {
        std::string names;
        for (const auto candidate : kReasons)
          names += fmt::format("{}\"{}\"", names.empty() ? "" : ", ", to_string(candidate));
        r_.fail(p, fmt::format("unknown reason \"{}\" (expected one of {})", name, names));
      }
    }
    return out;
  }

  detail::JsonReader r_;
  const Problem& problem_;
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

Solution parse_vroom_solution(std::string_view text, const std::string& source,
                              const Problem& problem) {
  const Json root = detail::parse_json_text(text, source);
  return SolutionParser(source, problem).parse(root);
}

Solution read_vroom_solution(const std::filesystem::path& file, const Problem& problem) {
  return parse_vroom_solution(read_text_file(file), file.string(), problem);
}

}  // namespace routesolve::io
