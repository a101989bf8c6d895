#pragma once
// Every fleet-file format routesolve reads, behind one entry point.

#include <filesystem>
#include <string_view>

#include "routesolve/problem.hpp"

namespace routesolve::io {

enum class InputFormat { Auto, Vroom, Cvrplib, Solomon, LiLim };

/// "auto" | "vroom" | "cvrplib" | "solomon" | "lilim"; throws invalid_input otherwise.
InputFormat parse_input_format(std::string_view text);
std::string_view to_string(InputFormat format) noexcept;

/// Guesses the format of a file from its content (JSON object, TSPLIB keywords, Solomon's
/// "VEHICLE"/"CUSTOMER" headings, Li & Lim's numeric first line). Throws invalid_input naming
/// the file when none fits (empty file, binary data...).
InputFormat detect_format(const std::filesystem::path& file);

struct ReadOptions {
  InputFormat format = InputFormat::Auto;
  /// Solomon / Li & Lim: truncate each arc's Euclidean distance to one decimal (the convention
  /// of the distance-only best-known solutions). Default: exact Euclidean (stored x1000).
  bool truncate_one_decimal = false;
};

/// Reads a fleet file of any supported format. Errors name the file and the line or JSON path.
ProblemSpec read_problem(const std::filesystem::path& file, const ReadOptions& options = {});

/// Reads a whole file as text; throws invalid_input naming the file when it cannot be read.
std::string read_text_file(const std::filesystem::path& file);

}  // namespace routesolve::io
