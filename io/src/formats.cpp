// Fleet-file formats behind one entry point: reading files, guessing their format from their
// content, and dispatching to the format's parser.

#include "routesolve/io/formats.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "routesolve/error.hpp"
#include "routesolve/io/benchmark_formats.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "routesolve/text.hpp"

namespace routesolve::io {

namespace {

constexpr std::string_view kSupported =
    "supported formats: VROOM JSON, CVRPLIB/TSPLIB .vrp, Solomon / Gehring & Homberger, Li & Lim";

using text::trim;
using text::upper;

// The non-blank lines of a text, trimmed, at most `limit` of them.
std::vector<std::string_view> leading_lines(std::string_view text, std::size_t limit) {
  std::vector<std::string_view> lines;
  std::size_t pos = 0;
  while (pos < text.size() && lines.size() < limit) {
    auto end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const auto line = trim(text.substr(pos, end - pos));
    if (!line.empty()) lines.push_back(line);
    pos = end + 1;
  }
  return lines;
}

// Number of whitespace-separated fields when every one is a number; 0 otherwise.
std::size_t numeric_fields(std::string_view line) {
  std::size_t count = 0;
  std::size_t pos = 0;
  while (pos < line.size()) {
    while (pos < line.size() && std::isspace(static_cast<unsigned char>(line[pos]))) ++pos;
    if (pos >= line.size()) break;
    auto end = pos;
    while (end < line.size() && !std::isspace(static_cast<unsigned char>(line[end]))) ++end;
    const std::string field(line.substr(pos, end - pos));
    char* parsed_end = nullptr;
    errno = 0;
    (void)std::strtod(field.c_str(), &parsed_end);
    if (parsed_end != field.c_str() + field.size()) return 0;
    ++count;
    pos = end;
  }
  return count;
}

// TSPLIB specification keywords, as the first word of a line ("NAME : X-n101-k25").
bool is_tsplib_keyword_line(std::string_view line) {
  static constexpr std::string_view kKeywords[] = {"NAME",
                                                   "TYPE",
                                                   "DIMENSION",
                                                   "CAPACITY",
                                                   "EDGE_WEIGHT_TYPE",
                                                   "EDGE_WEIGHT_FORMAT",
                                                   "NODE_COORD_SECTION",
                                                   "DEMAND_SECTION",
                                                   "DEPOT_SECTION",
                                                   "EDGE_WEIGHT_SECTION",
                                                   "COMMENT",
                                                   "VEHICLES"};
  const auto end = line.find_first_of(" \t:");
  const std::string word = upper(line.substr(0, end));
  for (const auto keyword : kKeywords)
    if (word == keyword) return true;
  return false;
}

bool looks_binary(std::string_view text) {
  if (text.find('\0') != std::string_view::npos) return true;
  // Control characters other than whitespace are rare in text formats.
  const std::size_t n = std::min<std::size_t>(text.size(), 4096);
  std::size_t control = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != '\v') ++control;
  }
  return control * 20 > n;  // more than 5%
}

// What detection looks at: the text without a byte order mark, and its first non-blank lines.
struct Sniff {
  std::string_view body;
  std::vector<std::string_view> lines;
};

bool is_vroom(const Sniff& s) { return trim(s.body).front() == '{'; }

bool is_solomon(const Sniff& s) {
  bool vehicle_heading = false;
  for (const auto line : s.lines) {
    const std::string u = upper(line);
    if (u == "VEHICLE") vehicle_heading = true;
    if (vehicle_heading && u.rfind("CUSTOMER", 0) == 0) return true;
  }
  return false;
}

bool is_cvrplib(const Sniff& s) {
  for (const auto line : s.lines)
    if (is_tsplib_keyword_line(line)) return true;
  return false;
}

bool is_lilim(const Sniff& s) {
  if (s.lines.size() < 2 || numeric_fields(s.lines[0]) != 3) return false;
  for (std::size_t i = 1; i < std::min<std::size_t>(s.lines.size(), 6); ++i)
    if (numeric_fields(s.lines[i]) != 9) return false;
  return true;
}

struct Format {
  std::string_view name;  ///< the `--format` value
  bool (*detect)(const Sniff&);
  ProblemSpec (*read)(std::string_view text, const std::string& source, const ReadOptions&);
};

// Every input format, in the order detection tries them (Solomon's headings before TSPLIB's
// keywords, which a Solomon file's text may contain).
constexpr Format kFormats[] = {
    {"vroom", is_vroom,
     [](std::string_view t, const std::string& src, const ReadOptions&) {
       return parse_vroom_problem(t, src);
     }},
    {"solomon", is_solomon,
     [](std::string_view t, const std::string& src, const ReadOptions& o) {
       return parse_solomon(t, src, o.truncate_one_decimal);
     }},
    {"cvrplib", is_cvrplib,
     [](std::string_view t, const std::string& src, const ReadOptions&) {
       return parse_cvrplib(t, src);
     }},
    {"lilim", is_lilim,
     [](std::string_view t, const std::string& src, const ReadOptions& o) {
       return parse_lilim(t, src, o.truncate_one_decimal);
     }},
};

const Format& detect_text_format(std::string_view text, const std::string& source) {
  std::string_view body = text;
  if (body.substr(0, 3) == "\xEF\xBB\xBF") body.remove_prefix(3);  // UTF-8 byte order mark
  if (trim(body).empty())
    throw invalid_input(source, fmt::format("empty file: nothing to read ({})", kSupported));
  if (looks_binary(body))
    throw invalid_input(source, fmt::format("binary data, not a fleet file ({})", kSupported));
  const Sniff sniff{body, leading_lines(body, 64)};
  for (const auto& format : kFormats)
    if (format.detect(sniff)) return format;
  throw invalid_input(
      source,
      fmt::format("unrecognised content: not a fleet file of a known format ({})", kSupported));
}

const Format* find_format(std::string_view name) {
  for (const auto& format : kFormats)
    if (format.name == name) return &format;
  return nullptr;
}

}  // namespace

const std::vector<std::string>& input_format_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all{std::string(kAutoFormat)};
    for (auto& name : routesolve::text::names_of(kFormats)) all.push_back(std::move(name));
    return all;
  }();
  return names;
}

std::string_view parse_input_format(std::string_view text) {
  if (text == kAutoFormat) return kAutoFormat;
  if (const Format* format = find_format(text)) return format->name;
  throw invalid_input("--format", fmt::format("unknown input format \"{}\" (expected one of {})",
                                              text, fmt::join(input_format_names(), ", ")));
}

std::string read_text_file(const std::filesystem::path& file) {
  const std::string name = file.string();
  std::error_code ec;
  const auto status = std::filesystem::status(file, ec);
  if (ec || !std::filesystem::exists(status)) {
    if (ec && ec != std::errc::no_such_file_or_directory)
      throw invalid_input(name, fmt::format("cannot read the file: {}", ec.message()));
    throw invalid_input(name, "no such file");
  }
  if (std::filesystem::is_directory(status))
    throw invalid_input(name, "is a directory, expected a file");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw invalid_input(name, fmt::format("cannot open the file: {}", std::strerror(errno)));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw invalid_input(name, "cannot read the file (I/O error)");
  return std::move(buffer).str();
}

std::string_view detect_format(const std::filesystem::path& file) {
  return detect_text_format(read_text_file(file), file.string()).name;
}

ProblemSpec read_problem(const std::filesystem::path& file, const ReadOptions& options) {
  const std::string text = read_text_file(file);
  const std::string source = file.string();
  const Format& format = options.format == kAutoFormat
                             ? detect_text_format(text, source)
                             : *find_format(parse_input_format(options.format));
  return format.read(text, source, options);
}

}  // namespace routesolve::io
