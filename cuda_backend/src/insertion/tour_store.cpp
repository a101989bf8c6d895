#include "tour_store.hpp"

#include <algorithm>
#include <cstring>

namespace routesolve::cuda::insertion {

namespace {

constexpr std::size_t kAlign = 256;

std::size_t aligned(std::size_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; }

/// The room a record gets: half as much again as it needs, so that a tour can grow a little in
/// place.
std::size_t room_for(std::size_t bytes) { return aligned(bytes + bytes / 2); }

}  // namespace

std::size_t record_bytes(std::size_t n) {
  return 2 * (n + 2) * sizeof(RouteSegment) + n * sizeof(std::size_t);
}

void write_record(const hd::TourView& t, std::byte* at) {
  std::memcpy(at, t.prefix, (t.n + 2) * sizeof(RouteSegment));
  std::memcpy(at + (t.n + 2) * sizeof(RouteSegment), t.suffix, (t.n + 2) * sizeof(RouteSegment));
  if (t.n > 0)
    std::memcpy(at + 2 * (t.n + 2) * sizeof(RouteSegment), t.task_ids, t.n * sizeof(std::size_t));
}

hd::TourView at_record(hd::TourView t, const std::byte* record) {
  t.prefix = reinterpret_cast<const RouteSegment*>(record);
  t.suffix = t.prefix + (t.n + 2);
  t.task_ids = reinterpret_cast<const std::size_t*>(record + 2 * (t.n + 2) * sizeof(RouteSegment));
  return t;
}

const TourStore::Plan& TourStore::place(const HostBatch& batch) {
  ++call_;
  const std::size_t ns = batch.slots.size();
  // What the call needs, every slot counted once: new room for the tours without room enough,
  // and the room of all its tours in an empty store.
  std::size_t fresh = 0, whole = 0;
  for (std::size_t s = 0; s < ns; ++s) {
    Entry& e = entries_[Key{batch.slot_solution[s], batch.slots[s].vehicle}];
    if (e.seen == call_) continue;  // a tour twice in one call
    e.seen = call_;
    const std::size_t bytes = record_bytes(batch.slots[s].n);
    whole += room_for(bytes);
    if (e.capacity < bytes) fresh += room_for(bytes);
  }
  plan_.grow = false;
  if (used_ + fresh > capacity_) {
    // Full: every record goes (those of other solutions and outgrown rooms are reclaimed) and the
    // call's tours are placed from the start, in a larger store when they need more than half.
    if (whole > capacity_ / 2) {
      capacity_ = std::max({min_capacity_, 2 * capacity_, 2 * whole});
      plan_.grow = true;
      ++growths_;
    } else {
      ++reclaims_;
    }
    entries_.clear();
    used_ = 0;
  }
  plan_.slot_offset.assign(ns, 0);
  plan_.moves.clear();
  plan_.records.clear();
  for (std::size_t s = 0; s < ns; ++s) {
    const hd::TourView& t = batch.slots[s];
    const std::uint64_t version = batch.slot_solution[s]->tour(t.vehicle).version;
    Entry& e = entries_[Key{batch.slot_solution[s], t.vehicle}];
    e.seen = call_;
    const std::size_t bytes = record_bytes(t.n);
    if (e.capacity >= bytes && e.version == version) {
      ++reused_;
    } else {
      if (e.capacity < bytes) {
        e.offset = used_;
        e.capacity = room_for(bytes);
        used_ += e.capacity;
      }
      e.version = version;
      const std::size_t src = plan_.records.size();
      plan_.records.resize(src + aligned(bytes));
      write_record(t, plan_.records.data() + src);
      plan_.moves.push_back(Move{src, e.offset, aligned(bytes)});
      ++uploaded_;
    }
    plan_.slot_offset[s] = e.offset;
  }
  if (call_ % kForgetAfter == 0) forget_unseen();
  plan_.capacity = capacity_;
  return plan_;
}

void TourStore::forget_unseen() {
  released_ += std::erase_if(
      entries_, [&](const auto& kv) { return kv.second.seen + kForgetAfter <= call_; });
}

void TourStore::report(InsertionStats& stats) const {
  stats.tours_uploaded = uploaded_;
  stats.tours_reused = reused_;
  stats.store_bytes = capacity_;
  stats.tours_held = entries_.size();
  stats.store_growths = growths_;
  stats.store_reclaims = reclaims_;
  stats.tours_released = released_;
}

void TourStore::clear(std::size_t capacity) {
  entries_.clear();
  used_ = 0;
  capacity_ = capacity;
}

}  // namespace routesolve::cuda::insertion
