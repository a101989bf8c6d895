#pragma once
// Basic vocabulary: integer measures, amounts, time windows, coordinates.
// All travel measures are integers so that move deltas and batched (GPU) results are exact.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "routesolve/hd/planar_arc.hpp"
#include "routesolve/hd/segment.hpp"
#include "routesolve/hd/travel_view.hpp"

namespace routesolve {

using Duration = std::int64_t;  ///< time in the problem's time unit (VROOM: seconds)
using Distance = std::int64_t;  ///< distance in the problem's distance unit (VROOM: metres)
using Cost = std::int64_t;      ///< cost in internal cost units, see Problem::cost_scale()
using Id = std::uint64_t;       ///< user-facing id of a job, shipment step, vehicle or break

inline constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

// kMaxTime (latest representable instant), kUnreachable (a matrix entry at or above it means
// "no path") and kMaxDims come from routesolve/hd/segment.hpp, shared with device code.

/// A multi-dimensional quantity (capacity, delivery, pickup, load).
/// All amounts of one problem share the same number of dimensions.
class Amount {
 public:
  Amount() = default;
  explicit Amount(std::size_t dims) : v_(dims, 0) {}
  Amount(std::initializer_list<std::int64_t> values) : v_(values) {}
  explicit Amount(std::vector<std::int64_t> values) : v_(std::move(values)) {}

  [[nodiscard]] std::size_t size() const noexcept { return v_.size(); }
  [[nodiscard]] bool empty() const noexcept { return v_.empty(); }
  std::int64_t& operator[](std::size_t i) { return v_[i]; }
  std::int64_t operator[](std::size_t i) const { return v_[i]; }
  [[nodiscard]] const std::vector<std::int64_t>& values() const noexcept { return v_; }
  [[nodiscard]] auto begin() const noexcept { return v_.begin(); }
  [[nodiscard]] auto end() const noexcept { return v_.end(); }

  Amount& operator+=(const Amount& o) {
    for (std::size_t i = 0; i < v_.size(); ++i) v_[i] += o.v_[i];
    return *this;
  }
  Amount& operator-=(const Amount& o) {
    for (std::size_t i = 0; i < v_.size(); ++i) v_[i] -= o.v_[i];
    return *this;
  }
  friend Amount operator+(Amount a, const Amount& b) { return a += b; }
  friend Amount operator-(Amount a, const Amount& b) { return a -= b; }
  friend bool operator==(const Amount&, const Amount&) = default;

  /// Component-wise a <= b (fits within capacity).
  [[nodiscard]] bool fits_in(const Amount& capacity) const {
    for (std::size_t i = 0; i < v_.size(); ++i)
      if (v_[i] > capacity.v_[i]) return false;
    return true;
  }
  /// Component-wise maximum, in place.
  void max_with(const Amount& o) {
    for (std::size_t i = 0; i < v_.size(); ++i) v_[i] = std::max(v_[i], o.v_[i]);
  }

 private:
  std::vector<std::int64_t> v_;
};

struct TimeWindow {
  Duration start = 0;
  Duration end = kMaxTime;
  [[nodiscard]] bool contains(Duration t) const noexcept { return start <= t && t <= end; }
  friend bool operator==(const TimeWindow&, const TimeWindow&) = default;
};

/// WGS84 position (or planar x/y for benchmark instances: lon = x, lat = y).
struct Coordinates {
  double lon = 0.0;
  double lat = 0.0;
  friend bool operator==(const Coordinates&, const Coordinates&) = default;
};

/// Where a matrix's entries come from, when a reader computed them from points on a plane: entry
/// (a, b) is scale x the Euclidean distance between points[a] and points[b], rounded to an integer
/// as `rounding` says (a truncation to one decimal is rounding down at scale 10), so a
/// non-decreasing function of that distance, less than one unit away from scale x distance.
/// A spatial index over the points may then stand in for a scan of every pair (search's
/// neighbour lists).
struct PlanarSource {
  std::vector<Coordinates> points;  ///< by location (matrix index)
  double scale = 1.0;               ///< matrix units per coordinate unit
  PlanarRounding rounding = PlanarRounding::Nearest;
};

/// True when planar_arc computes `source`'s entries exactly (so a Matrix may hold the points
/// instead of the cells): an integral scale up to 10^6, integral points below 10^9 in magnitude,
/// and the squared span x scale^2 below kPlanarExactBound.
[[nodiscard]] inline bool planar_exact(const PlanarSource& source) noexcept {
  const auto integral = [](double v) {
    return std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e9;
  };
  if (source.points.empty() || !integral(source.scale) || source.scale <= 0 || source.scale > 1e6)
    return false;
  double min_x = source.points[0].lon, max_x = min_x, min_y = source.points[0].lat, max_y = min_y;
  for (const Coordinates& p : source.points) {
    if (!integral(p.lon) || !integral(p.lat)) return false;
    min_x = std::min(min_x, p.lon), max_x = std::max(max_x, p.lon);
    min_y = std::min(min_y, p.lat), max_y = std::max(max_y, p.lat);
  }
  const double span = (max_x - min_x) * (max_x - min_x) + (max_y - min_y) * (max_y - min_y);
  return span * (source.scale * source.scale) < kPlanarExactBound;
}

/// Largest planar table the readers store as cells (4,096 locations at 4 bytes): a table no larger
/// than the rest of a solve of that size (docs/EXPERIMENTS.md, "Costs from coordinates"), where
/// reading an entry is faster than computing it; larger ones hold the points (Matrix::from_points).
inline constexpr std::size_t kPlanarTableBytes = std::size_t{64} << 20;

/// A dense row-major square matrix of integer travel measures. Copies share their storage
/// until one of them is written (copy on write): the formats whose durations, distances and
/// costs are one table (CVRPLIB, Solomon, Li & Lim) hold it once, and Problem::create points its
/// travel tables at it when nothing needs converting.
///
/// Entries are stored in 32 bits while every value written fits in a std::int32_t, and in 64
/// bits otherwise: writing a value outside the 32-bit range (kUnreachable, for one) widens the
/// whole matrix once, so every value keeps its meaning and only tables that need 64 bits pay for
/// them. Readers go through operator() or, in bulk, through data32() / data64() (exactly one is
/// non-null for a non-empty matrix, as narrow() says).
///
/// A reader that computed the entries from planar points says so with set_planar(); every write
/// forgets it, so planar() never describes other values than the matrix holds. A matrix made by
/// from_points() holds the points instead of the cells and computes each entry (planar_arc): 16
/// bytes per location instead of 4 per pair. Its first write stores the cells (materialise()).
class Matrix {
 public:
  /// A writable entry: assigning a value that does not fit the 32-bit storage widens it.
  class Ref {
   public:
    Ref(Matrix& m, std::size_t k) noexcept : m_(m), k_(k) {}
    Ref(const Ref&) = default;
    operator std::int64_t() const noexcept {
      return m_.at(k_);
    }  // NOLINT(google-explicit-constructor)
    Ref& operator=(std::int64_t v) {
      m_.set(k_, v);
      return *this;
    }
    Ref& operator=(const Ref& o) { return *this = static_cast<std::int64_t>(o); }
    Ref& operator+=(std::int64_t v) { return *this = m_.at(k_) + v; }

   private:
    Matrix& m_;
    std::size_t k_;
  };

  Matrix() = default;
  explicit Matrix(std::size_t n, std::int64_t fill = 0) : n_(n), data_(std::make_shared<Cells>()) {
    narrow_ = fits32(fill);
    if (narrow_)
      data_->narrow.assign(n * n, static_cast<std::int32_t>(fill));
    else
      data_->wide.assign(n * n, fill);
  }
  /// Row-major values; stored in 32 bits when every one fits.
  Matrix(std::size_t n, std::vector<std::int64_t> data) : n_(n), data_(std::make_shared<Cells>()) {
    narrow_ = std::all_of(data.begin(), data.end(), fits32);
    if (narrow_)
      data_->narrow.assign(data.begin(), data.end());
    else
      data_->wide = std::move(data);
  }
  /// Row-major values already in 32 bits (a named function: Matrix(n, {...}) stays unambiguous).
  static Matrix from32(std::size_t n, std::vector<std::int32_t> data) {
    Matrix m;
    m.n_ = n;
    m.data_ = std::make_shared<Cells>();
    m.data_->narrow = std::move(data);
    return m;
  }

  /// The matrix of `source`'s entries, computed from its points on every read (no cells).
  /// Requires planar_exact(*source); planar() is source.
  static Matrix from_points(std::shared_ptr<const PlanarSource> source) {
    if (!source || !planar_exact(*source))
      throw std::invalid_argument("Matrix::from_points: entries not exact in floating point");
    if (source->points.size() > std::numeric_limits<std::uint32_t>::max())
      throw std::invalid_argument("Matrix::from_points: more points than 32-bit indices hold");
    Matrix m;
    m.n_ = source->points.size();
    m.data_ = std::make_shared<Cells>();
    m.data_->points.reserve(m.n_);
    for (const Coordinates& c : source->points)
      m.data_->points.push_back(PlanarPoint{c.lon, c.lat});
    m.data_->scale_squared = source->scale * source->scale;
    m.data_->rounding = source->rounding;
    m.computed_ = true;
    m.planar_ = std::move(source);
    return m;
  }

  /// True when v fits the 32-bit storage.
  [[nodiscard]] static constexpr bool fits32(std::int64_t v) noexcept {
    return v >= std::numeric_limits<std::int32_t>::min() &&
           v <= std::numeric_limits<std::int32_t>::max();
  }

  [[nodiscard]] std::size_t size() const noexcept { return n_; }
  [[nodiscard]] std::int64_t operator()(std::size_t i, std::size_t j) const noexcept {
    return computed_ ? planar_arc(data_->points.data(), i, j, data_->scale_squared, data_->rounding)
                     : at(i * n_ + j);
  }
  Ref operator()(std::size_t i, std::size_t j) noexcept { return Ref(*this, i * n_ + j); }
  /// Entry k of the row-major storage.
  [[nodiscard]] std::int64_t at(std::size_t k) const noexcept {
    if (computed_) return (*this)(k / n_, k % n_);
    return narrow_ ? std::int64_t{data_->narrow[k]} : data_->wide[k];
  }
  /// Writes entry k (widening the storage when v does not fit 32 bits).
  void set(std::size_t k, std::int64_t v) {
    if (computed_) materialise();
    planar_.reset();
    Cells& c = own();
    if (narrow_ && !fits32(v)) widen(c);
    if (narrow_)
      c.narrow[k] = static_cast<std::int32_t>(v);
    else
      c.wide[k] = v;
  }
  /// The points the entries were computed from (see PlanarSource), or null: set by the reader
  /// that computed them, shared by copies, forgotten by the next write.
  [[nodiscard]] const PlanarSource* planar() const noexcept { return planar_.get(); }
  /// Records that the entries are the rounded planar distances of `source` (one point per row).
  void set_planar(std::shared_ptr<const PlanarSource> source) {
    if (source && source->points.size() != n_)
      throw std::invalid_argument("Matrix::set_planar: one point per location expected");
    planar_ = std::move(source);
  }
  /// True when the entries are computed from points (from_points) rather than stored.
  [[nodiscard]] bool computed() const noexcept { return computed_; }
  /// Stores the cells of a computed matrix (after check_matrix_memory, naming `what`:
  /// Error(OutOfMemory) when they cannot fit), keeping planar(); nothing for a stored one.
  void materialise(std::string_view what = "a planar matrix written to");
  /// True when the entries fit 32 bits: stored so, or computed.
  [[nodiscard]] bool narrow() const noexcept { return narrow_; }
  /// The 32-bit storage, or null when the matrix is empty, computed or stored in 64 bits.
  [[nodiscard]] const std::int32_t* data32() const noexcept {
    return data_ && narrow_ && !computed_ ? data_->narrow.data() : nullptr;
  }
  /// The 64-bit storage, or null when the matrix is empty or stored in 32 bits.
  [[nodiscard]] const std::int64_t* data64() const noexcept {
    return data_ && !narrow_ ? data_->wide.data() : nullptr;
  }
  /// The storage in whichever width it has (data32() or data64()), or the points of a computed
  /// matrix; null when empty. Equal for matrices that share their storage.
  [[nodiscard]] const void* storage() const noexcept {
    if (computed_) return data_->points.data();
    return narrow_ ? static_cast<const void*>(data32()) : static_cast<const void*>(data64());
  }
  /// Bytes of the storage: n^2 cells of 4 or 8 bytes, or n points of a computed matrix.
  [[nodiscard]] std::size_t storage_bytes() const noexcept {
    return computed_ ? n_ * sizeof(PlanarPoint) : n_ * n_ * (narrow_ ? 4 : 8);
  }
  /// The travel table that reads this matrix (null when empty).
  [[nodiscard]] TravelTable table() const noexcept {
    if (computed_)
      return TravelTable(data_->points.data(), n_, data_->scale_squared, data_->rounding);
    return narrow_ ? TravelTable(data32()) : TravelTable(data64());
  }
  /// The whole matrix in 64 bits (a copy when stored in 32, every entry when computed).
  [[nodiscard]] std::vector<std::int64_t> values() const {
    if (!data_) return {};
    if (computed_) {
      std::vector<std::int64_t> out(n_ * n_);
      for (std::size_t k = 0; k < out.size(); ++k) out[k] = at(k);
      return out;
    }
    if (!narrow_) return data_->wide;
    return {data_->narrow.begin(), data_->narrow.end()};
  }
  [[nodiscard]] bool empty() const noexcept { return n_ == 0; }
  /// True when both hold the same storage (then equal without comparing).
  [[nodiscard]] bool shares(const Matrix& o) const noexcept {
    return data_ != nullptr && data_ == o.data_;
  }
  friend bool operator==(const Matrix& a, const Matrix& b) {
    if (a.n_ != b.n_) return false;
    if (a.data_ == b.data_ || a.n_ == 0) return true;
    if (a.computed_ || b.computed_) {
      for (std::size_t i = 0; i < a.n_; ++i)
        for (std::size_t j = 0; j < a.n_; ++j)
          if (a(i, j) != b(i, j)) return false;
      return true;
    }
    if (a.narrow_ == b.narrow_)
      return a.narrow_ ? a.data_->narrow == b.data_->narrow : a.data_->wide == b.data_->wide;
    const Matrix& x = a.narrow_ ? a : b;  // the 32-bit one
    const Matrix& y = a.narrow_ ? b : a;
    return std::equal(x.data_->narrow.begin(), x.data_->narrow.end(), y.data_->wide.begin(),
                      [](std::int32_t u, std::int64_t v) { return std::int64_t{u} == v; });
  }

 private:
  struct Cells {
    std::vector<std::int32_t> narrow;  // used when Matrix::narrow_
    std::vector<std::int64_t> wide;    // used otherwise
    std::vector<PlanarPoint> points;   // used when Matrix::computed_
    double scale_squared = 1.0;
    PlanarRounding rounding = PlanarRounding::Nearest;
  };
  /// The storage, made this matrix's own first if it is shared (copy on write).
  Cells& own() {
    if (!data_)
      data_ = std::make_shared<Cells>();
    else if (data_.use_count() > 1)
      data_ = std::make_shared<Cells>(*data_);
    return *data_;
  }
  void widen(Cells& c) {
    c.wide.assign(c.narrow.begin(), c.narrow.end());
    c.narrow = {};
    narrow_ = false;
  }

  std::size_t n_ = 0;
  bool narrow_ = true;
  bool computed_ = false;
  std::shared_ptr<Cells> data_;
  std::shared_ptr<const PlanarSource> planar_;
};

}  // namespace routesolve
