#pragma once
// The travel data one vehicle sees, as plain row-major arrays (n x n): durations after the
// vehicle's speed factor, distances, and per-arc cost in internal cost units. The same view is
// read by the schedule, the CPU search and the device kernels (host or device pointers).

#include <cstddef>
#include <cstdint>

#include "routesolve/hd/host_device.hpp"
#include "routesolve/hd/planar_arc.hpp"

namespace routesolve {

/// One n x n table of a view: entries of 64 bits, or of 32 bits when the matrix it points at is
/// stored that way (routesolve::Matrix), or computed from n planar points (planar_arc) when the
/// matrix holds points instead of cells. A null table reads as absent (compare with nullptr).
class TravelTable {
 public:
  TravelTable() = default;
  RS_HD TravelTable(std::nullptr_t) noexcept {}  // NOLINT(google-explicit-constructor)
  RS_HD TravelTable(const std::int64_t* p) noexcept
      : p_(p) {}  // NOLINT(google-explicit-constructor)
  RS_HD TravelTable(const std::int32_t* p) noexcept
      : p_(p), narrow_(p != nullptr) {}  // NOLINT(google-explicit-constructor)
  /// A table of the given width at p (a copy of another table: on the device, in an arena).
  RS_HD TravelTable(const void* p, bool narrow) noexcept : p_(p), narrow_(narrow && p != nullptr) {}
  /// The table of the rounded planar distances of `n` points (n > 0) at `points`.
  RS_HD TravelTable(const PlanarPoint* points, std::size_t n, double scale_squared,
                    PlanarRounding rounding) noexcept
      : p_(points),
        scale_squared_(scale_squared),
        points_(points != nullptr ? static_cast<std::uint32_t>(n) : 0),
        rounding_(rounding) {}
  /// Entry k of the row-major table (a computed table divides k: cold paths only).
  [[nodiscard]] RS_HD std::int64_t operator[](std::size_t k) const noexcept {
    if (narrow_) return static_cast<const std::int32_t*>(p_)[k];
    if (points_ == 0) return static_cast<const std::int64_t*>(p_)[k];
    return at(k / points_, k % points_, points_);
  }
  /// Entry (i, j) of an n x n table; stored 32-bit cells first: one branch, as before the
  /// computed form (docs/EXPERIMENTS.md).
  [[nodiscard]] RS_HD std::int64_t at(std::size_t i, std::size_t j, std::size_t n) const noexcept {
    if (__builtin_expect(narrow_, 1)) return static_cast<const std::int32_t*>(p_)[i * n + j];
    if (__builtin_expect(points_ == 0, 1)) return static_cast<const std::int64_t*>(p_)[i * n + j];
    return planar_arc(static_cast<const PlanarPoint*>(p_), i, j, scale_squared_,
                      rounding_);  // laid out of line
  }
  /// The storage: the cells, or the points of a computed table.
  [[nodiscard]] RS_HD const void* data() const noexcept { return p_; }
  RS_HD explicit operator bool() const noexcept { return p_ != nullptr; }
  /// True when the cells are stored in 32 bits (false for a computed table).
  [[nodiscard]] RS_HD bool narrow() const noexcept { return narrow_; }
  /// True when the entries are computed from points (data() is a PlanarPoint array).
  [[nodiscard]] RS_HD bool computed() const noexcept { return points_ != 0; }
  /// A computed table's scale^2 and rounding (planar_arc's inputs besides the points).
  [[nodiscard]] RS_HD double scale_squared() const noexcept { return scale_squared_; }
  [[nodiscard]] RS_HD PlanarRounding rounding() const noexcept { return rounding_; }
  /// Bytes per stored entry: 4 or 8 (a computed table stores none: its entries fit 32 bits).
  [[nodiscard]] RS_HD std::size_t entry_bytes() const noexcept {
    return narrow_ || points_ != 0 ? 4 : 8;
  }
  /// Bytes of the storage of an n x n table: n^2 cells, or the n points of a computed table.
  [[nodiscard]] RS_HD std::size_t storage_bytes(std::size_t n) const noexcept {
    if (p_ == nullptr) return 0;
    return points_ != 0 ? points_ * sizeof(PlanarPoint) : n * n * entry_bytes();
  }
  /// The same table with its storage (a copy of storage_bytes) at p: on the device, in an arena.
  [[nodiscard]] RS_HD TravelTable moved_to(const void* p) const noexcept {
    TravelTable t = *this;
    t.p_ = p;
    if (p == nullptr) t = TravelTable();
    return t;
  }
  friend RS_HD bool operator==(const TravelTable& a, std::nullptr_t) noexcept {
    return a.p_ == nullptr;
  }
  friend RS_HD bool operator==(const TravelTable& a, const TravelTable& b) noexcept {
    return a.p_ == b.p_ && a.narrow_ == b.narrow_ && a.points_ == b.points_;
  }
  // Spelled out for the device code, compiled as C++17 (no rewritten comparisons).
  friend RS_HD bool operator!=(const TravelTable& a, std::nullptr_t) noexcept {
    return a.p_ != nullptr;
  }
  friend RS_HD bool operator!=(const TravelTable& a, const TravelTable& b) noexcept {
    return !(a == b);
  }

 private:
  const void* p_ = nullptr;
  double scale_squared_ = 0.0;  // computed tables: scale^2
  std::uint32_t points_ = 0;    // computed tables: n; 0 for stored cells
  bool narrow_ = false;
  PlanarRounding rounding_ = PlanarRounding::Nearest;
};

/// The three measures of one arc.
struct Arc {
  std::int64_t duration = 0;
  std::int64_t distance = 0;  ///< 0 where the view has no distances
  std::int64_t cost = 0;
};

struct TravelView {
  std::size_t n = 0;
  TravelTable durations;
  TravelTable distances;  ///< may be null in device batches: all zero
  TravelTable costs;
  [[nodiscard]] RS_HD std::int64_t duration(std::size_t i, std::size_t j) const noexcept {
    return durations.at(i, j, n);
  }
  [[nodiscard]] RS_HD std::int64_t distance(std::size_t i, std::size_t j) const noexcept {
    return distances.at(i, j, n);
  }
  [[nodiscard]] RS_HD std::int64_t cost(std::size_t i, std::size_t j) const noexcept {
    return costs.at(i, j, n);
  }
  /// Arc (i, j) read once where the tables are one (CVRPLIB, Solomon: one square root for a
  /// computed table, not three).
  [[nodiscard]] RS_HD Arc arc(std::size_t i, std::size_t j) const noexcept {
    const std::int64_t c = cost(i, j);
    const void* one = costs.data();  // one storage is one table
    return Arc{durations.data() == one ? c : duration(i, j),
               distances == nullptr      ? 0
               : distances.data() == one ? c
                                         : distance(i, j),
               c};
  }
};

}  // namespace routesolve
