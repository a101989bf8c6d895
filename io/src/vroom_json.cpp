// VROOM problem JSON -> ProblemSpec, with errors naming the file and the JSON path: the document's
// sections in order, and the field values every section reads (vroom_json_parser.hpp lists the
// other parts).

#include "routesolve/io/vroom_json.hpp"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "routesolve/io/formats.hpp"
#include "vroom_json_parser.hpp"

namespace routesolve::io::detail {

ProblemSpec ProblemParser::parse(const Json& root) {
  if (!root.is_object())
    r_.fail("", fmt::format("expected a JSON object at the top level, got {}", describe(root)));
  ProblemSpec spec;
  spec.source = r_.source();
  spec.name = std::filesystem::path(r_.source()).stem().string();
  spec.route_costs = RouteCostRule::Vroom;  // a route's `cost` means what VROOM's does

  if (const Json* jobs = r_.member(root, "jobs")) {
    r_.expect_array(*jobs, "jobs");
    spec.jobs.reserve(jobs->size());
    for (std::size_t i = 0; i < jobs->size(); ++i)
      spec.jobs.push_back(job((*jobs)[i], index_path("jobs", i)));
  }
  if (const Json* shipments = r_.member(root, "shipments")) {
    r_.expect_array(*shipments, "shipments");
    spec.shipments.reserve(shipments->size());
    for (std::size_t i = 0; i < shipments->size(); ++i)
      spec.shipments.push_back(shipment((*shipments)[i], index_path("shipments", i)));
  }
  const Json& vehicles = r_.required(root, "", "vehicles");
  r_.expect_array(vehicles, "vehicles");
  spec.vehicles.reserve(vehicles.size());
  for (std::size_t i = 0; i < vehicles.size(); ++i)
    spec.vehicles.push_back(vehicle(vehicles[i], index_path("vehicles", i)));

  // Re-optimisation input (an extension): the tasks already served, each a job id or
  // {"type": "job" | "pickup" | "delivery", "id": ...}.
  if (const Json* done = r_.member(root, "done")) {
    r_.expect_array(*done, "done");
    for (std::size_t k = 0; k < done->size(); ++k) {
      const Json& entry = (*done)[k];
      const std::string p = index_path("done", k);
      TaskRef ref;
      if (entry.is_object()) {
        const std::string type = r_.string(r_.required(entry, p, "type"), join_path(p, "type"));
        if (type == "job")
          ref.type = TaskType::Job;
        else if (type == "pickup")
          ref.type = TaskType::Pickup;
        else if (type == "delivery")
          ref.type = TaskType::Delivery;
        else
          r_.fail(join_path(p, "type"),
                  fmt::format("unknown task type \"{}\" (expected job, pickup or delivery)", type));
        ref.id = id(entry, p);
      } else if (entry.is_number_integer() || entry.is_number_unsigned()) {
        ref.id = r_.id(entry, p);
      } else {
        r_.fail(p,
                fmt::format("expected a job id or {{\"type\", \"id\"}}, got {}", describe(entry)));
      }
      spec.done.push_back(ref);
    }
  }
  if (const Json* matrices = r_.member(root, "matrices")) {
    r_.expect_object(*matrices, "matrices");
    for (const auto& [profile, m] : matrices->items())
      spec.matrices[profile] = profile_matrices(m, join_path("matrices", profile));
  }
  if (const Json* legacy = r_.member(root, "matrix")) {
    auto& car = spec.matrices["car"];
    if (!car.durations.empty()) r_.fail("matrix", "given together with 'matrices.car.durations'");
    car.durations = matrix(*legacy, "matrix");
    check_same_size(car, "matrices.car");
  }
  if (const Json* options = r_.member(root, "options")) {
    r_.expect_object(*options, "options");
    if (const Json* g = r_.member(*options, "g")) {
      if (!g->is_boolean())
        r_.fail("options.g", fmt::format("expected true or false, got {}", describe(*g)));
      spec.geometry = g->get<bool>();
    }
    for (const char* key : {"l", "time_limit"})
      if (const Json* l = r_.member(*options, key))
        spec.time_limit_s = r_.non_negative_number(*l, std::string("options.") + key);
    // An extension: the balance objective's weight (see ProblemSpec::balance).
    if (const Json* b = r_.member(*options, "balance")) {
      const double w = r_.non_negative_number(*b, "options.balance");
      if (w > 1e9)
        r_.fail("options.balance", fmt::format("{} is too large (at most 1e9)", describe(*b)));
      spec.balance = w;
    }
    // The timeline the solution reports ("earliest" is an extension; see ProblemSpec::timeline).
    if (const Json* t = r_.member(*options, "timeline")) {
      const std::string name = r_.string(*t, "options.timeline");
      spec.timeline = timeline_from_string(name);
      if (!spec.timeline)
        r_.fail("options.timeline",
                fmt::format("unknown timeline \"{}\" (expected vroom or earliest)", name));
    }
  }
  check_matrix_use(spec);
  return spec;
}

// An optional non-negative integer field (durations, costs), 0 when absent.
std::int64_t ProblemParser::integer(const Json& obj, const std::string& path,
                                    std::string_view key) {
  const Json* v = r_.member(obj, key);
  return v == nullptr ? 0
                      : static_cast<std::int64_t>(r_.unsigned_integer(*v, join_path(path, key)));
}

std::string ProblemParser::optional_string(const Json& obj, const std::string& path,
                                           std::string_view key) {
  const Json* v = r_.member(obj, key);
  return v == nullptr ? std::string() : r_.string(*v, join_path(path, key));
}

Id ProblemParser::id(const Json& obj, const std::string& path) {
  return r_.id(r_.required(obj, path, "id"), join_path(path, "id"));
}

// Every amount of a problem has the same number of dimensions (VROOM's rule).
Amount ProblemParser::amount(const Json& value, const std::string& path) {
  Amount a = r_.amount(value, path);
  if (!dimensions_) {
    dimensions_ = std::make_pair(a.size(), path);
  } else if (dimensions_->first != a.size()) {
    r_.fail(path, fmt::format(
                      "has {} dimension(s), but {} has {}; every amount must have the same number",
                      a.size(), dimensions_->second, dimensions_->first));
  }
  return a;
}

Amount ProblemParser::optional_amount(const Json& obj, const std::string& path,
                                      std::string_view key) {
  const Json* v = r_.member(obj, key);
  return v == nullptr ? Amount() : amount(*v, join_path(path, key));
}

std::vector<std::uint32_t> ProblemParser::skills(const Json& obj, const std::string& path) {
  std::vector<std::uint32_t> out;
  const Json* v = r_.member(obj, "skills");
  if (v == nullptr) return out;
  const std::string p = join_path(path, "skills");
  r_.expect_array(*v, p);
  out.reserve(v->size());
  for (std::size_t i = 0; i < v->size(); ++i)
    out.push_back(
        static_cast<std::uint32_t>(r_.unsigned_integer((*v)[i], index_path(p, i), 0xffffffffu)));
  return out;
}

int ProblemParser::priority(const Json& obj, const std::string& path) {
  const Json* v = r_.member(obj, "priority");
  if (v == nullptr) return 0;
  bool ok = false;
  int value = 0;
  if (v->is_number_unsigned()) {
    ok = v->get<std::uint64_t>() <= 100;
    value = ok ? static_cast<int>(v->get<std::uint64_t>()) : 0;
  } else if (v->is_number_float()) {
    const double d = v->get<double>();
    ok = std::isfinite(d) && d == std::floor(d) && d >= 0 && d <= 100;
    value = ok ? static_cast<int>(d) : 0;
  }
  if (!ok)
    r_.fail(join_path(path, "priority"),
            fmt::format("expected an integer from 0 to 100, got {}", describe(*v)));
  return value;
}

TimeWindow ProblemParser::time_window(const Json& value, const std::string& path) {
  r_.expect_array(value, path);
  if (value.size() != 2)
    r_.fail(path, fmt::format("expected [start, end], got an array of {} value(s)", value.size()));
  TimeWindow tw;
  tw.start = static_cast<Duration>(r_.unsigned_integer(value[0], index_path(path, 0)));
  tw.end = static_cast<Duration>(r_.unsigned_integer(value[1], index_path(path, 1)));
  if (tw.start > tw.end) r_.fail(path, fmt::format("start {} is after end {}", tw.start, tw.end));
  return tw;
}

std::vector<TimeWindow> ProblemParser::time_windows(const Json& obj, const std::string& path) {
  std::vector<TimeWindow> out;
  const Json* v = r_.member(obj, "time_windows");
  if (v == nullptr) return out;
  const std::string p = join_path(path, "time_windows");
  r_.expect_array(*v, p);
  out.reserve(v->size());
  for (std::size_t i = 0; i < v->size(); ++i) out.push_back(time_window((*v)[i], index_path(p, i)));
  return out;
}

// `location` ([lon, lat]) and/or `location_index` (or start/start_index, end/end_index).
std::optional<LocationSpec> ProblemParser::location(const Json& obj, const std::string& path,
                                                    std::string_view coords_key,
                                                    std::string_view index_key) {
  const Json* coords = r_.member(obj, coords_key);
  const Json* index = r_.member(obj, index_key);
  if (coords == nullptr && index == nullptr) return std::nullopt;
  LocationSpec loc;
  if (coords != nullptr) {
    const std::string p = join_path(path, coords_key);
    r_.expect_array(*coords, p);
    if (coords->size() != 2)
      r_.fail(p, fmt::format("expected [lon, lat], got an array of {} value(s)", coords->size()));
    loc.coords = Coordinates{r_.number((*coords)[0], index_path(p, 0)),
                             r_.number((*coords)[1], index_path(p, 1))};
  }
  if (index != nullptr) {
    const std::string p = join_path(path, index_key);
    loc.index = static_cast<std::size_t>(r_.unsigned_integer(*index, p));
    index_uses_.push_back({*loc.index, p, std::nullopt});
  }
  return loc;
}

LocationSpec ProblemParser::required_location(const Json& obj, const std::string& path) {
  auto loc = location(obj, path, "location", "location_index");
  if (!loc) r_.fail(path, "needs a 'location' or a 'location_index'");
  return *loc;
}

void ProblemParser::unique(std::unordered_map<Id, std::string>& seen, Id value,
                           const std::string& path, std::string_view what) {
  const auto [it, inserted] = seen.emplace(value, path);
  if (!inserted)
    r_.fail(path, fmt::format("duplicate {} id {} (already used by {})", what, value, it->second));
}

}  // namespace routesolve::io::detail

namespace routesolve::io {

ProblemSpec parse_vroom_problem(std::string_view text, const std::string& source) {
  const detail::Json root = detail::parse_json_text(text, source);
  return detail::ProblemParser(source).parse(root);
}

ProblemSpec read_vroom_problem(const std::filesystem::path& file) {
  return parse_vroom_problem(read_text_file(file), file.string());
}

}  // namespace routesolve::io
