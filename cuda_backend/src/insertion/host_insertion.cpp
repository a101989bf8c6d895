// The host twin of the batched insertion pricing, and the checked engine that verifies a device
// engine against it.

#include <algorithm>
#include <chrono>
#include <mutex>
#include <utility>

#include "../host_grid.hpp"
#include "insertion_engines.hpp"
#include "routesolve/error.hpp"
#include "routesolve/timing.hpp"

namespace routesolve::cuda::insertion {

namespace {

class HostEngine final : public BatchedEngine {
 public:
  explicit HostEngine(unsigned threads) : threads_(std::max(1u, threads)) {}
  [[nodiscard]] std::string name() const override { return "host twin"; }
  [[nodiscard]] const InsertionStats& stats() const noexcept override { return stats_; }

  // Safe to call from several threads at once (chains on threads, like the segment engine's):
  // each thread packs into its own batch, and the figures are added under a lock.
  void price(std::span<const search::InsertionRequest> requests,
             std::span<search::InsertionChoice> out) override {
    thread_local HostBatch mine;
    HostBatch& batch = mine;  // the caller's, also inside the grid's worker threads
    const auto t0 = Clock::now();
    batch.build(requests);
    const auto t1 = Clock::now();
    const BatchView view = batch.view();
    // One block per request, one thread per block: the rows of a request in order.
    const detail::Grid grid{view.requests, 1};
    detail::run_grid_parallel(grid, requests.size() > 1 ? threads_ : 1u,
                              [&](std::uint32_t, std::uint32_t block, std::uint32_t) {
                                out[block] = batch.choice(best_row_host(view, block));
                              });
    const double pack = seconds_between(t0, t1), kernels = seconds_since(t1);
    const std::lock_guard lock(mutex_);
    stats_.pack += pack;
    stats_.kernels += kernels;
    ++stats_.calls;
    stats_.requests += view.requests;
    stats_.rows += view.rows;
  }

 private:
  unsigned threads_;
  std::mutex mutex_;
  InsertionStats stats_;
};

}  // namespace

std::unique_ptr<BatchedEngine> make_host_engine(unsigned threads) {
  return std::make_unique<HostEngine>(threads);
}

CheckedEngine::CheckedEngine(std::unique_ptr<BatchedEngine> device, unsigned threads,
                             std::uint64_t full_every, OnDeviceFault on_fault)
    : device_(std::move(device)),
      host_(make_host_engine(threads)),
      full_every_(std::max<std::uint64_t>(1, full_every)),
      on_fault_(on_fault) {}

std::string CheckedEngine::name() const {
  return reason_.empty() ? device_->name() : host_->name();
}

const InsertionStats& CheckedEngine::stats() const noexcept {
  const InsertionStats& d = device_->stats();
  const InsertionStats& h = host_->stats();
  const double check = stats_.check;
  stats_ = d;
  stats_.kernels += h.kernels;  // the host twin's pricing after a fallback
  stats_.pack += h.pack;
  stats_.check = check;
  stats_.mismatches = mismatches_;
  return stats_;
}

void CheckedEngine::price(std::span<const search::InsertionRequest> requests,
                          std::span<search::InsertionChoice> out) {
  if (!reason_.empty()) {
    host_->price(requests, out);
    return;
  }
  try {
    device_->price(requests, out);
  } catch (const Error& e) {
    if (e.code() != ErrorCode::Device && e.code() != ErrorCode::OutOfMemory) throw;
    // The device's state is unknown after a fault: it is not asked again.
    const std::string what = "the " + device_->name() + " failed (" + e.what() + ")";
    if (on_fault_ == OnDeviceFault::Fail) throw Error(ErrorCode::Device, what);
    faulted_ = true;
    reason_ = what + "; the search continued on the host twin";
    host_->price(requests, out);
    return;
  }
  const auto t0 = Clock::now();
  ++calls_;
  std::uint64_t wrong = 0;
  std::string first;
  if (calls_ % full_every_ == 0) {
    // The whole call again on the host twin, choice by choice.
    std::vector<search::InsertionChoice> host(requests.size());
    host_->price(requests, host);
    for (std::size_t r = 0; r < requests.size(); ++r)
      if (!(host[r] == out[r])) {
        if (wrong++ == 0)
          first = "request " + std::to_string(r) + " (task " + std::to_string(requests[r].task) +
                  "): device chose vehicle " + std::to_string(out[r].vehicle) + " at (" +
                  std::to_string(out[r].i) + ", " + std::to_string(out[r].j) + ") delta " +
                  std::to_string(out[r].delta) + ", host twin vehicle " +
                  std::to_string(host[r].vehicle) + " delta " + std::to_string(host[r].delta);
        out[r] = host[r];
      }
  } else {
    // Every choice re-priced at its position: same delta and delivery position, feasible.
    batch_.build(requests);
    const BatchView view = batch_.view();
    for (std::uint32_t r = 0; r < view.requests; ++r) {
      const search::InsertionChoice& c = out[r];
      if (!c.found()) continue;
      bool ok = false;
      for (std::uint64_t row = view.request_rows[r]; row < view.request_rows[r + 1] && !ok; ++row) {
        if (batch_.slots[view.row_slot[row]].vehicle != c.vehicle || view.row_k[row] != c.i)
          continue;
        const hd::Priced p = detail::insertion::price_row(view, row, hd::kNoInsertion);
        ok = p.delta == c.delta && p.j == c.j;
      }
      if (ok) continue;
      if (wrong++ == 0)
        first = "request " + std::to_string(r) + " (task " + std::to_string(requests[r].task) +
                "): device chose vehicle " + std::to_string(c.vehicle) + " at (" +
                std::to_string(c.i) + ", " + std::to_string(c.j) + ") delta " +
                std::to_string(c.delta) +
                ", which the host does not price so (or finds infeasible)";
    }
    if (wrong > 0) host_->price(requests, out);
  }
  stats_.check += seconds_since(t0);
  if (wrong == 0) return;
  mismatches_ += wrong;
  reason_ = std::to_string(wrong) + " insertion choice(s) of the " + device_->name() +
            " did not match the host twin (first: " + first +
            "); the search continued on the host twin";
}

}  // namespace routesolve::cuda::insertion
