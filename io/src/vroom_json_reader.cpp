// The JSON reading helpers shared by the VROOM problem and solution parsers (vroom_reader.hpp):
// parsing with positions and a depth limit, paths, value descriptions, JsonReader.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>

#include "routesolve/error.hpp"
#include "vroom_reader.hpp"

namespace routesolve::io {

namespace detail {

namespace {

struct TextPosition {
  std::size_t line = 1;
  std::size_t column = 1;
};

// Line and column (1-based) of the byte at `offset` (0-based); offsets past the end point just
// after the last character.
TextPosition position_of(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  TextPosition pos;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++pos.line;
      line_start = i + 1;
    }
  }
  pos.column = offset - line_start + 1;
  return pos;
}

// Parser messages quote what they read; binary input must not reach the terminal raw.
std::string printable(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f)
      out += fmt::format("\\x{:02x}", u);
    else
      out += c;
  }
  return out;
}

[[noreturn]] void fail_at(std::string_view text, const std::string& source, std::size_t offset,
                          std::string_view reason) {
  const TextPosition pos = position_of(text, offset);
  throw invalid_input(
      fmt::format("{}:{}:{}", source.empty() ? "<input>" : source, pos.line, pos.column),
      fmt::format("malformed JSON: {}", reason));
}

// nlohmann's parser is iterative but some of its consumers are not; refuse deep nesting before
// parsing, pointing at the bracket that goes too deep.
void check_depth(std::string_view text, const std::string& source) {
  std::size_t depth = 0;
  bool in_string = false;
  bool escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
      continue;
    }
    switch (c) {
      case '"':
        in_string = true;
        break;
      case '[':
      case '{':
        if (++depth > kMaxJsonDepth)
          fail_at(text, source, i, fmt::format("nested deeper than {} levels", kMaxJsonDepth));
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      default:
        break;
    }
  }
}

// Builds the DOM like json::parse but records the position of a parse error (number overflow
// included, which json::parse reports without one).
class PositionedDomParser {
 public:
  using number_integer_t = Json::number_integer_t;
  using number_unsigned_t = Json::number_unsigned_t;
  using number_float_t = Json::number_float_t;
  using string_t = Json::string_t;
  using binary_t = Json::binary_t;

  explicit PositionedDomParser(Json& root) : dom_(root, false) {}

  bool null() { return dom_.null(); }
  bool boolean(bool v) { return dom_.boolean(v); }
  bool number_integer(number_integer_t v) { return dom_.number_integer(v); }
  bool number_unsigned(number_unsigned_t v) { return dom_.number_unsigned(v); }
  bool number_float(number_float_t v, const string_t& s) { return dom_.number_float(v, s); }
  bool string(string_t& v) { return dom_.string(v); }
  bool binary(binary_t& v) { return dom_.binary(v); }
  bool start_object(std::size_t n) { return dom_.start_object(n); }
  bool key(string_t& v) { return dom_.key(v); }
  bool end_object() { return dom_.end_object(); }
  bool start_array(std::size_t n) { return dom_.start_array(n); }
  bool end_array() { return dom_.end_array(); }
  bool parse_error(std::size_t byte, const std::string& /*token*/,
                   const nlohmann::detail::exception& ex) {
    error_byte = byte;
    error = ex.what();
    return false;
  }

  std::size_t error_byte = 0;
  std::string error;

 private:
  nlohmann::detail::json_sax_dom_parser<Json> dom_;
};

// "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..." ->
// "syntax error ..." (we print our own position).
std::string reason_of(const std::string& what) {
  std::string reason = what;
  if (const auto bracket = reason.find("] ");
      reason.rfind("[json.exception.", 0) == 0 && bracket != std::string::npos)
    reason = reason.substr(bracket + 2);
  if (const auto col = reason.find(", column "); col != std::string::npos) {
    if (const auto colon = reason.find(": ", col); colon != std::string::npos)
      reason = reason.substr(colon + 2);
  }
  return printable(reason);
}

}  // namespace

Json parse_json_text(std::string_view text, const std::string& source) {
  const std::string where = source.empty() ? "<input>" : source;
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
    throw invalid_input(where, "empty input: expected a JSON object");
  if (text.find('\0') != std::string_view::npos)
    throw invalid_input(where, "binary data (NUL bytes): expected a JSON text");
  check_depth(text, source);

  Json root;
  PositionedDomParser sax(root);
  const bool ok =
      Json::sax_parse(text.begin(), text.end(), &sax, nlohmann::detail::input_format_t::json, true);
  if (!ok) {
    // nlohmann positions are 1-based byte counts of what was read: the offending byte is before.
    const std::size_t offset = sax.error_byte > 0 ? sax.error_byte - 1 : 0;
    fail_at(text, source, offset,
            sax.error.empty() ? std::string("parse error") : reason_of(sax.error));
  }
  return root;
}

std::string join_path(const std::string& path, std::string_view key) {
  if (path.empty()) return std::string(key);
  std::string out = path;
  out += '.';
  out += key;
  return out;
}

std::string index_path(const std::string& path, std::size_t i) {
  return fmt::format("{}[{}]", path, i);
}

std::string describe(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::boolean:
      return value.get<bool>() ? "true" : "false";
    case Json::value_t::object:
      return "an object";
    case Json::value_t::array:
      return "an array";
    case Json::value_t::string: {
      const auto& s = value.get_ref<const std::string&>();
      if (s.size() > 40) return fmt::format("\"{}...\"", printable(s.substr(0, 40)));
      return fmt::format("\"{}\"", printable(s));
    }
    case Json::value_t::number_integer:
      return std::to_string(value.get<std::int64_t>());
    case Json::value_t::number_unsigned:
      return std::to_string(value.get<std::uint64_t>());
    case Json::value_t::number_float: {
      const double d = value.get<double>();
      if (!std::isfinite(d)) return "a non-finite number";
      return value.dump();
    }
    default:
      return "an unsupported value";
  }
}

void JsonReader::fail(const std::string& path, std::string_view what) const {
  std::string where = source_;
  if (!path.empty()) where = where.empty() ? path : fmt::format("{}: {}", where, path);
  if (where.empty()) where = "<input>";
  throw invalid_input(where, what);
}

void JsonReader::expect_object(const Json& value, const std::string& path) const {
  if (!value.is_object()) fail(path, fmt::format("expected an object, got {}", describe(value)));
}

void JsonReader::expect_array(const Json& value, const std::string& path) const {
  if (!value.is_array()) fail(path, fmt::format("expected an array, got {}", describe(value)));
}

const Json* JsonReader::member(const Json& obj, std::string_view key) const {
  const auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

const Json& JsonReader::required(const Json& obj, const std::string& path,
                                 std::string_view key) const {
  const Json* v = member(obj, key);
  if (v == nullptr) fail(path, fmt::format("missing required field '{}'", key));
  return *v;
}

std::uint64_t JsonReader::unsigned_integer(const Json& value, const std::string& path,
                                           std::uint64_t max) const {
  const auto expected = [&](std::string_view got) -> std::string {
    return fmt::format("expected a non-negative integer, got {}", got);
  };
  if (value.is_number_unsigned()) {
    const auto u = value.get<std::uint64_t>();
    if (u > max) fail(path, fmt::format("{} (at most {})", expected(std::to_string(u)), max));
    return u;
  }
  if (value.is_number_integer()) {  // nlohmann stores only negative integers here
    const auto i = value.get<std::int64_t>();
    if (i < 0) fail(path, expected(std::to_string(i)));
    if (static_cast<std::uint64_t>(i) > max)
      fail(path, fmt::format("{} (at most {})", expected(std::to_string(i)), max));
    return static_cast<std::uint64_t>(i);
  }
  if (value.is_number_float()) {
    const double d = value.get<double>();
    if (!std::isfinite(d) || d != std::floor(d) || d < 0) fail(path, expected(describe(value)));
    // 2^64 is exactly representable; anything at or above it cannot be a uint64.
    if (d >= 18446744073709551616.0 || static_cast<std::uint64_t>(d) > max)
      fail(path, fmt::format("{} (at most {})", expected(describe(value)), max));
    return static_cast<std::uint64_t>(d);
  }
  fail(path, expected(describe(value)));
}

double JsonReader::number(const Json& value, const std::string& path) const {
  if (!value.is_number()) fail(path, fmt::format("expected a number, got {}", describe(value)));
  const double d = value.get<double>();
  if (!std::isfinite(d)) fail(path, "expected a finite number");
  return d;
}

double JsonReader::non_negative_number(const Json& value, const std::string& path) const {
  const double d = number(value, path);
  if (d < 0) fail(path, fmt::format("expected a non-negative number, got {}", describe(value)));
  return d;
}

std::string JsonReader::string(const Json& value, const std::string& path) const {
  if (!value.is_string()) fail(path, fmt::format("expected a string, got {}", describe(value)));
  return value.get<std::string>();
}

Amount JsonReader::amount(const Json& value, const std::string& path) const {
  expect_array(value, path);
  std::vector<std::int64_t> values;
  values.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i)
    values.push_back(static_cast<std::int64_t>(unsigned_integer(value[i], index_path(path, i))));
  return Amount(std::move(values));
}

}  // namespace detail

}  // namespace routesolve::io
