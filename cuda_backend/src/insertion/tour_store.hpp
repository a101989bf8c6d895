#pragma once
// The tour store of the device insertion engine, planned on the host: one record per
// (solution, vehicle) (the tour's prefix and suffix segments and its task ids), refreshed only
// when the tour's version changed. A call's plan says where each slot's record is, which records
// move up (MoveRecordBody: from the call's buffer into the store) and how large the store must
// be. The device engine runs the plan on the device; the mirrored host engine runs it in host
// memory with the same bodies, so CI tests the store's bookkeeping.
//
// Sizing: every slot of the call is counted before anything is placed, so a store that must
// grow grows once, to a size that holds the whole call. Records of solutions not seen for
// kForgetAfter calls are forgotten (solutions end: chains' copies, the fleet phase's bests); the
// space of forgotten and outgrown records is reclaimed when the store fills: every record is
// dropped and the call's tours are placed again from the start. The store grows only when one
// call needs more than half of it, so its size follows the largest call, not the solve's length.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "insertion_batch.hpp"

namespace routesolve::cuda::insertion {

using detail::insertion::Move;

/// Bytes of the record of a tour of n tasks, before alignment.
std::size_t record_bytes(std::size_t n);
/// Writes t's record (prefix, suffix, task ids) at `at`.
void write_record(const hd::TourView& t, std::byte* at);
/// t reading its prefix, suffix and task ids from the record at `record` (a host or device
/// address).
hd::TourView at_record(hd::TourView t, const std::byte* record);

class TourStore {
 public:
  /// Calls after which the records of a solution not seen since are forgotten.
  static constexpr std::uint64_t kForgetAfter = 256;

  /// A store, once allocated, of at least min_capacity bytes.
  explicit TourStore(std::size_t min_capacity) : min_capacity_(min_capacity) {}

  struct Plan {
    std::vector<std::size_t> slot_offset;  ///< per slot: its record's offset in the store
    std::vector<Move> moves;               ///< records (in `records`) into the store
    std::vector<std::byte> records;        ///< the changed tours' records, each aligned
    std::size_t capacity = 0;              ///< the store's size for this call
    /// capacity is larger than before: allocate it before the moves (nothing of the old store
    /// is needed)
    bool grow = false;
  };

  /// Plans the call of `batch`. Never fails for lack of room: a store too small grows.
  const Plan& place(const HostBatch& batch);
  /// Forgets every record (a new model, or a store that could not be allocated); the store now
  /// has `capacity` bytes.
  void clear(std::size_t capacity);

  [[nodiscard]] std::size_t capacity() const noexcept { return capacity_; }
  /// Records held now.
  [[nodiscard]] std::size_t held() const noexcept { return entries_.size(); }
  /// The store's figures into stats (tours uploaded and reused, size, growths, ...).
  void report(InsertionStats& stats) const;

 private:
  struct Key {
    const search::WorkingSolution* solution;
    std::size_t vehicle;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const noexcept {
      return std::hash<const void*>()(k.solution) * 31 + std::hash<std::size_t>()(k.vehicle);
    }
  };
  struct Entry {
    std::uint64_t version = 0;
    std::size_t offset = 0, capacity = 0;  ///< capacity 0: no room yet
    std::uint64_t seen = 0;                ///< the last call that used it
  };
  void forget_unseen();

  std::size_t min_capacity_;
  std::size_t capacity_ = 0, used_ = 0;
  std::uint64_t call_ = 0;
  std::unordered_map<Key, Entry, KeyHash> entries_;
  Plan plan_;
  std::uint64_t uploaded_ = 0, reused_ = 0, growths_ = 0, reclaims_ = 0, released_ = 0;
};

}  // namespace routesolve::cuda::insertion
