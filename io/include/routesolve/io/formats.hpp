#pragma once
// Every fleet-file format routesolve reads, behind one entry point.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "routesolve/problem.hpp"

namespace routesolve::io {

/// The input formats, by the name `--format` takes ("auto" guesses from the content). One table
/// in io/src/formats.cpp lists them (name, reader, detection), in the order detection tries them;
/// a new format is one row there (docs/ARCHITECTURE.md, "A format").
inline constexpr std::string_view kAutoFormat = "auto";

/// Every name `--format` accepts: "auto", then the table's names in its order.
const std::vector<std::string>& input_format_names();

/// The table's name for `text` (a name of input_format_names()); throws invalid_input naming
/// `--format` and the names otherwise.
std::string_view parse_input_format(std::string_view text);

/// Guesses the format of a file from its content (JSON object, TSPLIB keywords, Solomon's
/// "VEHICLE"/"CUSTOMER" headings, Li & Lim's numeric first line). Throws invalid_input naming
/// the file when none fits (empty file, binary data...).
std::string_view detect_format(const std::filesystem::path& file);

struct ReadOptions {
  std::string format{kAutoFormat};  ///< a name of input_format_names()
  /// Solomon / Li & Lim: truncate each arc's Euclidean distance to one decimal (the convention
  /// of the distance-only best-known solutions). Default: exact Euclidean (stored x1000).
  bool truncate_one_decimal = false;
};

/// Reads a fleet file of any supported format. Errors name the file and the line or JSON path.
ProblemSpec read_problem(const std::filesystem::path& file, const ReadOptions& options = {});

/// Reads a whole file as text; throws invalid_input naming the file when it cannot be read.
std::string read_text_file(const std::filesystem::path& file);

}  // namespace routesolve::io
