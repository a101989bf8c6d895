// VROOM output JSON -> Solution: the figures in output units multiplied back by the problem's
// UnitScale and cost_scale() and rounded to the nearest integer; errors name the JSON path.

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "routesolve/error.hpp"
#include "routesolve/io/formats.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "vroom_names.hpp"
#include "vroom_reader.hpp"

namespace routesolve::io {

namespace {

using detail::index_path;
using detail::join_path;
using detail::Json;
using detail::kReasons;
using detail::kStepNames;

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
      r_.fail(type_path, fmt::format("unknown step type \"{}\" (expected start, job, pickup, "
                                     "delivery, break, end or reload)",
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
                fmt::format("vehicle {} has no reload left at location {}", route.vehicle_id,
                            st.location));
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

Solution parse_vroom_solution(std::string_view text, const std::string& source,
                              const Problem& problem) {
  const Json root = detail::parse_json_text(text, source);
  return SolutionParser(source, problem).parse(root);
}

Solution read_vroom_solution(const std::filesystem::path& file, const Problem& problem) {
  return parse_vroom_solution(read_text_file(file), file.string(), problem);
}

}  // namespace routesolve::io
