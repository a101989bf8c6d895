#pragma once
// Basic vocabulary: integer measures, amounts, time windows, coordinates.
// All travel measures are integers so that move deltas and batched (GPU) results are exact.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

#include "routesolve/hd/segment.hpp"

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
/// (to nearest, up or down: a truncation to one decimal is rounding down at scale 10), so a
/// non-decreasing function of that distance, less than one unit away from scale x distance.
/// A spatial index over the points may then stand in for a scan of every pair (search's
/// neighbour lists).
struct PlanarSource {
  std::vector<Coordinates> points;  ///< by location (matrix index)
  double scale = 1.0;               ///< matrix units per coordinate unit
};

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
/// forgets it, so planar() never describes other values than the matrix holds.
class Matrix {
 public:
  /// A writable entry: assigning a value that does not fit the 32-bit storage widens it.
  class Ref {
   public:
    Ref(Matrix& m, std::size_t k) noexcept : m_(m), k_(k) {}
    Ref(const Ref&) = default;
    operator std::int64_t() const noexcept { return m_.at(k_); }  // NOLINT(google-explicit-constructor)
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
    if (narrow_) data_->narrow.assign(n * n, static_cast<std::int32_t>(fill));
    else data_->wide.assign(n * n, fill);
  }
  /// Row-major values; stored in 32 bits when every one fits.
  Matrix(std::size_t n, std::vector<std::int64_t> data) : n_(n), data_(std::make_shared<Cells>()) {
    narrow_ = std::all_of(data.begin(), data.end(), fits32);
    if (narrow_) data_->narrow.assign(data.begin(), data.end());
    else data_->wide = std::move(data);
  }
  /// Row-major values already in 32 bits (a named function: Matrix(n, {...}) stays unambiguous).
  static Matrix from32(std::size_t n, std::vector<std::int32_t> data) {
    Matrix m;
    m.n_ = n;
    m.data_ = std::make_shared<Cells>();
    m.data_->narrow = std::move(data);
    return m;
  }

  /// True when v fits the 32-bit storage.
  [[nodiscard]] static constexpr bool fits32(std::int64_t v) noexcept {
    return v >= std::numeric_limits<std::int32_t>::min() && v <= std::numeric_limits<std::int32_t>::max();
  }

  [[nodiscard]] std::size_t size() const noexcept { return n_; }
  [[nodiscard]] std::int64_t operator()(std::size_t i, std::size_t j) const noexcept { return at(i * n_ + j); }
  Ref operator()(std::size_t i, std::size_t j) noexcept { return Ref(*this, i * n_ + j); }
  /// Entry k of the row-major storage.
  [[nodiscard]] std::int64_t at(std::size_t k) const noexcept {
    return narrow_ ? std::int64_t{data_->narrow[k]} : data_->wide[k];
  }
  /// Writes entry k (widening the storage when v does not fit 32 bits).
  void set(std::size_t k, std::int64_t v) {
    planar_.reset();
    Cells& c = own();
    if (narrow_ && !fits32(v)) widen(c);
    if (narrow_) c.narrow[k] = static_cast<std::int32_t>(v);
    else c.wide[k] = v;
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
  /// True when the entries are stored in 32 bits.
  [[nodiscard]] bool narrow() const noexcept { return narrow_; }
  /// The 32-bit storage, or null when the matrix is empty or stored in 64 bits.
  [[nodiscard]] const std::int32_t* data32() const noexcept {
    return data_ && narrow_ ? data_->narrow.data() : nullptr;
  }
  /// The 64-bit storage, or null when the matrix is empty or stored in 32 bits.
  [[nodiscard]] const std::int64_t* data64() const noexcept {
    return data_ && !narrow_ ? data_->wide.data() : nullptr;
  }
  /// The storage in whichever width it has (data32() or data64()); null when empty. Equal for
  /// matrices that share their storage.
  [[nodiscard]] const void* storage() const noexcept {
    return narrow_ ? static_cast<const void*>(data32()) : static_cast<const void*>(data64());
  }
  /// The whole matrix in 64 bits (a copy when stored in 32).
  [[nodiscard]] std::vector<std::int64_t> values() const {
    if (!data_) return {};
    if (!narrow_) return data_->wide;
    return {data_->narrow.begin(), data_->narrow.end()};
  }
  [[nodiscard]] bool empty() const noexcept { return n_ == 0; }
  /// True when both hold the same storage (then equal without comparing).
  [[nodiscard]] bool shares(const Matrix& o) const noexcept { return data_ != nullptr && data_ == o.data_; }
  friend bool operator==(const Matrix& a, const Matrix& b) {
    if (a.n_ != b.n_) return false;
    if (a.data_ == b.data_ || a.n_ == 0) return true;
    if (a.narrow_ == b.narrow_) return a.narrow_ ? a.data_->narrow == b.data_->narrow : a.data_->wide == b.data_->wide;
    const Matrix& x = a.narrow_ ? a : b;  // the 32-bit one
    const Matrix& y = a.narrow_ ? b : a;
    return std::equal(x.data_->narrow.begin(), x.data_->narrow.end(), y.data_->wide.begin(),
                      [](std::int32_t u, std::int64_t v) { return std::int64_t{u} == v; });
  }

 private:
  struct Cells {
    std::vector<std::int32_t> narrow;  // used when Matrix::narrow_
    std::vector<std::int64_t> wide;    // used otherwise
  };
  /// The storage, made this matrix's own first if it is shared (copy on write).
  Cells& own() {
    if (!data_) data_ = std::make_shared<Cells>();
    else if (data_.use_count() > 1) data_ = std::make_shared<Cells>(*data_);
    return *data_;
  }
  void widen(Cells& c) {
    c.wide.assign(c.narrow.begin(), c.narrow.end());
    c.narrow = {};
    narrow_ = false;
  }

  std::size_t n_ = 0;
  bool narrow_ = true;
  std::shared_ptr<Cells> data_;
  std::shared_ptr<const PlanarSource> planar_;
};

}  // namespace routesolve
