#include "text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <memory>
#include <system_error>

#include "routesolve/memory_budget.hpp"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace routesolve::io::detail {

namespace {

bool is_blank(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

bool integral(double v) noexcept { return std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e9; }

// Coordinates further apart than kMaxStoredNumber (fuzzing found 1e23) would overflow the
// conversion to integer: refused instead.
std::int64_t checked_distance(double scaled) {
  if (!(scaled >= 0.0 && scaled <= kMaxStoredNumber))
    throw invalid_input("coordinates", "two points are " + std::to_string(scaled) +
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
  if (token.empty() || ec != std::errc() || ptr != end || !std::isfinite(value)) return std::nullopt;
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

std::int64_t TextReader::int_field(std::string_view token, std::string_view field, std::size_t line) const {
  if (auto v = to_int(token)) return *v;
  fail(std::string(field) + ": expected an integer, got '" + std::string(token) + "'", line);
}

double TextReader::number_field(std::string_view token, std::string_view field, std::size_t line) const {
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

std::int64_t planar_scale(bool truncate_one_decimal) noexcept { return truncate_one_decimal ? 10 : 1000; }

std::optional<Matrix> euclidean_matrix(const std::vector<Coordinates>& points, EuclideanRounding rounding,
                                       std::int64_t factor) {
  const std::size_t n = points.size();
  if (n == 0 || factor <= 0 || factor > 1000000) return std::nullopt;
  double min_x = points[0].lon, max_x = min_x, min_y = points[0].lat, max_y = min_y;
  for (const Coordinates& p : points) {
    if (!integral(p.lon) || !integral(p.lat)) return std::nullopt;
    min_x = std::min(min_x, p.lon), max_x = std::max(max_x, p.lon);
    min_y = std::min(min_y, p.lat), max_y = std::max(max_y, p.lat);
  }
  const double f2 = static_cast<double>(factor) * static_cast<double>(factor);
  const double span = (max_x - min_x) * (max_x - min_x) + (max_y - min_y) * (max_y - min_y);
  if (!(span * f2 < 4398046511104.0)) return std::nullopt;  // 2^42
  std::vector<double> xs(n), ys(n), root(n);
  for (std::size_t j = 0; j < n; ++j) xs[j] = points[j].lon, ys[j] = points[j].lat;
  // Reserved, not zero-filled: every page is touched once, by the row that writes it.
  std::vector<std::int32_t> cells;
  cells.reserve(n * n);
  std::vector<std::int32_t> row(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t j = 0;
#if defined(__SSE2__)
    const __m128d xi = _mm_set1_pd(xs[i]), yi = _mm_set1_pd(ys[i]), scale = _mm_set1_pd(f2);
    for (; j + 2 <= n; j += 2) {
      const __m128d dx = _mm_sub_pd(xi, _mm_loadu_pd(xs.data() + j));
      const __m128d dy = _mm_sub_pd(yi, _mm_loadu_pd(ys.data() + j));
      const __m128d sq = _mm_mul_pd(_mm_add_pd(_mm_mul_pd(dx, dx), _mm_mul_pd(dy, dy)), scale);
      _mm_storeu_pd(root.data() + j, _mm_sqrt_pd(sq));
    }
#endif
    for (; j < n; ++j) {
      const double dx = xs[i] - xs[j], dy = ys[i] - ys[j];
      root[j] = std::sqrt((dx * dx + dy * dy) * f2);
    }
    switch (rounding) {
      case EuclideanRounding::Nearest:
        for (std::size_t k = 0; k < n; ++k) row[k] = static_cast<std::int32_t>(root[k] + 0.5);
        break;
      case EuclideanRounding::Down:
        for (std::size_t k = 0; k < n; ++k) row[k] = static_cast<std::int32_t>(root[k]);
        break;
      case EuclideanRounding::Up:
        for (std::size_t k = 0; k < n; ++k) row[k] = static_cast<std::int32_t>(std::ceil(root[k]));
        break;
    }
    cells.insert(cells.end(), row.begin(), row.end());
  }
  return Matrix::from32(n, std::move(cells));
}

ProfileMatrices planar_matrices(const std::vector<Coordinates>& points, bool truncate_one_decimal,
                                std::string_view source) {
  const std::size_t n = points.size();
  const std::int64_t factor = planar_scale(truncate_one_decimal);
  check_matrix_memory(n, 1, source.empty() ? "planar distances" : source, 4);
  std::optional<Matrix> fast = euclidean_matrix(
      points, truncate_one_decimal ? EuclideanRounding::Down : EuclideanRounding::Nearest, factor);
  Matrix m = fast ? std::move(*fast) : Matrix(n, 0);
  for (std::size_t i = 0; i < n && !fast; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      const double dx = points[i].lon - points[j].lon;
      const double dy = points[i].lat - points[j].lat;
      try {
        m(i, j) = m(j, i) = truncate_one_decimal ? euclidean_truncated(dx, dy, factor) : euclidean_rounded(dx, dy, factor);
      } catch (const Error& e) {
        throw Error(e.code(), std::string(source) + (source.empty() ? "" : ": ") + e.what() + " (points " +
                                  std::to_string(i) + " and " + std::to_string(j) + ")");
      }
    }
  m.set_planar(std::make_shared<const PlanarSource>(PlanarSource{points, static_cast<double>(factor)}));
  ProfileMatrices out;
  out.durations = m;
  out.distances = m;
  out.costs = std::move(m);
  return out;
}

}  // namespace routesolve::io::detail
