// CVRPLIB / TSPLIB .vrp: the reading loop, which hands each line to the specification keywords
// (here) or to the data sections (cvrplib_sections.cpp), and the specification keywords.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "cvrplib_vrp.hpp"

namespace routesolve::io::cvrplib {

namespace {

using detail::split_tokens;
using detail::trim;

// "KEY : value", "KEY: value", "KEY value" or a bare "KEY" / "KEY_SECTION".
KeywordLine split_keyword(std::string_view line) {
  line = trim(line);
  KeywordLine out;
  const std::size_t colon = line.find(':');
  if (colon != std::string_view::npos) {
    out.key = std::string(trim(line.substr(0, colon)));
    out.value = std::string(trim(line.substr(colon + 1)));
    // "KEY value : more" is not a keyword form we know; keep the first word as key.
    if (out.key.find_first_of(" \t") != std::string::npos) {
      const auto tokens = split_tokens(line);
      out.key = std::string(tokens.front());
      out.value = std::string(trim(line.substr(tokens.front().size())));
    }
    return out;
  }
  const auto tokens = split_tokens(line);
  out.key = std::string(tokens.front());
  out.value = std::string(trim(line.substr(line.find(tokens.front()) + tokens.front().size())));
  return out;
}

std::optional<WeightFormat> weight_format(std::string_view text) {
  if (text == "FUNCTION") return WeightFormat::Function;
  if (text == "FULL_MATRIX") return WeightFormat::FullMatrix;
  if (text == "LOWER_ROW") return WeightFormat::LowerRow;
  if (text == "UPPER_ROW") return WeightFormat::UpperRow;
  if (text == "LOWER_DIAG_ROW") return WeightFormat::LowerDiagRow;
  if (text == "UPPER_DIAG_ROW") return WeightFormat::UpperDiagRow;
  return std::nullopt;
}

}  // namespace

VrpFile read_vrp(TextReader& in) {
  VrpFile vrp;
  std::string last_section;  // for lines of data beyond a section's count
  while (in.next_nonblank_line()) {
    const KeywordLine kw = split_keyword(in.line());
    const std::string& key = kw.key;
    if (key == "EOF") break;
    if (key.ends_with("_SECTION")) last_section = key;
    if (read_specification(in, kw, vrp) || read_section(in, key, vrp)) continue;
    if (key.size() > 8 && key.ends_with("_SECTION")) in.fail(key + ": unsupported section");
    if (in.line().find(':') == std::string_view::npos) {
      if (!last_section.empty() && detail::to_double(key))
        in.fail(last_section + ": more data than expected (DIMENSION " +
                std::to_string(*vrp.dimension) + "), found '" + std::string(trim(in.line())) + "'");
      in.fail("unexpected line '" + std::string(trim(in.line())) +
              "' (expected a KEYWORD : value or a section)");
    }
    // Other "KEY : value" specification lines (NODE_COORD_TYPE, DISPLAY_DATA_TYPE, ...) do not
    // change the problem and are ignored.
  }
  return vrp;
}

bool read_specification(TextReader& in, const KeywordLine& kw, VrpFile& vrp) {
  const std::string& key = kw.key;
  const std::string& value = kw.value;
  auto need_value = [&] {
    if (value.empty()) in.fail(key + ": missing value");
  };
  if (key == "NAME") {
    vrp.name = value;
  } else if (key == "COMMENT") {
    // free text
  } else if (key == "TYPE") {
    need_value();
    if (value != "CVRP" && value != "DCVRP")
      in.fail("TYPE: unsupported problem type '" + value + "' (expected CVRP)");
  } else if (key == "DIMENSION") {
    need_value();
    const std::int64_t d = in.int_field(value, "DIMENSION");
    if (d < 1 || d > kMaxDimension)
      in.fail("DIMENSION: " + std::to_string(d) + " outside 1.." + std::to_string(kMaxDimension));
    if (vrp.dimension) in.fail("DIMENSION: given twice");
    vrp.dimension = static_cast<std::size_t>(d);
  } else if (key == "CAPACITY") {
    need_value();
    const std::int64_t c = in.int_field(value, "CAPACITY");
    if (c < 0) in.fail("CAPACITY: must not be negative, got " + value);
    vrp.capacity = c;
  } else if (key == "VEHICLES") {
    need_value();
    const std::int64_t k = in.int_field(value, "VEHICLES");
    if (k < 1 || k > kMaxDimension)
      in.fail("VEHICLES: " + value + " outside 1.." + std::to_string(kMaxDimension));
    vrp.vehicles = k;
  } else if (key == "DISTANCE") {
    need_value();
    const double d = in.number_field(value, "DISTANCE");
    if (d < 0) in.fail("DISTANCE: must not be negative, got " + value);
    if (d > detail::kMaxStoredNumber)
      in.fail("DISTANCE: " + value + " is beyond the largest value stored (1e15)");
    vrp.distance = d;
  } else if (key == "SERVICE_TIME") {
    need_value();
    const double s = in.number_field(value, "SERVICE_TIME");
    if (s < 0) in.fail("SERVICE_TIME: must not be negative, got " + value);
    if (s > detail::kMaxStoredNumber)
      in.fail("SERVICE_TIME: " + value + " is beyond the largest value stored (1e15)");
    vrp.service_time = s;
  } else if (key == "EDGE_WEIGHT_TYPE") {
    need_value();
    if (value != "EUC_2D" && value != "CEIL_2D" && value != "EXPLICIT")
      in.fail("EDGE_WEIGHT_TYPE: unsupported '" + value +
              "' (expected EUC_2D, CEIL_2D or EXPLICIT)");
    vrp.edge_weight_type = value;
    vrp.edge_weight_type_line = in.line_number();
  } else if (key == "EDGE_WEIGHT_FORMAT") {
    need_value();
    vrp.edge_weight_format = weight_format(value);
    if (!vrp.edge_weight_format)
      in.fail("EDGE_WEIGHT_FORMAT: unsupported '" + value +
              "' (expected FULL_MATRIX, LOWER_ROW, UPPER_ROW, LOWER_DIAG_ROW or UPPER_DIAG_ROW)");
  } else {
    return false;
  }
  return true;
}

}  // namespace routesolve::io::cvrplib
