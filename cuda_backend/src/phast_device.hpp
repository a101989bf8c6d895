#pragma once
// Device driver of the PHAST/RPHAST matrices (phast_device.cpp): transfers, streams and the
// per-level launches of phast.cu. CUDA builds only; plain C++ interface (no CUDA types).

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "phast_host.hpp"
#include "routesolve/cuda/matrix_engine.hpp"

namespace routesolve::cuda::detail {

class DevicePhast {
 public:
  /// Creates the two streams (sweeps, result copies) on `device_index`. Every member function
  /// makes that device current for its duration and restores the caller's afterwards.
  DevicePhast(int device_index, TransferMode mode);
  ~DevicePhast();
  DevicePhast(const DevicePhast&) = delete;
  DevicePhast& operator=(const DevicePhast&) = delete;

  [[nodiscard]] std::string device_name() const;

  /// Uploads the selection's level CSR and target ids. Pinned: packed into one pinned staging
  /// buffer, one cudaMemcpyAsync. Naive: one pageable copy per array.
  void upload(const Selection& selection, MatrixProfile* profile);

  /// Produces the seeds of tile i (host); called while the device sweeps tile i - 1.
  using SeedFn = std::function<void(std::size_t tile, std::vector<Seed>* seeds)>;
  /// Consumes result tile i (targets x width keys, row j = target j).
  using UnpackFn = std::function<void(std::size_t tile, const Key* out)>;

  /// Sweeps `tiles` tiles of `width` columns over the uploaded selection. Pinned: result tiles
  /// come back through two pinned buffers on the copy stream, overlapping the next tile's sweep.
  void run(std::size_t tiles, std::uint32_t width, const SeedFn& seeds, const UnpackFn& unpack,
           MatrixProfile* profile);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace routesolve::cuda::detail
