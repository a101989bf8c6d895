// GET /table/v1/{profile}/{coordinates} (OSRM's table service) and POST /matrix (the output of
// `routesolve matrix`, JSON or binary). Both snap the points to a network the service holds and
// run that network's matrix engine (this worker's), as the matrix command does.

#include <charconv>
#include <cmath>
#include <new>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "endpoints.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/matrix_formats.hpp"
#include "routesolve/timing.hpp"

namespace routesolve::service {
namespace {

/// A request fault of the table service: OSRM's code and a message naming the field.
struct TableFault {
  unsigned status;
  std::string code, message;
};

[[noreturn]] void fault(std::string code, std::string message, unsigned status = 400) {
  throw TableFault{status, std::move(code), std::move(message)};
}

bool parse_double(std::string_view text, double& value) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size() && std::isfinite(value);
}

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  for (;;) {
    const std::size_t at = text.find(sep);
    parts.push_back(text.substr(0, at));
    if (at == std::string_view::npos) return parts;
    text = text.substr(at + 1);
  }
}

void check_point(const Coordinates& c, const std::string& where, const char* code) {
  if (c.lon < -180 || c.lon > 180 || c.lat < -90 || c.lat > 90)
    fault(code, where + ": longitude or latitude out of range");
}

/// "all" (or absent) -> every index; else "i;j;k".
std::vector<std::size_t> indices(const Request& request, const std::string& key, std::size_t n) {
  std::vector<std::size_t> out;
  auto it = request.query.find(key);
  if (it == request.query.end() || it->second == "all") {
    for (std::size_t i = 0; i < n; ++i) out.push_back(i);
    return out;
  }
  const auto parts = split(it->second, ';');
  for (std::size_t k = 0; k < parts.size(); ++k) {
    std::size_t v = 0;
    const auto [end, ec] = std::from_chars(parts[k].data(), parts[k].data() + parts[k].size(), v);
    if (ec != std::errc() || end != parts[k].data() + parts[k].size() || parts[k].empty())
      fault("InvalidOptions", key + "[" + std::to_string(k) +
                                  "]: expected a coordinate index, got \"" + std::string(parts[k]) +
                                  "\"");
    if (v >= n)
      fault("InvalidOptions", key + "[" + std::to_string(k) + "]: index " + std::to_string(v) +
                                  " out of range (" + std::to_string(n) + " coordinates)");
    out.push_back(v);
  }
  return out;
}

void append_int(std::string& out, std::int64_t v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

void append_double(std::string& out, double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, std::round(v * 1e6) / 1e6);
  out.append(buf, r.ptr);
}

std::string network_file(const Context& context, const Request& request) {
  auto it = request.query.find("network");
  const std::string file = context.networks.file_of(it == request.query.end() ? "" : it->second);
  if (file.empty())
    throw invalid_input("network",
                        "the service holds no road network (start it with --network NAME=FILE)");
  return file;
}

}  // namespace

Response table_endpoint(const Context& context, const Request& request) {
  const auto t0 = Clock::now();
  try {
    // /table/v1/{profile}/{coordinates}
    constexpr std::string_view prefix = "/table/v1/";
    const std::string_view rest = std::string_view(request.path).substr(prefix.size());
    const std::size_t slash = rest.find('/');
    if (slash == std::string_view::npos || slash == 0 || slash + 1 == rest.size())
      fault("InvalidUrl", "path: expected /table/v1/{profile}/{lon,lat;lon,lat;...}");
    std::string_view coords_text = rest.substr(slash + 1);
    if (coords_text.ends_with(".json")) coords_text.remove_suffix(5);
    const auto parts = split(coords_text, ';');
    if (parts.size() > context.options.max_locations)
      fault("TooBig", "coordinates: " + std::to_string(parts.size()) +
                          " locations, more than the limit of " +
                          std::to_string(context.options.max_locations) + " (--max-locations)");
    std::vector<Coordinates> points;
    points.reserve(parts.size());
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const std::string where = "coordinates[" + std::to_string(i) + "]";
      const auto xy = split(parts[i], ',');
      Coordinates c{};
      if (xy.size() != 2 || !parse_double(xy[0], c.lon) || !parse_double(xy[1], c.lat))
        fault("InvalidUrl",
              where + ": expected lon,lat, got \"" + std::string(parts[i].substr(0, 64)) + "\"");
      check_point(c, where, "InvalidValue");
      points.push_back(c);
    }
    const std::vector<std::size_t> sources = indices(request, "sources", points.size());
    const std::vector<std::size_t> destinations = indices(request, "destinations", points.size());
    bool want_durations = true, want_distances = false;
    if (auto it = request.query.find("annotations"); it != request.query.end()) {
      want_durations = false;
      for (const std::string_view a : split(it->second, ',')) {
        if (a == "duration")
          want_durations = true;
        else if (a == "distance")
          want_distances = true;
        else
          fault("InvalidOptions",
                "annotations: expected duration and/or distance, got \"" + std::string(a) + "\"");
      }
    }
    std::string file;
    try {
      file = network_file(context, request);
    } catch (const Error& e) {
      fault("InvalidOptions", e.what());
    }
    if (!context.networks.ready()) fault("NotReady", "the road networks are still loading", 503);
    const network::PointMatrices pm = context.networks.point_matrices(file, points);
    for (std::size_t i = 0; i < points.size(); ++i)
      if (!pm.snaps[i].found)
        fault("NoSegment", "coordinates[" + std::to_string(i) + "]: no drivable road within " +
                               std::to_string(static_cast<long>(context.networks.max_snap_m())) +
                               " m");

    const std::size_t n = points.size();
    const RoadGraph& graph = context.networks.router(file)->graph();
    auto matrix = [&](const std::vector<std::int64_t>& values, bool seconds) {
      std::string out = "[";
      for (std::size_t a = 0; a < sources.size(); ++a) {
        out += a == 0 ? "[" : ",[";
        for (std::size_t b = 0; b < destinations.size(); ++b) {
          if (b > 0) out += ',';
          const std::int64_t v = values[sources[a] * n + destinations[b]];
          if (v >= kUnreachable)
            out += "null";
          else
            append_int(out, seconds ? (v + 5) / 10
                                    : v);  // seconds rounded half up, as `routesolve matrix`
        }
        out += ']';
      }
      return out + "]";
    };
    auto waypoints = [&](const std::vector<std::size_t>& which) {
      std::string out = "[";
      for (std::size_t k = 0; k < which.size(); ++k) {
        const SnapResult& s = pm.snaps[which[k]];
        const Coordinates& at = graph.coords[s.node];
        out += k == 0 ? "{\"hint\":\"\",\"distance\":" : ",{\"hint\":\"\",\"distance\":";
        append_double(out, s.node_distance_m);
        out += ",\"name\":\"\",\"location\":[";
        append_double(out, at.lon);
        out += ',';
        append_double(out, at.lat);
        out += "]}";
      }
      return out + "]";
    };
    std::string body = "{\"code\":\"Ok\"";
    if (want_durations) body += ",\"durations\":" + matrix(pm.matrices.durations, true);
    if (want_distances) body += ",\"distances\":" + matrix(pm.matrices.distances, false);
    body +=
        ",\"sources\":" + waypoints(sources) + ",\"destinations\":" + waypoints(destinations) + "}";
    context.metrics.matrix_seconds.observe(seconds_since(t0));
    return {200, "application/json", std::move(body)};
  } catch (const TableFault& f) {
    return osrm_error(f.status, f.code, f.message);
  } catch (const Error& e) {
    return osrm_error(e.code() == ErrorCode::InvalidInput ? 400 : 500,
                      e.code() == ErrorCode::InvalidInput ? "InvalidQuery" : "InternalError",
                      e.what());
  } catch (const std::bad_alloc&) {
    return osrm_error(507, "InternalError", "out of memory");
  } catch (const std::exception& e) {
    return osrm_error(500, "InternalError", e.what());
  }
}

Response matrix_endpoint(const Context& context, const Request& request) {
  const auto t0 = Clock::now();
  try {
    const nlohmann::json doc = nlohmann::json::parse(request.body, nullptr, false);
    if (doc.is_discarded()) throw invalid_input("body", "not valid JSON");
    if (!doc.is_object() || !doc.contains("locations"))
      throw invalid_input("locations", "expected {\"locations\": [[lon, lat], ...]}");
    const nlohmann::json& locations = doc["locations"];
    if (!locations.is_array() || locations.empty())
      throw invalid_input("locations", "expected a non-empty array of [lon, lat]");
    if (locations.size() > context.options.max_locations)
      throw invalid_input("locations",
                          std::to_string(locations.size()) + " locations, more than the limit of " +
                              std::to_string(context.options.max_locations) + " (--max-locations)");
    std::vector<Coordinates> points;
    points.reserve(locations.size());
    for (std::size_t i = 0; i < locations.size(); ++i) {
      const auto& p = locations[i];
      const std::string where = "locations[" + std::to_string(i) + "]";
      if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number())
        throw invalid_input(where, "expected [lon, lat]");
      const Coordinates c{p[0].get<double>(), p[1].get<double>()};
      if (c.lon < -180 || c.lon > 180 || c.lat < -90 || c.lat > 90)
        throw invalid_input(where, "longitude or latitude out of range");
      points.push_back(c);
    }
    const std::string file = network_file(context, request);
    if (!context.networks.ready())
      return vroom_error(503, 1, "the road networks are still loading");
    const network::PointMatrices pm = context.networks.point_matrices(file, points);
    for (std::size_t i = 0; i < points.size(); ++i)
      if (!pm.snaps[i].found)
        return vroom_error(400, 3,
                           "locations[" + std::to_string(i) + "]: no drivable road within " +
                               std::to_string(static_cast<long>(context.networks.max_snap_m())) +
                               " m");
    std::ostringstream out;
    const bool binary = request.accept.find("application/octet-stream") != std::string::npos;
    if (binary)
      io::write_binary_matrices(out, pm.matrices);
    else
      io::write_json_matrices(out, pm.matrices);
    context.metrics.matrix_seconds.observe(seconds_since(t0));
    return {200, binary ? "application/octet-stream" : "application/json", std::move(out).str()};
  } catch (const Error& e) {
    return vroom_error(e.code() == ErrorCode::InvalidInput ? 400 : 500,
                       e.code() == ErrorCode::InvalidInput ? 2 : 1, e.what());
  } catch (const std::bad_alloc&) {
    return vroom_error(507, 1, "out of memory");
  } catch (const std::exception& e) {
    return vroom_error(500, 1, e.what());
  }
}

}  // namespace routesolve::service
