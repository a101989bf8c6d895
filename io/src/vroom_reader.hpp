#pragma once
// io-private: reading JSON text and its values with errors that name the file and the JSON path.
// Shared by the VROOM problem parser (vroom_json.cpp, which implements it) and the VROOM
// solution parser (vroom_solution.cpp).

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "routesolve/types.hpp"

namespace routesolve::io::detail {

using Json = nlohmann::json;

/// Deepest nesting of arrays/objects accepted; VROOM documents need 5 levels.
inline constexpr std::size_t kMaxJsonDepth = 64;

/// Parses JSON text without recursion. Errors (Error(InvalidInput)):
/// "<source>:<line>:<column>: malformed JSON: <reason>", or "<source>: <what>" for empty
/// input and binary data.
Json parse_json_text(std::string_view text, const std::string& source);

/// "a.b" / "a[3]" path building.
std::string join_path(const std::string& path, std::string_view key);
std::string index_path(const std::string& path, std::size_t i);

/// A short description of a JSON value for messages: -3, 10.5, "abc", an object, null...
std::string describe(const Json& value);

/// Typed access to JSON values; each failure throws invalid_input("<source>: <path>", what).
class JsonReader {
 public:
  explicit JsonReader(std::string source) : source_(std::move(source)) {}

  [[nodiscard]] const std::string& source() const noexcept { return source_; }

  /// Throws Error(InvalidInput) with "<source>: <path>: <what>".
  [[noreturn]] void fail(const std::string& path, std::string_view what) const;

  void expect_object(const Json& value, const std::string& path) const;
  void expect_array(const Json& value, const std::string& path) const;

  /// The member `key` of object `obj` (at `path`), or nullptr when absent.
  [[nodiscard]] const Json* member(const Json& obj, std::string_view key) const;
  /// The member `key`, or fail "missing required field 'key'".
  [[nodiscard]] const Json& required(const Json& obj, const std::string& path,
                                     std::string_view key) const;

  /// A non-negative integer no greater than max (integral floats such as 10.0 accepted).
  [[nodiscard]] std::uint64_t unsigned_integer(
      const Json& value, const std::string& path,
      std::uint64_t max = static_cast<std::uint64_t>(kMaxTime)) const;
  /// Any id: a non-negative integer of 64 bits.
  [[nodiscard]] Id id(const Json& value, const std::string& path) const {
    return unsigned_integer(value, path, std::numeric_limits<std::uint64_t>::max());
  }
  /// A finite number.
  [[nodiscard]] double number(const Json& value, const std::string& path) const;
  /// A finite, non-negative number.
  [[nodiscard]] double non_negative_number(const Json& value, const std::string& path) const;
  [[nodiscard]] std::string string(const Json& value, const std::string& path) const;
  /// An array of non-negative integers.
  [[nodiscard]] Amount amount(const Json& value, const std::string& path) const;

 private:
  std::string source_;
};

}  // namespace routesolve::io::detail
