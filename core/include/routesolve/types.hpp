#pragma once
// Basic vocabulary: integer measures, amounts, time windows, coordinates.
// All travel measures are integers so that move deltas and batched (GPU) results are exact.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
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

/// A dense row-major square matrix of integer travel measures. Copies share their storage
/// until one of them is written (copy on write): the formats whose durations, distances and
/// costs are one table (CVRPLIB, Solomon, Li & Lim) hold it once, and Problem::create points its
/// travel tables at it when nothing needs converting.
class Matrix {
 public:
  Matrix() = default;
  explicit Matrix(std::size_t n, std::int64_t fill = 0)
      : n_(n), data_(std::make_shared<std::vector<std::int64_t>>(n * n, fill)) {}
  Matrix(std::size_t n, std::vector<std::int64_t> data)
      : n_(n), data_(std::make_shared<std::vector<std::int64_t>>(std::move(data))) {}

  [[nodiscard]] std::size_t size() const noexcept { return n_; }
  [[nodiscard]] std::int64_t operator()(std::size_t i, std::size_t j) const noexcept {
    return (*data_)[i * n_ + j];
  }
  std::int64_t& operator()(std::size_t i, std::size_t j) { return own()[i * n_ + j]; }
  [[nodiscard]] const std::int64_t* data() const noexcept { return data_ ? data_->data() : nullptr; }
  std::int64_t* data() { return data_ ? own().data() : nullptr; }
  [[nodiscard]] bool empty() const noexcept { return n_ == 0; }
  /// True when both hold the same storage (then equal without comparing).
  [[nodiscard]] bool shares(const Matrix& o) const noexcept { return data_ != nullptr && data_ == o.data_; }
  friend bool operator==(const Matrix& a, const Matrix& b) {
    if (a.n_ != b.n_) return false;
    if (a.data_ == b.data_ || a.n_ == 0) return true;
    return *a.data_ == *b.data_;
  }

 private:
  /// The storage, made this matrix's own first if it is shared (copy on write).
  std::vector<std::int64_t>& own() {
    if (data_.use_count() > 1) data_ = std::make_shared<std::vector<std::int64_t>>(*data_);
    return *data_;
  }

  std::size_t n_ = 0;
  std::shared_ptr<std::vector<std::int64_t>> data_;
};

}  // namespace routesolve
