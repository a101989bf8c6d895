#pragma once
// Private to io/src: a CVRPLIB / TSPLIB .vrp file as read, before it becomes a ProblemSpec.
// The parts of the format:
//   cvrplib.cpp           the ProblemSpec built from a VrpFile: weights, jobs, fleet
//   cvrplib_header.cpp    the reading loop and the specification keywords (NAME, TYPE, DIMENSION,
//   ...) cvrplib_sections.cpp  the data sections (NODE_COORD, DISPLAY_DATA, DEMAND, DEPOT,
//   EDGE_WEIGHT) cvrplib_solution.cpp  CVRPLIB .sol solutions: reading, the Cost line, writing

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "routesolve/problem.hpp"
#include "text.hpp"

namespace routesolve::io::cvrplib {

using detail::TextReader;

// Largest DIMENSION accepted: its per-node arrays are allocated before the sections fill them
// (tens of MB at this bound); a table of n x n cells is checked against memory when built.
constexpr std::int64_t kMaxDimension = 1000000;

struct KeywordLine {
  std::string key;
  std::string value;
};

enum class WeightFormat { Function, FullMatrix, LowerRow, UpperRow, LowerDiagRow, UpperDiagRow };

struct VrpFile {
  std::string name;
  std::optional<std::size_t> dimension;
  std::optional<std::int64_t> capacity;
  std::optional<std::int64_t> vehicles;
  std::optional<double> distance;
  std::optional<double> service_time;
  std::string edge_weight_type;
  std::size_t edge_weight_type_line = 0;
  std::optional<WeightFormat> edge_weight_format;
  std::vector<std::optional<Coordinates>> coords;  // by node - 1
  bool has_coords = false;
  std::vector<std::optional<std::int64_t>> demands;  // by node - 1
  bool has_demands = false;
  std::vector<std::size_t> depots;  // node numbers
  std::size_t depot_line = 0;
  bool has_depots = false;
  std::optional<Matrix> weights;
};

/// Reads a .vrp file up to EOF or its end (cvrplib_header.cpp).
VrpFile read_vrp(TextReader& in);

/// Applies a specification line "KEY : value"; false when kw.key is no specification keyword
/// (cvrplib_header.cpp).
bool read_specification(TextReader& in, const KeywordLine& kw, VrpFile& vrp);

/// Reads the data section that starts at the current line; false when `key` is no section read
/// here (cvrplib_sections.cpp).
bool read_section(TextReader& in, const std::string& key, VrpFile& vrp);

}  // namespace routesolve::io::cvrplib
