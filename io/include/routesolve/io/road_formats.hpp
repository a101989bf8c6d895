#pragma once
// Road-network importers (OpenStreetMap, DIMACS, edge lists, PACE topology) and the binary
// network cache (.rsnet). Every importer returns the largest strongly connected component of
// its input as a CSR RoadGraph (arcs sorted by tail, then head; parallel arcs reduced to the
// one with the smallest (duration, length) key; no self loops; nodes renumbered compactly in
// input order) and fills NetworkReport with what was read, kept and dropped.
//
// Errors are routesolve::Error(InvalidInput) naming "<file>:<line>" (text formats) or the
// file and the field (OSM, cache).

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "routesolve/road_graph.hpp"

namespace routesolve::io {

// ---- OpenStreetMap ---------------------------------------------------------------------------

/// Which OSM ways a car may use and how fast. See docs in road_osm.cpp for the rules:
/// drivable highway classes (keys of speed_kmh), maxspeed (numbers, "mph", "knots", "walk",
/// "<CC>:urban|rural|motorway|living_street"), oneway (yes/1/true, -1/reverse, no; reversible
/// and alternating ways are skipped), implied oneway on motorway(_link) and roundabouts,
/// access hierarchy access < vehicle < motor_vehicle < motorcar (the most specific tag wins),
/// area=yes excluded.
struct OsmProfile {
  /// Default speed (km/h) per drivable highway class; a class not listed here is not drivable.
  std::map<std::string, double, std::less<>> speed_kmh = default_car_speeds();
  /// highway=service with service=parking_aisle / drive-through / emergency_access is skipped
  /// unless this is true (stops would otherwise snap into car parks).
  bool parking_aisles = false;
  /// highway=service with service=driveway is skipped unless this is true.
  bool driveways = false;
  /// Use maxspeed / maxspeed:forward / maxspeed:backward tags when they parse.
  bool use_maxspeed = true;

  /// The car speeds: motorway 110, trunk 90, primary 70, secondary 60, tertiary 50,
  /// unclassified 40, residential 30, living_street 10, service 20, road 30; links 60/50/40/40/30.
  static std::map<std::string, double, std::less<>> default_car_speeds();
};

/// Reads an OpenStreetMap file (.osm.pbf, .pbf, .osm XML, .osm.gz, .osm.bz2) with the profile.
/// Every OSM node used by a drivable way becomes a node (with its coordinates); each way segment
/// becomes an arc (both directions unless oneway). length = round(haversine metres), at least 1;
/// duration = round(36 * length / speed_kmh) deciseconds, at least 1.
RoadNetwork read_osm_pbf(const std::filesystem::path& file, const OsmProfile& profile = {});

/// Parses an OSM maxspeed value to km/h; nullopt for values without a number ("none",
/// "signals", "variable", unknown). Exposed for tests.
std::optional<double> parse_maxspeed(std::string_view value);

// ---- text graph formats ------------------------------------------------------------------------

/// DIMACS 9th challenge: "p sp n m" then "a u v w" (1-based nodes, directed arcs); the integer
/// weight w is both duration (deciseconds) and length (metres). The optional .co file
/// ("v id x y", millionths of a degree, x = longitude) gives coordinates.
RoadNetwork read_dimacs(const std::filesystem::path& gr, const std::filesystem::path& co = {});

/// Edge lists, undirected, 0-based node ids: lines "edge_id u v weight" (cal.cedge) or "u v
/// weight";
/// '#' starts a comment. The float weight times weight_scale, rounded (at least 1), is both
/// duration and length: the default 1e6 keeps cal.cedge's weights (0.0005..0.3) to six decimals.
RoadNetwork read_edge_list(const std::filesystem::path& file, double weight_scale = 1e6);

/// PACE 2016 topology ("p tw n m", then "u v" per edge, 1-based, undirected), plain or .xz
/// compressed: unit weights (duration 1, length 1), no coordinates.
RoadNetwork read_pace(const std::filesystem::path& file);

/// Any of the above, chosen by extension or content: .osm.pbf/.pbf/.osm(.gz/.bz2) OSM,
/// .gr DIMACS (with <stem>.co beside it when present) or PACE ("p tw"), .gr.xz PACE,
/// .cedge/.txt/.edges edge list, .rsnet network cache.
RoadNetwork read_network(const std::filesystem::path& file);

// ---- binary network cache (.rsnet)
// ----------------------------------------------------------------

/// Version of the .rsnet layout this build writes and reads.
inline constexpr std::uint32_t kNetworkCacheVersion = 1;

/// A named extra section stored beside the graph (e.g. a contraction hierarchy). Tags are at
/// most 15 characters; the graph's own sections ("meta", "first_out", "head", "duration",
/// "length", "coords", "source") are reserved.
struct CacheSection {
  std::string tag;
  std::vector<std::uint8_t> data;
};

/// Writes the network (and the extra sections) to a cache file atomically: a temporary file in
/// the same folder, then rename. Layout: "RSNET\0\0\0", version, section table (tag, offset,
/// size), raw little-endian arrays, CRC-32 over table and sections.
void write_network_cache(const RoadNetwork& network, const std::filesystem::path& file,
                         const std::vector<CacheSection>& extra = {});

/// Reads a cache file written by write_network_cache. Sections this build does not know are
/// skipped, or returned in *extra when given. Wrong magic, other version, truncation or a
/// checksum mismatch throw Error(InvalidInput) "<file>: network cache ...: rebuild it with
/// `routesolve network build`".
RoadNetwork read_network_cache(const std::filesystem::path& file,
                               std::vector<CacheSection>* extra = nullptr);

/// The data of one named section of a cache file, or nullopt when the file has none (validated
/// like read_network_cache).
std::optional<std::vector<std::uint8_t>> read_cache_section(const std::filesystem::path& file,
                                                            std::string_view tag);

/// Adds (or replaces) a named section of an existing cache file, atomically.
void add_cache_section(const std::filesystem::path& file, const CacheSection& section);

/// True when the file starts with the cache magic.
bool is_network_cache(const std::filesystem::path& file);

}  // namespace routesolve::io
