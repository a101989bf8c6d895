#pragma once
// The batched insertion engines of the search driver (search/insertion_engine.hpp): the host
// twin ("cuda-host": the kernels' bodies under an OpenMP loop over requests) and the device
// engine ("cuda": kernels, tours mirrored on the device and refreshed by one pinned copy per
// call), and the checked engine that runs the device engine under host verification.

#include <cstdint>
#include <memory>
#include <string>

#include "insertion_batch.hpp"
#include "routesolve/backend.hpp"

namespace routesolve::cuda::insertion {

class BatchedEngine : public search::InsertionEngine {
 public:
  [[nodiscard]] virtual const InsertionStats& stats() const noexcept = 0;
};

/// The host twin, requests spread over up to `threads` OpenMP threads.
std::unique_ptr<BatchedEngine> make_host_engine(unsigned threads);

/// The host twin of the device engine's data path: the tours mirrored in a host tour store
/// (tour_store.hpp) of at least `min_store` bytes, moved there by the kernels' record body and
/// priced from there, one request after the other. What CI runs of the store's bookkeeping.
std::unique_ptr<BatchedEngine> make_mirrored_host_engine(std::size_t min_store);

/// The device engine on options.index (options.transfer: Batched = one pinned copy each way
/// per call; Naive = one pageable copy per array), its tour store at least `min_store` bytes
/// once allocated (0: 64 MiB). Error(Device) without a usable device (or in a CPU-only build).
std::unique_ptr<BatchedEngine> make_device_engine(const DeviceOptions& options,
                                                  std::size_t min_store = 0);

/// What a checked engine does when its device engine throws (a launch error, an illegal
/// address, an allocation that failed: Error Device or OutOfMemory).
enum class OnDeviceFault {
  ContinueOnHost,  ///< the call and every later one priced by the host twin, the reason kept
  Fail,            ///< Error(Device) naming the device engine and the error
};

/// Runs `device` and checks it against the host twin: every choice is re-priced on the host
/// (delta, delivery position, feasibility), and every `full_every`-th call is priced whole by
/// the host twin and compared choice by choice. The search only ever receives checked choices
/// (the host twin's on a mismatch); after the first mismatch, or a device fault under
/// ContinueOnHost, every call goes to the host twin and fallback_reason() says why.
class CheckedEngine final : public BatchedEngine {
 public:
  CheckedEngine(std::unique_ptr<BatchedEngine> device, unsigned threads,
                std::uint64_t full_every = 64,
                OnDeviceFault on_fault = OnDeviceFault::ContinueOnHost);
  [[nodiscard]] std::string name() const override;
  void price(std::span<const search::InsertionRequest> requests,
             std::span<search::InsertionChoice> out) override;
  [[nodiscard]] const InsertionStats& stats() const noexcept override;
  /// Empty while the device is trusted.
  [[nodiscard]] const std::string& fallback_reason() const noexcept { return reason_; }
  [[nodiscard]] std::uint64_t mismatches() const noexcept { return mismatches_; }
  /// The device engine threw (the search went on on the host twin).
  [[nodiscard]] bool faulted() const noexcept { return faulted_; }

 private:
  std::unique_ptr<BatchedEngine> device_;
  std::unique_ptr<BatchedEngine> host_;
  std::uint64_t full_every_;
  OnDeviceFault on_fault_;
  bool faulted_ = false;
  std::uint64_t calls_ = 0;
  std::uint64_t mismatches_ = 0;
  std::string reason_;
  HostBatch batch_;
  mutable InsertionStats stats_;
};

}  // namespace routesolve::cuda::insertion
