#pragma once
// Host side of the batched insertion engines: a batch of requests laid out as slots and rows
// (insertion_kernels.cuh), built once per engine call from the solutions' own tour segments,
// and the engines that price it: the host twin and the device engine (insertion_engines.hpp).

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "insertion_kernels.cuh"
#include "routesolve/search/insertion_engine.hpp"

namespace routesolve::cuda::insertion {

namespace hd = ::routesolve::search::hd;
using detail::insertion::BatchView;
using detail::insertion::BestRow;

/// A batch with host pointers into the solutions' tours (what the host twin prices, and what
/// the device engine mirrors).
struct HostBatch {
  std::vector<hd::TourView> slots;
  std::vector<std::uint32_t> slot_request;
  std::vector<const search::WorkingSolution*> slot_solution;
  std::vector<hd::Inserted> inserted;
  std::vector<std::size_t> request_task;  ///< the task of each request
  std::vector<std::uint64_t> blink_keys;
  std::vector<std::uint32_t> blink_thresholds;
  std::vector<std::uint32_t> row_slot, row_k;
  std::vector<std::uint64_t> request_rows;
  const search::SegmentModel* model = nullptr;

  /// Lays out the requests (all on solutions of one model). Tours a task cannot go to at all
  /// get no slot (search::tour_view).
  void build(std::span<const search::InsertionRequest> requests);
  /// Host view (pointers into this batch and the solutions).
  [[nodiscard]] BatchView view() const;
  /// The choice of request r given its best row.
  [[nodiscard]] search::InsertionChoice choice(const BestRow& best) const;
};

/// The host twin's best row of request r: its rows in order with the running bound.
BestRow best_row_host(const BatchView& batch, std::uint32_t r);

/// Stage times and volumes of an engine, accumulated over calls.
struct InsertionStats {
  double pack = 0.0, h2d = 0.0, kernels = 0.0, d2h = 0.0, check = 0.0;
  std::uint64_t calls = 0, requests = 0, rows = 0;
  std::uint64_t h2d_bytes = 0, h2d_copies = 0, d2h_bytes = 0;
  std::uint64_t tours_uploaded = 0, tours_reused = 0;
  /// The tour store (tour_store.hpp): its size and records now, its growths, the times it
  /// filled and was reclaimed, the records of solutions no longer seen that it forgot.
  std::uint64_t store_bytes = 0, tours_held = 0, store_growths = 0, store_reclaims = 0,
                tours_released = 0;
  std::uint64_t mismatches = 0;
};

}  // namespace routesolve::cuda::insertion
