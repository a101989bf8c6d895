#pragma once
// io-private: a line and token reader for the benchmark text formats (TSPLIB/CVRPLIB, Solomon,
// Li & Lim). It strips the CR of CRLF files, counts lines, and turns every problem into
// routesolve::invalid_input("<file>:<line>", "<field>: <what>").

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "routesolve/error.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/text.hpp"

namespace routesolve::io::detail {

/// Splits on blanks (space, tab, CR, LF, VT, FF); empty tokens are dropped.
std::vector<std::string_view> split_tokens(std::string_view line);

using routesolve::text::trim;

/// Whole-token integer parse (optional sign, decimal digits; no trailing garbage).
std::optional<std::int64_t> to_int(std::string_view token);

/// Whole-token floating-point parse ("12", "-3.5", "1e3"); rejects inf/nan and trailing garbage.
std::optional<double> to_double(std::string_view token);

/// A token with the 1-based line it was read from.
struct Token {
  std::string_view text;
  std::size_t line = 0;
};

/// Reads a text line by line, or token by token across lines, remembering line numbers.
class TextReader {
 public:
  TextReader(std::string_view text, std::string source);

  /// The name used in error messages ("<memory>" when the source is empty).
  [[nodiscard]] const std::string& source() const noexcept { return source_; }

  /// Advances to the next line (CR stripped). False at the end of the text.
  bool next_line();
  /// Advances to the next line holding a non-blank character. False at the end of the text.
  bool next_nonblank_line();
  /// The current line, without its line terminator.
  [[nodiscard]] std::string_view line() const noexcept { return line_; }
  /// 1-based number of the current line (0 before the first next_line()).
  [[nodiscard]] std::size_t line_number() const noexcept { return line_number_; }
  /// Tokens of the current line.
  [[nodiscard]] std::vector<std::string_view> tokens() const { return split_tokens(line_); }

  /// Next token of the token stream: the unread part of the current line, then later lines.
  /// Reading tokens consumes the current line's rest; next_line() starts the following one.
  std::optional<Token> next_token();
  /// Marks the rest of the current line as read (e.g. a section keyword before its data).
  void consume_line() noexcept { rest_ = {}; }
  /// The unread part of the current line.
  [[nodiscard]] std::string_view rest() const noexcept { return rest_; }

  /// "<file>:<line>" for the current line, or for `line` when given.
  [[nodiscard]] std::string where(std::size_t line = 0) const;

  /// Throws invalid_input("<file>:<line>", what) at the current line, or at `line`.
  [[noreturn]] void fail(std::string_view what, std::size_t line = 0) const;
  /// Throws Error(code, "<file>:<line>: what").
  [[noreturn]] void fail_with(ErrorCode code, std::string_view what, std::size_t line = 0) const;

  /// Parses a token as an integer or fails with "<field>: expected an integer, got '<token>'".
  std::int64_t int_field(std::string_view token, std::string_view field,
                         std::size_t line = 0) const;
  /// Parses a token as a number or fails with "<field>: expected a number, got '<token>'".
  double number_field(std::string_view token, std::string_view field, std::size_t line = 0) const;

 private:
  std::string_view text_;
  std::string source_;
  std::size_t pos_ = 0;  // start of the next line in text_
  std::string_view line_;
  std::string_view rest_;  // unread part of line_ for next_token()
  std::size_t line_number_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Euclidean arc lengths of the benchmark conventions, exact for integral coordinates.
// ---------------------------------------------------------------------------------------------

/// round(sqrt(dx^2+dy^2) * factor), halves rounded up (TSPLIB nint with factor 1).
std::int64_t euclidean_rounded(double dx, double dy, std::int64_t factor);
/// floor(sqrt(dx^2+dy^2) * factor): one-decimal truncation with factor 10.
std::int64_t euclidean_truncated(double dx, double dy, std::int64_t factor);
/// ceil(sqrt(dx^2+dy^2)) (TSPLIB CEIL_2D).
std::int64_t euclidean_ceiled(double dx, double dy);

/// The matrix of `source`'s entries (planar_exact(*source)), planar() = source: its cells up to
/// kPlanarTableBytes, else its points, each entry computed on every read (Matrix::from_points).
/// `what` names the table in a refusal (Error(OutOfMemory)) of its cells.
Matrix planar_table(std::shared_ptr<const PlanarSource> source, std::string_view what);

/// Largest distance, duration or limit stored from a text format (far below 2^63, so route sums
/// stay exact); larger values are refused rather than converted out of range.
inline constexpr double kMaxStoredNumber = 1e15;

/// Internal units per output unit of the Solomon / Li & Lim conventions: 10 when arcs are
/// truncated to one decimal, 1000 for exact Euclidean distances.
std::int64_t planar_scale(bool truncate_one_decimal) noexcept;
/// durations = distances = costs = Euclidean arcs of `points` in planar_scale units: floor(10 d)
/// when truncating to one decimal, round(1000 d) otherwise.
/// Throws invalid_input naming `source` and the two points when a distance is beyond 1e15 units.
ProfileMatrices planar_matrices(const std::vector<Coordinates>& points, bool truncate_one_decimal,
                                std::string_view source = {});

}  // namespace routesolve::io::detail
