#pragma once
// Point files: where `routesolve matrix` computes travel matrices between.
//   CSV with a header "id,lon,lat" (WGS84 degrees) or "id,node" (road node indices, for networks
//   without coordinates), or a JSON array of [lon, lat] positions (ids "0", "1", ...).

#include <filesystem>
#include <string>
#include <vector>

#include "routesolve/road_graph.hpp"
#include "routesolve/types.hpp"

namespace routesolve::io {

struct Points {
  std::vector<std::string> ids;
  std::vector<Coordinates> coords;  ///< filled for lon/lat points
  std::vector<NodeId> nodes;        ///< filled for id,node points
  bool by_node = false;
};

/// Reads a points file (JSON by the .json extension, else CSV). Throws invalid_input naming the
/// file, the line (CSV) or the array index (JSON) and the field.
Points read_points(const std::filesystem::path& file);

}  // namespace routesolve::io
