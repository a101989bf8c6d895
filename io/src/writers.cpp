// Solution outputs besides VROOM JSON: CSV of stops, GeoJSON, SVG map, and the dispatcher.
// Figures are converted from internal units with the problem's UnitScale: integers when the
// scale is 1, three decimals otherwise.

#include "routesolve/io/writers.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "routesolve/error.hpp"
#include "routesolve/io/benchmark_formats.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "routesolve/text.hpp"

namespace routesolve::io {

namespace {

std::string format_measure(std::int64_t value, double scale) {
  if (scale == 1.0) return std::to_string(value);
  return fmt::format("{:.3f}", static_cast<double>(value) / scale);
}

nlohmann::ordered_json json_measure(std::int64_t value, double scale) {
  if (scale == 1.0) return value;
  return std::round(static_cast<double>(value) / scale * 1000.0) / 1000.0;
}

std::string format_load(const Amount& load) {
  std::string out;
  for (std::size_t i = 0; i < load.size(); ++i) {
    if (i > 0) out += ';';
    out += std::to_string(load[i]);
  }
  return out;
}

bool is_task_step(StepType type) noexcept {
  return type == StepType::Job || type == StepType::Pickup || type == StepType::Delivery;
}

// Where a step is drawn: its task's coordinates, or the vehicle's start/end coordinates.
std::optional<Coordinates> step_coords(const Problem& problem, const Route& route,
                                       const Step& step) {
  if (is_task_step(step.type)) {
    if (step.task < problem.tasks().size()) return problem.task(step.task).coords;
    return std::nullopt;
  }
  if (route.vehicle >= problem.vehicles().size()) return std::nullopt;
  const Vehicle& v = problem.vehicle(route.vehicle);
  if (step.type == StepType::Start) return v.start_coords;
  if (step.type == StepType::End) return v.end_coords;
  return std::nullopt;  // breaks happen wherever the vehicle is
}

bool has_coordinates(const Problem& problem) {
  for (const Task& t : problem.tasks())
    if (t.coords) return true;
  for (const Vehicle& v : problem.vehicles())
    if (v.start_coords || v.end_coords) return true;
  return false;
}

void require_coordinates(const Problem& problem, std::string_view format) {
  if (has_coordinates(problem)) return;
  const std::string& source = problem.spec().source;
  throw invalid_input(
      source.empty() ? std::string(format) : source,
      std::string(format) + " output: no coordinates (the problem gives matrix indices only)");
}

std::string xml_escape(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string lowercase(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

// A qualitative palette (Tableau 10 and two extra hues) cycled over routes.
constexpr std::array<const char*, 12> kPalette = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
                                                  "#9467bd", "#8c564b", "#e377c2", "#17becf",
                                                  "#bcbd22", "#7f7f7f", "#393b79", "#637939"};

}  // namespace

namespace {

struct OutputEntry {
  OutputFormat format;
  std::string_view name;       ///< the `--output-format` value
  std::string_view extension;  ///< of the files `batch` writes
  void (*write)(std::ostream&, const Problem&, const Solution&, const LegLines&, bool geometry);
};

// Every output format: its name, its file extension and its writer.
const OutputEntry kOutputs[] = {
    {OutputFormat::Json, "json", ".json",
     [](std::ostream& out, const Problem& p, const Solution& s, const LegLines& legs, bool g) {
       write_vroom_solution(out, p, s, g ? &legs : nullptr);
     }},
    {OutputFormat::Csv, "csv", ".csv",
     [](std::ostream& out, const Problem& p, const Solution& s, const LegLines&, bool) {
       write_csv(out, p, s);
     }},
    {OutputFormat::GeoJson, "geojson", ".geojson",
     [](std::ostream& out, const Problem& p, const Solution& s, const LegLines& legs, bool) {
       write_geojson(out, p, s, legs);
     }},
    {OutputFormat::Svg, "svg", ".svg",
     [](std::ostream& out, const Problem& p, const Solution& s, const LegLines&, bool) {
       write_svg(out, p, s);
     }},
    {OutputFormat::Sol, "sol", ".sol",
     [](std::ostream& out, const Problem& p, const Solution& s, const LegLines&, bool) {
       out << cvrplib_solution_to_string(p, s);
     }},
};

const OutputEntry& output_entry(OutputFormat format) {
  for (const auto& entry : kOutputs)
    if (entry.format == format) return entry;
  throw Error(ErrorCode::Internal, "an output format without a row in kOutputs");
}

}  // namespace

const std::vector<std::string>& output_format_names() {
  static const std::vector<std::string> names = routesolve::text::names_of(kOutputs);
  return names;
}

OutputFormat parse_output_format(std::string_view text) {
  const std::string t = lowercase(text);
  for (const auto& entry : kOutputs)
    if (entry.name == t) return entry.format;
  throw invalid_input("output format", "unknown format '" + std::string(text) +
                                           "' (expected one of " +
                                           routesolve::text::join(output_format_names()) + ")");
}

std::string_view to_string(OutputFormat format) { return output_entry(format).name; }

std::string_view extension(OutputFormat format) { return output_entry(format).extension; }

void write_csv(std::ostream& out, const Problem& problem, const Solution& solution) {
  const UnitScale& scale = problem.spec().scale;
  out << "vehicle,step,type,id,location_index,lon,lat,arrival,waiting_time,service,duration,"
         "distance,load\n";
  for (const Route& route : solution.routes) {
    for (std::size_t k = 0; k < route.steps.size(); ++k) {
      const Step& s = route.steps[k];
      const bool has_id = is_task_step(s.type) || s.type == StepType::Break;
      const auto xy = step_coords(problem, route, s);
      out << route.vehicle_id << ',' << k << ',' << to_string(s.type) << ','
          << (has_id ? std::to_string(s.id) : "") << ','
          << (s.location != kNone ? std::to_string(s.location) : "") << ','
          << (xy ? fmt::format("{}", xy->lon) : "") << ',' << (xy ? fmt::format("{}", xy->lat) : "")
          << ',' << format_measure(s.arrival, scale.time) << ','
          << format_measure(s.waiting_time, scale.time) << ','
          << format_measure(s.service, scale.time) << ',' << format_measure(s.duration, scale.time)
          << ',' << format_measure(s.distance, scale.distance) << ',' << format_load(s.load)
          << '\n';
    }
  }
}

std::vector<std::pair<std::size_t, std::size_t>> solution_legs(const Solution& solution) {
  std::vector<std::pair<std::size_t, std::size_t>> legs;
  for (const Route& route : solution.routes) {
    std::size_t previous = kNone;
    for (const Step& s : route.steps) {
      if (s.location == kNone) continue;
      if (previous != kNone) legs.emplace_back(previous, s.location);
      previous = s.location;
    }
  }
  return legs;
}

LegLines road_legs(const Solution& solution, const network::MatrixProvider& provider,
                   const network::MatrixFill& fill) {
  LegLines lines;
  for (const auto& leg : solution_legs(solution))
    if (!lines.contains(leg))
      lines.emplace(leg, provider.leg(fill.matrices, fill.points, leg.first, leg.second));
  return lines;
}

void write_geojson(std::ostream& out, const Problem& problem, const Solution& solution,
                   const LegLines& legs) {
  require_coordinates(problem, "GeoJSON");
  const UnitScale& scale = problem.spec().scale;
  using nlohmann::ordered_json;
  auto position = [](const Coordinates& c) { return ordered_json::array({c.lon, c.lat}); };
  ordered_json features = ordered_json::array();

  for (const Route& route : solution.routes) {
    ordered_json line = ordered_json::array();
    std::size_t previous = kNone;  // location of the last drawn step, for leg geometry
    for (const Step& s : route.steps) {
      const auto xy = step_coords(problem, route, s);
      if (!xy) continue;
      const auto found =
          previous != kNone && s.location != kNone ? legs.find({previous, s.location}) : legs.end();
      if (found != legs.end()) {
        const std::vector<Coordinates>& leg = found->second;
        // The leg starts at the point already drawn: append the rest.
        for (std::size_t k = 1; k < leg.size(); ++k) line.push_back(position(leg[k]));
        if (leg.size() < 2) line.push_back(position(*xy));
      } else {
        line.push_back(position(*xy));
      }
      previous = s.location;
    }
    if (line.empty()) continue;                          // nothing to draw
    if (line.size() == 1) line.push_back(line.front());  // a LineString needs two positions
    ordered_json props;
    props["kind"] = "route";
    props["vehicle"] = route.vehicle_id;
    props["cost"] = json_measure(route.cost, problem.cost_scale());
    props["distance"] = json_measure(route.distance, scale.distance);
    props["duration"] = json_measure(route.duration, scale.time);
    features.push_back({{"type", "Feature"},
                        {"geometry", {{"type", "LineString"}, {"coordinates", std::move(line)}}},
                        {"properties", std::move(props)}});
  }

  for (const Route& route : solution.routes) {
    for (std::size_t k = 0; k < route.steps.size(); ++k) {
      const Step& s = route.steps[k];
      const auto xy = step_coords(problem, route, s);
      if (!xy) continue;
      ordered_json props;
      props["kind"] = "stop";
      props["vehicle"] = route.vehicle_id;
      props["step"] = k;
      props["type"] = std::string(to_string(s.type));
      if (is_task_step(s.type)) props["id"] = s.id;
      if (s.location != kNone) props["location_index"] = s.location;
      props["arrival"] = json_measure(s.arrival, scale.time);
      features.push_back({{"type", "Feature"},
                          {"geometry", {{"type", "Point"}, {"coordinates", position(*xy)}}},
                          {"properties", std::move(props)}});
    }
  }

  for (const Unassigned& u : solution.unassigned) {
    if (u.task >= problem.tasks().size() || !problem.task(u.task).coords) continue;
    ordered_json props;
    props["kind"] = "unassigned";
    props["id"] = u.id;
    props["type"] = u.type == TaskType::Job      ? "job"
                    : u.type == TaskType::Pickup ? "pickup"
                                                 : "delivery";
    props["reason"] = std::string(to_string(u.reason));
    features.push_back(
        {{"type", "Feature"},
         {"geometry", {{"type", "Point"}, {"coordinates", position(*problem.task(u.task).coords)}}},
         {"properties", std::move(props)}});
  }

  ordered_json doc;
  doc["type"] = "FeatureCollection";
  if (!problem.spec().name.empty()) doc["name"] = problem.spec().name;
  doc["features"] = std::move(features);
  out << doc.dump() << '\n';
}

void write_svg(std::ostream& out, const Problem& problem, const Solution& solution) {
  require_coordinates(problem, "SVG");

  // Bounding box of everything that has coordinates.
  double min_x = std::numeric_limits<double>::infinity(), max_x = -min_x, min_y = min_x,
         max_y = -min_x;
  auto extend = [&](const std::optional<Coordinates>& c) {
    if (!c) return;
    min_x = std::min(min_x, c->lon), max_x = std::max(max_x, c->lon);
    min_y = std::min(min_y, c->lat), max_y = std::max(max_y, c->lat);
  };
  for (const Task& t : problem.tasks()) extend(t.coords);
  for (const Vehicle& v : problem.vehicles()) extend(v.start_coords), extend(v.end_coords);

  // WGS84 degrees of longitude shrink with latitude: draw them equirectangular around the
  // middle latitude so the map keeps its shape. Planar benchmark coordinates are drawn as is.
  constexpr double kPi = 3.14159265358979323846;
  const double x_stretch = problem.spec().planar_coordinates
                               ? 1.0
                               : std::max(std::cos((min_y + max_y) / 2.0 * kPi / 180.0), 0.05);
  constexpr double kInner = 760.0, kMargin = 20.0, kTitle = 28.0;
  const double span_x = std::max((max_x - min_x) * x_stretch, 1e-9),
               span_y = std::max(max_y - min_y, 1e-9);
  const double s = std::min(kInner / span_x, kInner / span_y);
  // At least wide enough for the title line, however narrow the area.
  const double width = std::max(span_x * s + 2 * kMargin, 520.0),
               height = span_y * s + 2 * kMargin + kTitle;
  auto px = [&](const Coordinates& c) { return kMargin + (c.lon - min_x) * x_stretch * s; };
  auto py = [&](const Coordinates& c) {
    return kTitle + kMargin + (max_y - c.lat) * s;
  };  // y axis up

  const std::size_t routes =
      static_cast<std::size_t>(std::count_if(solution.routes.begin(), solution.routes.end(),
                                             [](const Route& r) { return !r.steps.empty(); }));
  const std::string name =
      problem.spec().name.empty() ? std::string("routesolve") : problem.spec().name;
  const std::string title = fmt::format("{}: cost {}, {} routes, {} unassigned", name,
                                        format_measure(solution.summary.cost, problem.cost_scale()),
                                        routes, solution.unassigned.size());

  out << fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" viewBox=\"0 "
      "0 {0:.2f} {1:.2f}\">\n",
      width, height);
  out << "<title>" << xml_escape(title) << "</title>\n";
  out << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  out << fmt::format(
      "<text x=\"{:.1f}\" y=\"18\" font-family=\"sans-serif\" font-size=\"13\">{}</text>\n",
      kMargin, xml_escape(title));

  for (std::size_t r = 0; r < solution.routes.size(); ++r) {
    const Route& route = solution.routes[r];
    const char* colour = kPalette[r % kPalette.size()];
    std::string points;
    std::string dots;
    for (const Step& step : route.steps) {
      const auto xy = step_coords(problem, route, step);
      if (!xy) continue;
      points += fmt::format("{}{:.2f},{:.2f}", points.empty() ? "" : " ", px(*xy), py(*xy));
      if (is_task_step(step.type))
        dots += fmt::format("<circle cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"2.5\" fill=\"{}\"/>\n",
                            px(*xy), py(*xy), colour);
    }
    out << fmt::format(
        "<polyline data-vehicle=\"{}\" points=\"{}\" fill=\"none\" stroke=\"{}\" "
        "stroke-width=\"1.5\" "
        "stroke-linejoin=\"round\"/>\n",
        route.vehicle_id, points, colour);
    out << dots;
  }

  // Depots: every distinct vehicle start/end, as black squares.
  std::set<std::pair<double, double>> depots;
  for (const Vehicle& v : problem.vehicles())
    for (const auto& c : {v.start_coords, v.end_coords})
      if (c) depots.emplace(c->lon, c->lat);
  for (const auto& [x, y] : depots) {
    const Coordinates c{x, y};
    out << fmt::format(
        "<rect class=\"depot\" x=\"{:.2f}\" y=\"{:.2f}\" width=\"8\" height=\"8\" "
        "fill=\"black\"/>\n",
        px(c) - 4, py(c) - 4);
  }

  // Unassigned tasks: grey crosses.
  for (const Unassigned& u : solution.unassigned) {
    if (u.task >= problem.tasks().size() || !problem.task(u.task).coords) continue;
    const Coordinates& c = *problem.task(u.task).coords;
    const double x = px(c), y = py(c);
    out << fmt::format(
        "<path class=\"unassigned\" d=\"M{:.2f} {:.2f}L{:.2f} {:.2f}M{:.2f} {:.2f}L{:.2f} {:.2f}\" "
        "stroke=\"#999999\" stroke-width=\"1.5\"/>\n",
        x - 3, y - 3, x + 3, y + 3, x - 3, y + 3, x + 3, y - 3);
  }
  out << "</svg>\n";
}

void write_solution(std::ostream& out, const Problem& problem, const Solution& solution,
                    OutputFormat format, const LegLines& legs, bool geometry) {
  output_entry(format).write(out, problem, solution, legs, geometry);
}

}  // namespace routesolve::io
