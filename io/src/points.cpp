// Point files for `routesolve matrix` and the matrix service: CSV "id,lon,lat" / "id,node", or a
// JSON array of [lon, lat] (see points.hpp).

#include "routesolve/io/points.hpp"

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "routesolve/error.hpp"
#include "routesolve/text.hpp"

namespace fs = std::filesystem;

namespace routesolve::io {
namespace {

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, ',')) fields.emplace_back(text::trim(field));
  if (!line.empty() && line.back() == ',') fields.emplace_back();
  return fields;
}

double parse_number(const std::string& text, const std::string& where, const char* field) {
  std::size_t used = 0;
  double v = 0.0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || !std::isfinite(v))
    throw invalid_input(where, std::string(field) + ": '" + text + "' is not a number");
  return v;
}

Points read_points_csv(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw invalid_input(file.string(), "cannot open the points file");
  Points p;
  std::string line;
  std::size_t line_no = 0;
  bool header = false;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (text::trim(line).empty()) continue;
    const std::string where = file.string() + ":" + std::to_string(line_no);
    std::vector<std::string> f = split_csv(line);
    if (!header) {
      for (auto& x : f) x = text::lower(x);
      if (f == std::vector<std::string>{"id", "lon", "lat"}) {
        p.by_node = false;
      } else if (f == std::vector<std::string>{"id", "node"}) {
        p.by_node = true;
      } else {
        throw invalid_input(where,
                            "the header must be 'id,lon,lat' or 'id,node' (found '" + line + "')");
      }
      header = true;
      continue;
    }
    const std::size_t want = p.by_node ? 2 : 3;
    if (f.size() != want)
      throw invalid_input(
          where, "expected " + std::to_string(want) + " fields, found " + std::to_string(f.size()));
    p.ids.push_back(f[0]);
    if (p.by_node) {
      const double v = parse_number(f[1], where, "node");
      if (v < 0 || v != std::floor(v) || v >= 4294967295.0)
        throw invalid_input(where, "node: '" + f[1] + "' is not a node index");
      p.nodes.push_back(static_cast<NodeId>(v));
    } else {
      const double lon = parse_number(f[1], where, "lon"), lat = parse_number(f[2], where, "lat");
      if (lon < -180 || lon > 180)
        throw invalid_input(where, "lon: " + f[1] + " is outside [-180, 180]");
      if (lat < -90 || lat > 90)
        throw invalid_input(where, "lat: " + f[2] + " is outside [-90, 90]");
      p.coords.push_back({lon, lat});
    }
  }
  if (!header)
    throw invalid_input(file.string(),
                        "empty points file (expected a header 'id,lon,lat' or 'id,node')");
  return p;
}

Points read_points_json(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw invalid_input(file.string(), "cannot open the points file");
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw invalid_input(file.string(), std::string("not valid JSON: ") + e.what());
  }
  if (!doc.is_array())
    throw invalid_input(file.string(), "expected a JSON array of [lon, lat] positions");
  Points p;
  for (std::size_t i = 0; i < doc.size(); ++i) {
    const std::string where = file.string() + ": [" + std::to_string(i) + "]";
    const auto& e = doc[i];
    if (!e.is_array() || e.size() != 2 || !e[0].is_number() || !e[1].is_number())
      throw invalid_input(where, "expected [lon, lat]");
    const double lon = e[0].get<double>(), lat = e[1].get<double>();
    if (lon < -180 || lon > 180 || lat < -90 || lat > 90)
      throw invalid_input(where, "[lon, lat] out of range (longitude first)");
    p.ids.push_back(std::to_string(i));
    p.coords.push_back({lon, lat});
  }
  return p;
}

}  // namespace

Points read_points(const fs::path& file) {
  if (text::lower(file.extension().string()) == ".json") return read_points_json(file);
  return read_points_csv(file);
}

}  // namespace routesolve::io
