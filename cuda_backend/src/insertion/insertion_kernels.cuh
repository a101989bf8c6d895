#pragma once
// The batched insertion pricing, once for host and device (RS_HD): a batch holds requests (a
// task to place in one solution), each with its candidate tours (slots), each slot with its
// rows (a job: one row per position k; a shipment: one row per pickup position i, the
// delivery positions scanned inside). Every row is priced by the search's own position body
// (routesolve/search/hd/insertion_pricing.hpp); the best row of a request is the cheapest,
// ties going to the earlier row (rows are in slot order, then k), which is the choice of the
// CPU engine's sequential scan.
//
// Device: PriceRowBody on one thread per row (no bound), then ReduceBody, one block per
// request, the lexicographic minimum of (delta, row). Host twin: the rows of a request in
// order with the running bound (pricing_host.cpp), one request per OpenMP iteration.

#include <cstddef>
#include <cstdint>

#include "routesolve/hd/host_device.hpp"
#include "routesolve/search/hd/insertion_pricing.hpp"

namespace routesolve::cuda::detail::insertion {

namespace hd = ::routesolve::search::hd;

/// Reads task segments from one array (the model's, or its device copy).
struct TaskSegments {
  const RouteSegment* segments = nullptr;
  [[nodiscard]] RS_HD const RouteSegment& operator()(std::size_t task) const noexcept {
    return segments[task];
  }
};

/// A batch as the bodies read it (host pointers for the host twin, device pointers on the device).
struct BatchView {
  const hd::TourView* slots = nullptr;  ///< candidate tours
  const std::uint32_t* slot_request = nullptr;
  const hd::Inserted* inserted = nullptr;     ///< per request
  const std::uint64_t* blink_keys = nullptr;  ///< per request
  const std::uint32_t* blink_thresholds = nullptr;
  const std::uint32_t* row_slot = nullptr;  ///< per row
  const std::uint32_t* row_k = nullptr;     ///< per row: the position (jobs) or pickup position i
  const std::uint64_t* request_rows = nullptr;  ///< requests + 1 offsets into the rows
  TaskSegments task_segments;
  std::size_t dims = 0;
  std::uint64_t rows = 0;
  std::uint32_t requests = 0;
};

/// The best row of one request.
struct BestRow {
  std::int64_t delta = hd::kNoInsertion;
  std::uint64_t row = 0;
  std::uint64_t j = 0;
};

/// Prices one row: below `bound`, feasible and unblinked, else kNoInsertion.
RS_HD inline hd::Priced price_row(const BatchView& b, std::uint64_t row,
                                  std::int64_t bound) noexcept {
  const std::uint32_t slot = b.row_slot[row];
  const std::uint32_t r = b.slot_request[slot];
  const hd::TourView& tour = b.slots[slot];
  const hd::Inserted& x = b.inserted[r];
  const std::size_t k = b.row_k[row];
  if (x.sibling == nullptr)
    return hd::price_job(tour, x, b.dims, k, bound, b.blink_keys[r], b.blink_thresholds[r]);
  return hd::price_pair_row(tour, x, b.dims, k, bound, b.blink_keys[r], b.blink_thresholds[r],
                            b.task_segments);
}

/// (a.delta, a.row) < (b.delta, b.row).
RS_HD constexpr bool before(const BestRow& a, const BestRow& c) noexcept {
  return a.delta < c.delta || (a.delta == c.delta && a.row < c.row);
}

/// A tour record moved from the call's buffer into the tour store: bytes (a multiple of 8)
/// from records + src to store + dst.
struct Move {
  std::uint64_t src = 0, dst = 0, bytes = 0;
};

/// One block per move, its threads copying the record's 8-byte words in strides.
struct MoveRecordBody {
  const Move* moves = nullptr;
  const std::byte* records = nullptr;
  std::byte* store = nullptr;
  RS_HD void operator()(std::uint32_t thread, std::uint32_t block,
                        std::uint32_t block_dim) const noexcept {
    const Move m = moves[block];
    const auto* src = reinterpret_cast<const std::uint64_t*>(records + m.src);
    auto* dst = reinterpret_cast<std::uint64_t*>(store + m.dst);
    for (std::uint64_t w = thread; w < m.bytes / 8; w += block_dim) dst[w] = src[w];
  }
};

/// Device: one thread per row, every row priced without a bound.
struct PriceRowBody {
  BatchView batch;
  std::int64_t* delta = nullptr;  ///< per row
  std::uint64_t* j = nullptr;     ///< per row
  RS_HD void operator()(std::uint32_t thread, std::uint32_t block,
                        std::uint32_t block_dim) const noexcept {
    const std::uint64_t row = std::uint64_t{block} * block_dim + thread;
    if (row >= batch.rows) return;
    const hd::Priced p = price_row(batch, row, hd::kNoInsertion);
    delta[row] = p.delta;
    j[row] = p.j;
  }
};

}  // namespace routesolve::cuda::detail::insertion
