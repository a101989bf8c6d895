#include "text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <memory>
#include <system_error>

#include "routesolve/memory_budget.hpp"

namespace routesolve::io::detail {

namespace {

bool is_blank(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

bool integral(double v) noexcept {
  return std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e9;
}

// Coordinates further apart than kMaxStoredNumber (fuzzing found 1e23) would overflow the
// conversion to integer: refused instead.
std::int64_t checked_distance(double scaled) {
  if (!(scaled >= 0.0 && scaled <= kMaxStoredNumber))
    throw invalid_input(
        "coordinates",
        "two points are " + std::to_string(scaled) +
            " units apart (after scaling), beyond the largest distance stored (1e15)");
  return static_cast<std::int64_t>(scaled);
}

std::uint64_t isqrt(std::uint64_t n) noexcept {
  auto r = static_cast<std::uint64_t>(std::sqrt(static_cast<double>(n)));
  while (r > 0 && r * r > n) --r;
  while ((r + 1) * (r + 1) <= n) ++r;
  return r;
}

// dx^2 + dy^2, times factor^2, as an exact integer when the coordinates are integral and the
// product stays well inside 64 bits; nullopt otherwise (callers then use floating point).
std::optional<std::uint64_t> exact_square(double dx, double dy, std::int64_t factor) {
  if (!integral(dx) || !integral(dy)) return std::nullopt;
  const auto ax = static_cast<std::uint64_t>(std::fabs(dx));
  const auto ay = static_cast<std::uint64_t>(std::fabs(dy));
  const std::uint64_t s = ax * ax + ay * ay;  // < 2^61 because |d| < 1e9
  const auto f2 = static_cast<std::uint64_t>(factor) * static_cast<std::uint64_t>(factor);
  if (f2 != 0 && s > (std::uint64_t{1} << 62) / f2) return std::nullopt;
  return s * f2;
}

}  // namespace

std::vector<std::string_view> split_tokens(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_blank(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !is_blank(line[i])) ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

std::optional<std::int64_t> to_int(std::string_view token) {
  if (!token.empty() && token.front() == '+') token.remove_prefix(1);
  std::int64_t value = 0;
  const auto* end = token.data() + token.size();
  const auto [ptr, ec] = std::from_chars(token.data(), end, value);
  if (token.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

std::optional<double> to_double(std::string_view token) {
  if (!token.empty() && token.front() == '+') token.remove_prefix(1);
  double value = 0;
  const auto* end = token.data() + token.size();
  const auto [ptr, ec] = std::from_chars(token.data(), end, value);
  if (token.empty() || ec != std::errc() || ptr != end || !std::isfinite(value))
    return std::nullopt;
  return value;
}

TextReader::TextReader(std::string_view text, std::string source)
    : text_(text), source_(source.empty() ? std::string("<memory>") : std::move(source)) {}

bool TextReader::next_line() {
  if (pos_ >= text_.size()) {
    // Past the end: keep pointing at the last line for messages about truncation.
    line_ = {};
    rest_ = {};
    return false;
  }
  const std::size_t nl = text_.find('\n', pos_);
  const std::size_t stop = nl == std::string_view::npos ? text_.size() : nl;
  line_ = text_.substr(pos_, stop - pos_);
  if (!line_.empty() && line_.back() == '\r') line_.remove_suffix(1);
  rest_ = line_;
  pos_ = nl == std::string_view::npos ? text_.size() : nl + 1;
  ++line_number_;
  return true;
}

bool TextReader::next_nonblank_line() {
  while (next_line())
    if (!trim(line_).empty()) return true;
  return false;
}

std::optional<Token> TextReader::next_token() {
  for (;;) {
    std::size_t i = 0;
    while (i < rest_.size() && is_blank(rest_[i])) ++i;
    if (i < rest_.size()) {
      const std::size_t start = i;
      while (i < rest_.size() && !is_blank(rest_[i])) ++i;
      Token token{rest_.substr(start, i - start), line_number_};
      rest_.remove_prefix(i);
      return token;
    }
    if (!next_line()) return std::nullopt;
  }
}

std::string TextReader::where(std::size_t line) const {
  // Line 1 for messages about an empty text.
  return source_ + ":" + std::to_string(std::max<std::size_t>(1, line != 0 ? line : line_number_));
}

void TextReader::fail(std::string_view what, std::size_t line) const {
  throw invalid_input(where(line), what);
}

void TextReader::fail_with(ErrorCode code, std::string_view what, std::size_t line) const {
  throw Error(code, where(line) + ": " + std::string(what));
}

std::int64_t TextReader::int_field(std::string_view token, std::string_view field,
                                   std::size_t line) const {
  if (auto v = to_int(token)) return *v;
  fail(std::string(field) + ": expected an integer, got '" + std::string(token) + "'", line);
}

double TextReader::number_field(std::string_view token, std::string_view field,
                                std::size_t line) const {
  if (auto v = to_double(token)) return *v;
  fail(std::string(field) + ": expected a number, got '" + std::string(token) + "'", line);
}

std::int64_t euclidean_rounded(double dx, double dy, std::int64_t factor) {
  if (auto n = exact_square(dx, dy, factor)) {
    const std::uint64_t r = isqrt(*n);
    // sqrt(n) >= r + 1/2  <=>  n >= r^2 + r + 1/4  <=>  n > r^2 + r (n is an integer)
    return static_cast<std::int64_t>(*n - r * r > r ? r + 1 : r);
  }
  return checked_distance(std::floor(std::hypot(dx, dy) * static_cast<double>(factor) + 0.5));
}

std::int64_t euclidean_truncated(double dx, double dy, std::int64_t factor) {
  if (auto n = exact_square(dx, dy, factor)) return static_cast<std::int64_t>(isqrt(*n));
  // Fractional coordinates: a tiny tolerance so that values meant to be exact (5.0) stay so.
  return checked_distance(std::floor(std::hypot(dx, dy) * static_cast<double>(factor) + 1e-7));
}

std::int64_t euclidean_ceiled(double dx, double dy) {
  if (auto n = exact_square(dx, dy, 1)) {
    const std::uint64_t r = isqrt(*n);
    return static_cast<std::int64_t>(r * r == *n ? r : r + 1);
  }
  return checked_distance(std::ceil(std::hypot(dx, dy) - 1e-7));
}

std::int64_t planar_scale(bool truncate_one_decimal) noexcept {
  return truncate_one_decimal ? 10 : 1000;
}

Matrix planar_table(std::shared_ptr<const PlanarSource> source, std::string_view what) {
  Matrix m = Matrix::from_points(std::move(source));
  if (matrix_bytes(m.size(), 1, 4) <= kPlanarTableBytes)
    m.materialise(what);  // small: cells read faster
  return m;
}

namespace {

/// One matrix as the durations, distances and costs (stored once, shared by the three).
ProfileMatrices one_table(Matrix m) {
  ProfileMatrices out;
  out.durations = m;
  out.distances = m;
  out.costs = std::move(m);
  return out;
}

}  // namespace

ProfileMatrices planar_matrices(const std::vector<Coordinates>& points, bool truncate_one_decimal,
                                std::string_view source) {
  const std::size_t n = points.size();
  const std::int64_t factor = planar_scale(truncate_one_decimal);
  auto planar = std::make_shared<const PlanarSource>(
      PlanarSource{points, static_cast<double>(factor),
                   truncate_one_decimal ? PlanarRounding::Down : PlanarRounding::Nearest});
  if (planar_exact(*planar))
    return one_table(planar_table(std::move(planar), source.empty() ? "planar distances" : source));
  // Fractional coordinates or a span too large: the cells, after the memory check.
  check_matrix_memory(n, 1, source.empty() ? "planar distances" : source, 4);
  Matrix m(n, 0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      const double dx = points[i].lon - points[j].lon;
      const double dy = points[i].lat - points[j].lat;
      try {
        m(i, j) = m(j, i) = truncate_one_decimal ? euclidean_truncated(dx, dy, factor)
                                                 : euclidean_rounded(dx, dy, factor);
      } catch (const Error& e) {
        throw Error(e.code(), std::string(source) + (source.empty() ? "" : ": ") + e.what() +
                                  " (points " + std::to_string(i) + " and " + std::to_string(j) +
                                  ")");
      }
    }
  m.set_planar(std::move(planar));
  return one_table(std::move(m));
}

}  // namespace routesolve::io::detail
