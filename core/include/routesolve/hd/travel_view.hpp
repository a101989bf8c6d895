#pragma once
// The travel data one vehicle sees, as plain row-major arrays (n x n): durations after the
// vehicle's speed factor, distances, and per-arc cost in internal cost units. The same view is
// read by the schedule, the CPU search and the device kernels (host or device pointers).

#include <cstddef>
#include <cstdint>

#include "routesolve/hd/host_device.hpp"

namespace routesolve {

/// One n x n table of a view: entries of 64 bits, or of 32 bits when the matrix it points at is
/// stored that way (routesolve::Matrix). A null table reads as absent (compare with nullptr).
class TravelTable {
 public:
  TravelTable() = default;
  RS_HD TravelTable(std::nullptr_t) noexcept {}  // NOLINT(google-explicit-constructor)
  RS_HD TravelTable(const std::int64_t* p) noexcept : p_(p) {}  // NOLINT(google-explicit-constructor)
  RS_HD TravelTable(const std::int32_t* p) noexcept : p_(p), narrow_(p != nullptr) {}  // NOLINT(google-explicit-constructor)
  /// A table of the given width at p (a copy of another table: on the device, in an arena).
  RS_HD TravelTable(const void* p, bool narrow) noexcept : p_(p), narrow_(narrow && p != nullptr) {}
  /// Entry k of the row-major table.
  [[nodiscard]] RS_HD std::int64_t operator[](std::size_t k) const noexcept {
    return narrow_ ? std::int64_t{static_cast<const std::int32_t*>(p_)[k]} : static_cast<const std::int64_t*>(p_)[k];
  }
  [[nodiscard]] RS_HD const void* data() const noexcept { return p_; }
  RS_HD explicit operator bool() const noexcept { return p_ != nullptr; }
  [[nodiscard]] RS_HD bool narrow() const noexcept { return narrow_; }
  /// Bytes per entry: 4 or 8.
  [[nodiscard]] RS_HD std::size_t entry_bytes() const noexcept { return narrow_ ? 4 : 8; }
  friend RS_HD bool operator==(const TravelTable& a, std::nullptr_t) noexcept { return a.p_ == nullptr; }
  friend RS_HD bool operator==(const TravelTable& a, const TravelTable& b) noexcept {
    return a.p_ == b.p_ && a.narrow_ == b.narrow_;
  }
  // Spelled out for the device code, compiled as C++17 (no rewritten comparisons).
  friend RS_HD bool operator!=(const TravelTable& a, std::nullptr_t) noexcept { return a.p_ != nullptr; }
  friend RS_HD bool operator!=(const TravelTable& a, const TravelTable& b) noexcept { return !(a == b); }

 private:
  const void* p_ = nullptr;
  bool narrow_ = false;
};

struct TravelView {
  std::size_t n = 0;
  TravelTable durations;
  TravelTable distances;  ///< may be null in device batches: all zero
  TravelTable costs;
  [[nodiscard]] RS_HD std::int64_t duration(std::size_t i, std::size_t j) const noexcept { return durations[i * n + j]; }
  [[nodiscard]] RS_HD std::int64_t distance(std::size_t i, std::size_t j) const noexcept { return distances[i * n + j]; }
  [[nodiscard]] RS_HD std::int64_t cost(std::size_t i, std::size_t j) const noexcept { return costs[i * n + j]; }
};

}  // namespace routesolve
