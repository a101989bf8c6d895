#pragma once
// Solution outputs besides VROOM JSON: CSV of stops, GeoJSON, SVG map.

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <string_view>
#include <vector>

#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"

namespace routesolve::io {

enum class OutputFormat { Json, Csv, GeoJson, Svg, Sol };

/// The drawn path of one leg between two location (matrix) indices, both ends included, e.g.
/// along the roads of a network; an empty result means "draw a straight line".
using LegGeometry = std::function<std::vector<Coordinates>(std::size_t from_location, std::size_t to_location)>;

/// "json" | "csv" | "geojson" | "svg" | "sol"; throws invalid_input otherwise.
OutputFormat parse_output_format(std::string_view text);
std::string_view to_string(OutputFormat format) noexcept;
/// File extension for a format (".json", ".csv", ".geojson", ".svg", ".sol").
std::string_view extension(OutputFormat format) noexcept;

/// One row per step: vehicle,step,type,id,location,lon,lat,arrival,waiting_time,service,duration,distance,load.
void write_csv(std::ostream& out, const Problem& problem, const Solution& solution);
/// FeatureCollection: a LineString per route and a Point per stop. Throws invalid_input when
/// the problem has no coordinates. With `legs`, each route's line follows the leg geometry.
void write_geojson(std::ostream& out, const Problem& problem, const Solution& solution,
                   const LegGeometry& legs = {});
/// A self-contained SVG map: each route as a coloured polyline, depots as squares, stops as dots.
void write_svg(std::ostream& out, const Problem& problem, const Solution& solution);

/// Dispatches on format (Json -> write_vroom_solution, Sol -> CVRPLIB .sol).
/// `legs` is used by the GeoJSON output only.
void write_solution(std::ostream& out, const Problem& problem, const Solution& solution, OutputFormat format,
                    const LegGeometry& legs = {});

}  // namespace routesolve::io
