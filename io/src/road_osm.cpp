// OpenStreetMap import with a car profile (libosmium; .osm.pbf and .osm XML).
//
// Two passes keep memory proportional to the road network, not to the file: pass 1 reads the
// ways only and keeps the drivable ones (node references, direction, speeds); pass 2 reads the
// nodes only and keeps the locations of the nodes those ways use (a sorted id array and binary
// search, no index over every node of the file).
//
// Car profile (OsmProfile):
// - drivable: highway classes listed in speed_kmh (motorway..residential, *_link, living_street,
//   service, unclassified, road); area=yes excluded; highway=service with
//   service=parking_aisle/drive-through/emergency_access or driveway excluded unless the profile
//   allows them (stops would snap into car parks and private drives);
// - access: the most specific of motorcar > motor_vehicle > vehicle > access decides, so
//   motorcar=yes opens a way with access=no; no, private, agricultural, forestry, emergency,
//   military and the "only for" values (psv, bus, hgv, bicycle, foot, disabled) forbid; anything
//   else (yes, destination, delivery, permissive, designated, customers...) allows;
// - oneway: yes/true/1 forward only, -1/reverse backward only, no/false/0 both ways,
//   reversible/alternating ways skipped (direction depends on the time); without an explicit
//   value motorway, motorway_link and junction=roundabout/circular are oneway;
// - speed: maxspeed:forward / maxspeed:backward, else maxspeed, else the class default;
// - ferries, barriers and turn restrictions are not modelled.

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <osmium/handler.hpp>
#include <osmium/io/bzip2_compression.hpp>
#include <osmium/io/gzip_compression.hpp>
#include <osmium/io/pbf_input.hpp>
#include <osmium/io/reader.hpp>
#include <osmium/io/xml_input.hpp>
#include <osmium/osm/node.hpp>
#include <osmium/osm/way.hpp>
#include <string>
#include <vector>

#include "routesolve/error.hpp"
#include "routesolve/io/road_formats.hpp"
#include "routesolve/network/road_build.hpp"
#include "routesolve/snap.hpp"
#include "routesolve/text.hpp"

namespace routesolve::io {

std::map<std::string, double, std::less<>> OsmProfile::default_car_speeds() {
  return {
      {"motorway", 110},     {"motorway_link", 60}, {"trunk", 90},        {"trunk_link", 50},
      {"primary", 70},       {"primary_link", 40},  {"secondary", 60},    {"secondary_link", 40},
      {"tertiary", 50},      {"tertiary_link", 30}, {"unclassified", 40}, {"residential", 30},
      {"living_street", 10}, {"service", 20},       {"road", 30},
  };
}

namespace {

constexpr double kWalkKmh = 7.0;
constexpr double kUrbanKmh = 50.0;
constexpr double kRuralKmh = 90.0;

using text::lower;
using text::trim;

// One maxspeed value without ';'.
std::optional<double> parse_one_maxspeed(std::string_view raw) {
  const std::string v = lower(trim(raw));
  if (v.empty()) return std::nullopt;
  if (v == "walk") return kWalkKmh;
  if (const auto colon = v.find(':');
      colon != std::string::npos && std::isalpha(static_cast<unsigned char>(v[0]))) {
    // "<country>:<kind>": country-independent values for the common kinds.
    const std::string kind = v.substr(colon + 1);
    if (kind == "urban") return kUrbanKmh;
    if (kind == "rural") return kRuralKmh;
    if (kind == "living_street" || kind == "walk") return kWalkKmh;
    if (kind.rfind("zone", 0) == 0) {  // "zone30", "zone:30"
      std::string_view digits = std::string_view(kind).substr(4);
      if (!digits.empty() && digits.front() == ':') digits.remove_prefix(1);
      if (!digits.empty() && std::all_of(digits.begin(), digits.end(), [](char c) {
            return std::isdigit(static_cast<unsigned char>(c));
          }))
        return std::stod(std::string(digits));
    }
    return std::nullopt;  // motorway, trunk, ...: the class default
  }
  // "<number>[ ]<unit>" with unit km/h, kmh, kph, mph, knots.
  std::size_t end = 0;
  while (end < v.size() && (std::isdigit(static_cast<unsigned char>(v[end])) || v[end] == '.'))
    ++end;
  if (end == 0) return std::nullopt;
  double number = 0;
  try {
    number = std::stod(v.substr(0, end));
  } catch (const std::exception&) {
    return std::nullopt;
  }
  const std::string unit(trim(std::string_view(v).substr(end)));
  double factor = 0;
  if (unit.empty() || unit == "km/h" || unit == "kmh" || unit == "kph")
    factor = 1.0;
  else if (unit == "mph")
    factor = 1.609344;
  else if (unit == "knots")
    factor = 1.852;
  else
    return std::nullopt;
  const double kmh = number * factor;
  if (!(kmh > 0) || !std::isfinite(kmh)) return std::nullopt;
  return kmh;
}

enum Direction : std::uint8_t { kForward = 1, kBackward = 2, kBoth = 3 };

struct WayInfo {
  std::uint32_t first_ref = 0, ref_count = 0;
  float speed_forward = 0, speed_backward = 0;  // km/h
  std::uint8_t direction = kBoth;
};

bool value_is(const char* value, std::initializer_list<const char*> options) {
  if (!value) return false;
  for (const char* o : options)
    if (std::strcmp(value, o) == 0) return true;
  return false;
}

// Whether a car may use the way, by the most specific access tag present.
bool car_allowed(const osmium::TagList& tags) {
  for (const char* key : {"motorcar", "motor_vehicle", "vehicle", "access"}) {
    const char* value = tags[key];
    if (!value) continue;
    return !value_is(value, {"no", "private", "agricultural", "forestry", "emergency", "military",
                             "psv", "bus", "hgv", "bicycle", "foot", "disabled"});
  }
  return true;
}

// The way's attributes for the profile, or false when a car cannot use it.
bool classify(const osmium::Way& way, const OsmProfile& profile, WayInfo& info) {
  const osmium::TagList& tags = way.tags();
  const char* highway = tags["highway"];
  if (!highway) return false;
  const auto class_speed = profile.speed_kmh.find(std::string_view(highway));
  if (class_speed == profile.speed_kmh.end() || !(class_speed->second > 0)) return false;
  if (value_is(tags["area"], {"yes"})) return false;
  if (std::strcmp(highway, "service") == 0) {
    const char* service = tags["service"];
    if (!profile.parking_aisles &&
        value_is(service, {"parking_aisle", "drive-through", "emergency_access"}))
      return false;
    if (!profile.driveways && value_is(service, {"driveway"})) return false;
  }
  if (!car_allowed(tags)) return false;

  const char* oneway = tags["oneway"];
  if (value_is(oneway, {"yes", "true", "1"})) {
    info.direction = kForward;
  } else if (value_is(oneway, {"-1", "reverse"})) {
    info.direction = kBackward;
  } else if (value_is(oneway, {"reversible", "alternating"})) {
    return false;
  } else if (value_is(oneway, {"no", "false", "0"})) {
    info.direction = kBoth;
  } else {
    const bool implied = value_is(highway, {"motorway", "motorway_link"}) ||
                         value_is(tags["junction"], {"roundabout", "circular"});
    info.direction = implied ? kForward : kBoth;
  }

  double forward = class_speed->second, backward = class_speed->second;
  if (profile.use_maxspeed) {
    if (const char* m = tags["maxspeed"]) {
      if (const auto s = parse_maxspeed(m)) forward = backward = *s;
    }
    if (const char* m = tags["maxspeed:forward"]) {
      if (const auto s = parse_maxspeed(m)) forward = *s;
    }
    if (const char* m = tags["maxspeed:backward"]) {
      if (const auto s = parse_maxspeed(m)) backward = *s;
    }
  }
  info.speed_forward = static_cast<float>(forward);
  info.speed_backward = static_cast<float>(backward);
  return true;
}

osmium::io::File osm_file(const std::filesystem::path& file) {
  osmium::io::File f(file.string());
  if (f.format() == osmium::io::file_format::unknown) {
    // No telling extension: XML starts with '<', anything else is tried as PBF.
    std::ifstream in(file, std::ios::binary);
    char c = 0;
    while (in.get(c) && std::isspace(static_cast<unsigned char>(c))) {
    }
    f = osmium::io::File(file.string(), c == '<' ? "osm" : "pbf");
  }
  return f;
}

// libosmium 2.19's PBF parser reads the file descriptor itself and closes it only when the file
// parses to the end: a blob that fails to decompress leaks the descriptor (found by fuzzing: a
// long-running process importing corrupt files ran out of descriptors). PBF files up to this size
// are therefore read into memory and parsed from there (no descriptor at all); larger ones are
// streamed, so that memory keeps following the road network rather than the file.
constexpr std::uintmax_t kPbfInMemoryBytes = std::uintmax_t{1} << 30;

/// The whole file, or nullopt when it cannot be read.
std::optional<std::string> slurp(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return std::nullopt;
  return bytes;
}

std::uint32_t deciseconds(std::uint32_t length_m, double speed_kmh) {
  // metres / (km/h / 3.6) seconds = 36 * metres / km/h deciseconds
  const double ds = std::round(36.0 * length_m / speed_kmh);
  return static_cast<std::uint32_t>(std::clamp(ds, 1.0, 4.0e9));
}

}  // namespace

std::optional<double> parse_maxspeed(std::string_view value) {
  std::optional<double> lowest;
  while (true) {
    const auto semi = value.find(';');
    if (const auto s = parse_one_maxspeed(value.substr(0, semi)); s && (!lowest || *s < *lowest))
      lowest = s;
    if (semi == std::string_view::npos) break;
    value.remove_prefix(semi + 1);
  }
  return lowest;
}

RoadNetwork read_osm_pbf(const std::filesystem::path& file, const OsmProfile& profile) {
  const auto started = std::chrono::steady_clock::now();
  const std::string name = file.string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) throw invalid_input(name, "no such OSM file");

  std::vector<WayInfo> ways;
  std::vector<std::int64_t> refs;      // node ids of the drivable ways, way after way
  std::vector<std::int64_t> node_ids;  // sorted distinct ids of refs
  std::vector<Coordinates> coords;
  std::vector<char> located;
  std::string pbf_bytes;  // the PBF file in memory (see kPbfInMemoryBytes); outlives the readers
  try {
    osmium::io::File input = osm_file(file);
    if (input.format() == osmium::io::file_format::pbf &&
        input.compression() == osmium::io::file_compression::none &&
        std::filesystem::file_size(file, ec) <= kPbfInMemoryBytes && !ec) {
      auto bytes = slurp(file);
      if (!bytes) throw invalid_input(name, "cannot read the file");
      pbf_bytes = std::move(*bytes);
      input = osmium::io::File(pbf_bytes.data(), pbf_bytes.size(), "pbf");
    }
    // Pass 1: drivable ways.
    {
      osmium::io::Reader reader(input, osmium::osm_entity_bits::way);
      while (osmium::memory::Buffer buffer = reader.read()) {
        for (const osmium::Way& way : buffer.select<osmium::Way>()) {
          WayInfo info;
          if (way.nodes().size() < 2 || !classify(way, profile, info)) continue;
          info.first_ref = static_cast<std::uint32_t>(refs.size());
          info.ref_count = static_cast<std::uint32_t>(way.nodes().size());
          for (const osmium::NodeRef& r : way.nodes()) refs.push_back(r.ref());
          ways.push_back(info);
        }
      }
      reader.close();
    }
    node_ids = refs;
    std::sort(node_ids.begin(), node_ids.end());
    node_ids.erase(std::unique(node_ids.begin(), node_ids.end()), node_ids.end());
    if (node_ids.size() >= kNoNode)
      throw invalid_input(name, "too many road nodes for 32-bit node ids");
    coords.resize(node_ids.size());
    located.assign(node_ids.size(), 0);
    // Pass 2: the locations of the nodes those ways use.
    if (!node_ids.empty()) {
      osmium::io::Reader reader(input, osmium::osm_entity_bits::node);
      while (osmium::memory::Buffer buffer = reader.read()) {
        for (const osmium::Node& node : buffer.select<osmium::Node>()) {
          const auto it = std::lower_bound(node_ids.begin(), node_ids.end(), node.id());
          if (it == node_ids.end() || *it != node.id() || !node.location().valid()) continue;
          const auto i = static_cast<std::size_t>(it - node_ids.begin());
          coords[i] = {node.location().lon(), node.location().lat()};
          located[i] = 1;
        }
      }
      reader.close();
    }
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw invalid_input(name, fmt::format("cannot read the OSM data: {}", e.what()));
  }
  if (ways.empty()) throw invalid_input(name, "empty graph: no way a car may use");

  // Segments to arcs. A segment whose node has no location in the file (cut by the extract)
  // is left out.
  std::vector<network::RawArc> arcs;
  arcs.reserve(refs.size() * 2);
  const auto index_of = [&](std::int64_t id) {
    return static_cast<NodeId>(std::lower_bound(node_ids.begin(), node_ids.end(), id) -
                               node_ids.begin());
  };
  for (const WayInfo& w : ways) {
    NodeId prev = index_of(refs[w.first_ref]);
    for (std::uint32_t k = 1; k < w.ref_count; ++k) {
      const NodeId cur = index_of(refs[w.first_ref + k]);
      if (located[prev] && located[cur] && prev != cur) {
        const double metres = haversine_m(coords[prev], coords[cur]);
        const auto length = static_cast<std::uint32_t>(std::max(1.0, std::round(metres)));
        if (w.direction & kForward)
          arcs.push_back({prev, cur, deciseconds(length, w.speed_forward), length});
        if (w.direction & kBackward)
          arcs.push_back({cur, prev, deciseconds(length, w.speed_backward), length});
      }
      prev = cur;
    }
  }
  refs.clear();
  refs.shrink_to_fit();
  return network::build_network(node_ids.size(), std::move(arcs), std::move(coords), name, started);
}

}  // namespace routesolve::io
