#pragma once
// Solution outputs besides VROOM JSON: CSV of stops, GeoJSON, SVG map.

#include <cstddef>
#include <iosfwd>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "routesolve/network/matrix_provider.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"

namespace routesolve::io {

enum class OutputFormat { Json, Csv, GeoJson, Svg, Sol };

/// The drawn path of legs between two location (matrix) indices, both ends included, e.g. along
/// the roads of a network (computed by the caller from its matrix provider). A leg not in the
/// map, or with fewer than two points, is drawn as a straight line.
using LegLines = std::map<std::pair<std::size_t, std::size_t>, std::vector<Coordinates>>;

/// The (from, to) location pairs of consecutive located steps of every route: the legs a map of
/// the solution draws.
std::vector<std::pair<std::size_t, std::size_t>> solution_legs(const Solution& solution);

/// The road path of every leg of the solution, asked once per leg of the provider that filled
/// the matrices (`fill`): what the GeoJSON map and the JSON `geometry` draw.
LegLines road_legs(const Solution& solution, const network::MatrixProvider& provider,
                   const network::MatrixFill& fill);

/// Every name `--output-format` accepts, in the order of the table in io/src/writers.cpp (name,
/// extension, writer: a new output format is a value here and a row there).
const std::vector<std::string>& output_format_names();
/// A name of output_format_names(), in any case; throws invalid_input otherwise.
OutputFormat parse_output_format(std::string_view text);
std::string_view to_string(OutputFormat format);
/// File extension for a format (".json", ".csv", ".geojson", ".svg", ".sol").
std::string_view extension(OutputFormat format);

/// One row per step:
/// vehicle,step,type,id,location,lon,lat,arrival,waiting_time,service,duration,distance,load.
void write_csv(std::ostream& out, const Problem& problem, const Solution& solution);
/// FeatureCollection: a LineString per route and a Point per stop. Throws invalid_input when
/// the problem has no coordinates. With `legs`, each route's line follows the leg geometry.
void write_geojson(std::ostream& out, const Problem& problem, const Solution& solution,
                   const LegLines& legs = {});
/// A self-contained SVG map: each route as a coloured polyline, depots as squares, stops as dots.
void write_svg(std::ostream& out, const Problem& problem, const Solution& solution);

/// Dispatches on format (Json -> write_vroom_solution, Sol -> CVRPLIB .sol).
/// `legs` is used by the GeoJSON output, and by the JSON output with `geometry` (each route's
/// encoded polyline).
void write_solution(std::ostream& out, const Problem& problem, const Solution& solution,
                    OutputFormat format, const LegLines& legs = {}, bool geometry = false);

}  // namespace routesolve::io
