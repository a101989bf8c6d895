// VROOM problem JSON -> ProblemSpec, with errors naming the file and the JSON path, and the
// JSON reading helpers shared with the solution parser (vroom_reader.hpp).

#include "routesolve/io/vroom_json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "routesolve/error.hpp"
#include "routesolve/io/formats.hpp"
#include "vroom_reader.hpp"

namespace routesolve::io {

namespace detail {

namespace {

struct TextPosition {
  std::size_t line = 1;
  std::size_t column = 1;
};

// Line and column (1-based) of the byte at `offset` (0-based); offsets past the end point just
// after the last character.
TextPosition position_of(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  TextPosition pos;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++pos.line;
      line_start = i + 1;
    }
  }
  pos.column = offset - line_start + 1;
  return pos;
}

// Parser messages quote what they read; binary input must not reach the terminal raw.
std::string printable(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f)
      out += fmt::format("\\x{:02x}", u);
    else
      out += c;
  }
  return out;
}

[[noreturn]] void fail_at(std::string_view text, const std::string& source, std::size_t offset,
                          std::string_view reason) {
  const TextPosition pos = position_of(text, offset);
  throw invalid_input(
      fmt::format("{}:{}:{}", source.empty() ? "<input>" : source, pos.line, pos.column),
      fmt::format("malformed JSON: {}", reason));
}

// nlohmann's parser is iterative but some of its consumers are not; refuse deep nesting before
// parsing, pointing at the bracket that goes too deep.
void check_depth(std::string_view text, const std::string& source) {
  std::size_t depth = 0;
  bool in_string = false;
  bool escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
      continue;
    }
    switch (c) {
      case '"':
        in_string = true;
        break;
      case '[':
      case '{':
        if (++depth > kMaxJsonDepth)
          fail_at(text, source, i, fmt::format("nested deeper than {} levels", kMaxJsonDepth));
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      default:
        break;
    }
  }
}

// Builds the DOM like json::parse but records the position of a parse error (number overflow
// included, which json::parse reports without one).
class PositionedDomParser {
 public:
  using number_integer_t = Json::number_integer_t;
  using number_unsigned_t = Json::number_unsigned_t;
  using number_float_t = Json::number_float_t;
  using string_t = Json::string_t;
  using binary_t = Json::binary_t;

  explicit PositionedDomParser(Json& root) : dom_(root, false) {}

  bool null() { return dom_.null(); }
  bool boolean(bool v) { return dom_.boolean(v); }
  bool number_integer(number_integer_t v) { return dom_.number_integer(v); }
  bool number_unsigned(number_unsigned_t v) { return dom_.number_unsigned(v); }
  bool number_float(number_float_t v, const string_t& s) { return dom_.number_float(v, s); }
  bool string(string_t& v) { return dom_.string(v); }
  bool binary(binary_t& v) { return dom_.binary(v); }
  bool start_object(std::size_t n) { return dom_.start_object(n); }
  bool key(string_t& v) { return dom_.key(v); }
  bool end_object() { return dom_.end_object(); }
  bool start_array(std::size_t n) { return dom_.start_array(n); }
  bool end_array() { return dom_.end_array(); }
  bool parse_error(std::size_t byte, const std::string& /*token*/,
                   const nlohmann::detail::exception& ex) {
    error_byte = byte;
    error = ex.what();
    return false;
  }

  std::size_t error_byte = 0;
  std::string error;

 private:
  nlohmann::detail::json_sax_dom_parser<Json> dom_;
};

// "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..." ->
// "syntax error ..." (we print our own position).
std::string reason_of(const std::string& what) {
  std::string reason = what;
  if (const auto bracket = reason.find("] ");
      reason.rfind("[json.exception.", 0) == 0 && bracket != std::string::npos)
    reason = reason.substr(bracket + 2);
  if (const auto col = reason.find(", column "); col != std::string::npos) {
    if (const auto colon = reason.find(": ", col); colon != std::string::npos)
      reason = reason.substr(colon + 2);
  }
  return printable(reason);
}

}  // namespace

Json parse_json_text(std::string_view text, const std::string& source) {
  const std::string where = source.empty() ? "<input>" : source;
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
    throw invalid_input(where, "empty input: expected a JSON object");
  if (text.find('\0') != std::string_view::npos)
    throw invalid_input(where, "binary data (NUL bytes): expected a JSON text");
  check_depth(text, source);

  Json root;
  PositionedDomParser sax(root);
  const bool ok =
      Json::sax_parse(text.begin(), text.end(), &sax, nlohmann::detail::input_format_t::json, true);
  if (!ok) {
    // nlohmann positions are 1-based byte counts of what was read: the offending byte is before.
    const std::size_t offset = sax.error_byte > 0 ? sax.error_byte - 1 : 0;
    fail_at(text, source, offset,
            sax.error.empty() ? std::string("parse error") : reason_of(sax.error));
  }
  return root;
}

std::string join_path(const std::string& path, std::string_view key) {
  if (path.empty()) return std::string(key);
  std::string out = path;
  out += '.';
  out += key;
  return out;
}

std::string index_path(const std::string& path, std::size_t i) {
  return fmt::format("{}[{}]", path, i);
}

std::string describe(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::boolean:
      return value.get<bool>() ? "true" : "false";
    case Json::value_t::object:
      return "an object";
    case Json::value_t::array:
      return "an array";
    case Json::value_t::string: {
      const auto& s = value.get_ref<const std::string&>();
      if (s.size() > 40) return fmt::format("\"{}...\"", printable(s.substr(0, 40)));
      return fmt::format("\"{}\"", printable(s));
    }
    case Json::value_t::number_integer:
      return std::to_string(value.get<std::int64_t>());
    case Json::value_t::number_unsigned:
      return std::to_string(value.get<std::uint64_t>());
    case Json::value_t::number_float: {
      const double d = value.get<double>();
      if (!std::isfinite(d)) return "a non-finite number";
      return value.dump();
    }
    default:
      return "an unsupported value";
  }
}

void JsonReader::fail(const std::string& path, std::string_view what) const {
  std::string where = source_;
  if (!path.empty()) where = where.empty() ? path : fmt::format("{}: {}", where, path);
  if (where.empty()) where = "<input>";
  throw invalid_input(where, what);
}

void JsonReader::expect_object(const Json& value, const std::string& path) const {
  if (!value.is_object()) fail(path, fmt::format("expected an object, got {}", describe(value)));
}

void JsonReader::expect_array(const Json& value, const std::string& path) const {
  if (!value.is_array()) fail(path, fmt::format("expected an array, got {}", describe(value)));
}

const Json* JsonReader::member(const Json& obj, std::string_view key) const {
  const auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

const Json& JsonReader::required(const Json& obj, const std::string& path,
                                 std::string_view key) const {
  const Json* v = member(obj, key);
  if (v == nullptr) fail(path, fmt::format("missing required field '{}'", key));
  return *v;
}

std::uint64_t JsonReader::unsigned_integer(const Json& value, const std::string& path,
                                           std::uint64_t max) const {
  const auto expected = [&](std::string_view got) -> std::string {
    return fmt::format("expected a non-negative integer, got {}", got);
  };
  if (value.is_number_unsigned()) {
    const auto u = value.get<std::uint64_t>();
    if (u > max) fail(path, fmt::format("{} (at most {})", expected(std::to_string(u)), max));
    return u;
  }
  if (value.is_number_integer()) {  // nlohmann stores only negative integers here
    const auto i = value.get<std::int64_t>();
    if (i < 0) fail(path, expected(std::to_string(i)));
    if (static_cast<std::uint64_t>(i) > max)
      fail(path, fmt::format("{} (at most {})", expected(std::to_string(i)), max));
    return static_cast<std::uint64_t>(i);
  }
  if (value.is_number_float()) {
    const double d = value.get<double>();
    if (!std::isfinite(d) || d != std::floor(d) || d < 0) fail(path, expected(describe(value)));
    // 2^64 is exactly representable; anything at or above it cannot be a uint64.
    if (d >= 18446744073709551616.0 || static_cast<std::uint64_t>(d) > max)
      fail(path, fmt::format("{} (at most {})", expected(describe(value)), max));
    return static_cast<std::uint64_t>(d);
  }
  fail(path, expected(describe(value)));
}

double JsonReader::number(const Json& value, const std::string& path) const {
  if (!value.is_number()) fail(path, fmt::format("expected a number, got {}", describe(value)));
  const double d = value.get<double>();
  if (!std::isfinite(d)) fail(path, "expected a finite number");
  return d;
}

double JsonReader::non_negative_number(const Json& value, const std::string& path) const {
  const double d = number(value, path);
  if (d < 0) fail(path, fmt::format("expected a non-negative number, got {}", describe(value)));
  return d;
}

std::string JsonReader::string(const Json& value, const std::string& path) const {
  if (!value.is_string()) fail(path, fmt::format("expected a string, got {}", describe(value)));
  return value.get<std::string>();
}

Amount JsonReader::amount(const Json& value, const std::string& path) const {
  expect_array(value, path);
  std::vector<std::int64_t> values;
  values.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i)
    values.push_back(static_cast<std::int64_t>(unsigned_integer(value[i], index_path(path, i))));
  return Amount(std::move(values));
}

}  // namespace detail

namespace {

using detail::index_path;
using detail::join_path;
using detail::Json;

class ProblemParser {
 public:
  explicit ProblemParser(const std::string& source) : r_(source) {}

  ProblemSpec parse(const Json& root) {
    if (!root.is_object())
      r_.fail("", fmt::format("expected a JSON object at the top level, got {}",
                              detail::describe(root)));
    ProblemSpec spec;
    spec.source = r_.source();
    spec.name = std::filesystem::path(r_.source()).stem().string();

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
    check_matrix_use(spec);
    return spec;
  }

 private:
  // ---- values
  // ------------------------------------------------------------------------------------

  // An optional non-negative integer field (durations, costs), 0 when absent.
  std::int64_t integer(const Json& obj, const std::string& path, std::string_view key) {
    const Json* v = r_.member(obj, key);
    return v == nullptr ? 0
                        : static_cast<std::int64_t>(r_.unsigned_integer(*v, join_path(path, key)));
  }

  std::string optional_string(const Json& obj, const std::string& path, std::string_view key) {
    const Json* v = r_.member(obj, key);
    return v == nullptr ? std::string() : r_.string(*v, join_path(path, key));
  }

  Id id(const Json& obj, const std::string& path) {
    return r_.id(r_.required(obj, path, "id"), join_path(path, "id"));
  }

  // Every amount of a problem has the same number of dimensions (VROOM's rule).
  Amount amount(const Json& value, const std::string& path) {
    Amount a = r_.amount(value, path);
    if (!dimensions_) {
      dimensions_ = std::make_pair(a.size(), path);
    } else if (dimensions_->first != a.size()) {
      r_.fail(
          path,
          fmt::format("has {} dimension(s), but {} has {}; every amount must have the same number",
                      a.size(), dimensions_->second, dimensions_->first));
    }
    return a;
  }

  Amount optional_amount(const Json& obj, const std::string& path, std::string_view key) {
    const Json* v = r_.member(obj, key);
    return v == nullptr ? Amount() : amount(*v, join_path(path, key));
  }

  std::vector<std::uint32_t> skills(const Json& obj, const std::string& path) {
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

  int priority(const Json& obj, const std::string& path) {
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
              fmt::format("expected an integer from 0 to 100, got {}", detail::describe(*v)));
    return value;
  }

  TimeWindow time_window(const Json& value, const std::string& path) {
    r_.expect_array(value, path);
    if (value.size() != 2)
      r_.fail(path,
              fmt::format("expected [start, end], got an array of {} value(s)", value.size()));
    TimeWindow tw;
    tw.start = static_cast<Duration>(r_.unsigned_integer(value[0], index_path(path, 0)));
    tw.end = static_cast<Duration>(r_.unsigned_integer(value[1], index_path(path, 1)));
    if (tw.start > tw.end) r_.fail(path, fmt::format("start {} is after end {}", tw.start, tw.end));
    return tw;
  }

  std::vector<TimeWindow> time_windows(const Json& obj, const std::string& path) {
    std::vector<TimeWindow> out;
    const Json* v = r_.member(obj, "time_windows");
    if (v == nullptr) return out;
    const std::string p = join_path(path, "time_windows");
    r_.expect_array(*v, p);
    out.reserve(v->size());
    for (std::size_t i = 0; i < v->size(); ++i)
      out.push_back(time_window((*v)[i], index_path(p, i)));
    return out;
  }

  // `location` ([lon, lat]) and/or `location_index` (or start/start_index, end/end_index).
  std::optional<LocationSpec> location(const Json& obj, const std::string& path,
                                       std::string_view coords_key, std::string_view index_key) {
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

  LocationSpec required_location(const Json& obj, const std::string& path) {
    auto loc = location(obj, path, "location", "location_index");
    if (!loc) r_.fail(path, "needs a 'location' or a 'location_index'");
    return *loc;
  }

  void unique(std::unordered_map<Id, std::string>& seen, Id value, const std::string& path,
              std::string_view what) {
    const auto [it, inserted] = seen.emplace(value, path);
    if (!inserted)
      r_.fail(path,
              fmt::format("duplicate {} id {} (already used by {})", what, value, it->second));
  }

  // ---- objects
  // -----------------------------------------------------------------------------------

  JobSpec job(const Json& j, const std::string& path) {
    r_.expect_object(j, path);
    JobSpec job;
    job.id = id(j, path);
    unique(job_ids_, job.id, join_path(path, "id"), "job");
    job.location = required_location(j, path);
    job.setup = integer(j, path, "setup");
    job.service = integer(j, path, "service");
    job.delivery = optional_amount(j, path, "delivery");
    if (r_.member(j, "delivery") == nullptr)
      job.delivery = optional_amount(j, path, "amount");  // legacy
    job.pickup = optional_amount(j, path, "pickup");
    job.skills = skills(j, path);
    job.priority = priority(j, path);
    job.time_windows = time_windows(j, path);
    job.description = optional_string(j, path, "description");
    return job;
  }

  ShipmentStepSpec shipment_step(const Json& s, const std::string& path,
                                 std::unordered_map<Id, std::string>& ids, std::string_view what) {
    r_.expect_object(s, path);
    ShipmentStepSpec step;
    step.id = id(s, path);
    unique(ids, step.id, join_path(path, "id"), what);
    step.location = required_location(s, path);
    step.setup = integer(s, path, "setup");
    step.service = integer(s, path, "service");
    step.time_windows = time_windows(s, path);
    step.description = optional_string(s, path, "description");
    return step;
  }

  ShipmentSpec shipment(const Json& s, const std::string& path) {
    r_.expect_object(s, path);
    ShipmentSpec shipment;
    shipment.pickup = shipment_step(r_.required(s, path, "pickup"), join_path(path, "pickup"),
                                    pickup_ids_, "pickup");
    shipment.delivery = shipment_step(r_.required(s, path, "delivery"), join_path(path, "delivery"),
                                      delivery_ids_, "delivery");
    shipment.amount = optional_amount(s, path, "amount");
    shipment.skills = skills(s, path);
    shipment.priority = priority(s, path);
    return shipment;
  }

  BreakSpec vehicle_break(const Json& b, const std::string& path,
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

  VehicleSpec vehicle(const Json& v, const std::string& path) {
    r_.expect_object(v, path);
    VehicleSpec vehicle;
    vehicle.id = id(v, path);
    unique(vehicle_ids_, vehicle.id, join_path(path, "id"), "vehicle");
    if (r_.member(v, "steps") != nullptr)
      throw Error(
          ErrorCode::Unsupported,
          fmt::format("{}: {}: vehicle steps (a fixed initial route) are not supported",
                      r_.source().empty() ? "<input>" : r_.source(), join_path(path, "steps")));
    if (const Json* profile = r_.member(v, "profile")) {
      vehicle.profile = r_.string(*profile, join_path(path, "profile"));
      if (vehicle.profile.empty())
        r_.fail(join_path(path, "profile"), "expected a profile name, got \"\"");
    }
    const std::size_t first_use = index_uses_.size();
    vehicle.start = location(v, path, "start", "start_index");
    vehicle.end = location(v, path, "end", "end_index");
    for (std::size_t i = first_use; i < index_uses_.size(); ++i)
      index_uses_[i].profile = vehicle.profile;
    vehicle.capacity = optional_amount(v, path, "capacity");
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
        r_.fail(p, fmt::format("expected a positive number, got {}", detail::describe(*sf)));
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
    vehicle.description = optional_string(v, path, "description");
    return vehicle;
  }

  // ---- matrices
  // ----------------------------------------------------------------------------------

  Matrix matrix(const Json& m, const std::string& path) {
    r_.expect_array(m, path);
    const std::size_t n = m.size();
    if (n == 0) r_.fail(path, "empty matrix");
    std::vector<std::int64_t> data;
    data.reserve(n * n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::string row_path = index_path(path, i);
      const Json& row = m[i];
      r_.expect_array(row, row_path);
      if (row.size() != n)
        r_.fail(row_path,
                fmt::format(
                    "row has {} entries, expected {} (the matrix has {} rows and must be square)",
                    row.size(), n, n));
      for (std::size_t j = 0; j < n; ++j) {
        // Entries at or above kUnreachable mean "no path"; larger ones are clamped to it. Paths
        // are built only for bad entries: matrices hold millions of them.
        const Json& entry = row[j];
        const std::uint64_t value =
            entry.is_number_unsigned()
                ? entry.get<std::uint64_t>()
                : r_.unsigned_integer(entry, index_path(row_path, j),
                                      std::numeric_limits<std::uint64_t>::max());
        data.push_back(static_cast<std::int64_t>(
            std::min<std::uint64_t>(value, static_cast<std::uint64_t>(kUnreachable))));
      }
    }
    return Matrix(n, std::move(data));
  }

  ProfileMatrices profile_matrices(const Json& m, const std::string& path) {
    r_.expect_object(m, path);
    ProfileMatrices out;
    if (const Json* d = r_.member(m, "durations"))
      out.durations = matrix(*d, join_path(path, "durations"));
    if (const Json* d = r_.member(m, "distances"))
      out.distances = matrix(*d, join_path(path, "distances"));
    if (const Json* c = r_.member(m, "costs")) out.costs = matrix(*c, join_path(path, "costs"));
    check_same_size(out, path);
    return out;
  }

  void check_same_size(const ProfileMatrices& m, const std::string& path) {
    const std::size_t n = m.durations.size();
    if (n == 0) return;  // durations missing: reported once every source is read
    if (!m.distances.empty() && m.distances.size() != n)
      r_.fail(join_path(path, "distances"),
              fmt::format("{0}x{0} matrix, but durations are {1}x{1}", m.distances.size(), n));
    if (m.costs && m.costs->size() != n)
      r_.fail(join_path(path, "costs"),
              fmt::format("{0}x{0} matrix, but durations are {1}x{1}", m.costs->size(), n));
  }

  // Matrix indices in range, and matrices for every profile the vehicles use.
  void check_matrix_use(const ProblemSpec& spec) {
    if (spec.matrices.empty()) return;
    for (const auto& [profile, m] : spec.matrices)
      if (m.durations.empty())
        r_.fail(join_path("matrices", profile), "missing required field 'durations'");
    for (std::size_t v = 0; v < spec.vehicles.size(); ++v) {
      const std::string& profile = spec.vehicles[v].profile;
      if (spec.matrices.count(profile) == 0) {
        std::string given;
        for (const auto& [name, m] : spec.matrices) given += (given.empty() ? "" : ", ") + name;
        r_.fail(
            join_path(index_path("vehicles", v), "profile"),
            fmt::format("no matrices for profile '{}' (matrices given for: {})", profile, given));
      }
    }
    for (const auto& use : index_uses_) {
      for (const auto& [profile, m] : spec.matrices) {
        if (use.profile && *use.profile != profile) continue;
        if (use.index >= m.durations.size())
          r_.fail(
              use.path,
              fmt::format("location index {} is out of range: the '{}' matrices have {} locations",
                          use.index, profile, m.durations.size()));
      }
    }
  }

  struct IndexUse {
    std::size_t index;
    std::string path;
    std::optional<std::string> profile;  // vehicles: only their profile's matrices matter
  };

  detail::JsonReader r_;
  std::optional<std::pair<std::size_t, std::string>> dimensions_;
  std::unordered_map<Id, std::string> job_ids_, pickup_ids_, delivery_ids_, vehicle_ids_;
  std::vector<IndexUse> index_uses_;
};

}  // namespace

ProblemSpec parse_vroom_problem(std::string_view text, const std::string& source) {
  const Json root = detail::parse_json_text(text, source);
  return ProblemParser(source).parse(root);
}

ProblemSpec read_vroom_problem(const std::filesystem::path& file) {
  return parse_vroom_problem(read_text_file(file), file.string());
}

}  // namespace routesolve::io
