#pragma once
// Batched route evaluation: total travel duration, distance and arc cost of many routes at once,
// as a gather over the travel matrices plus a segmented reduction per route. The same per-thread
// code runs on the device (CUDA kernel) and on the host (the host twin walks the kernel's grid
// with OpenMP), so the host twin is what machines without a GPU test. Plain C++: no CUDA types
// in this header.
//
// Semantics: the arcs of a route are start -> visit 0 -> ... -> visit k-1 -> end, leaving out
// the first arc without a start and the last one without an end. A route with no visits is an
// unused vehicle: all totals are 0. Sums are plain int64 additions (matrix entries at or above
// kUnreachable may overflow them after 7 such arcs; feasible routes hold none).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "routesolve/backend.hpp"  // TransferMode
#include "routesolve/cuda/route_totals.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"

namespace routesolve::cuda {

/// No start (or no end) location for a route.
inline constexpr std::int32_t kNoLocation = -1;

/// A batch of routes in CSR form. The matrices are borrowed, not copied: they must outlive
/// the batch (make_route_batch borrows the Problem's).
struct RouteBatch {
  std::vector<TravelView> travel;  ///< per travel index; distances may be null (= 0)
  std::vector<std::uint32_t> route_offsets{
      0};                             ///< routes + 1 entries; route r = visits[off[r], off[r+1])
  std::vector<std::uint32_t> visits;  ///< location (matrix index) of every visit
  std::vector<std::uint32_t> route_travel;  ///< travel index of each route
  std::vector<std::int32_t> route_start;    ///< start location of each route, or kNoLocation
  std::vector<std::int32_t> route_end;      ///< end location of each route, or kNoLocation

  /// Number of routes.
  [[nodiscard]] std::size_t size() const noexcept { return route_travel.size(); }
  /// Appends one route.
  void add_route(std::uint32_t travel_index, std::int32_t start, std::int32_t end,
                 std::span<const std::uint32_t> route_visits);
};

/// Throws Error(InvalidInput) naming the field when the batch is inconsistent (sizes, offsets,
/// indices out of range, null matrices, more than 2^32 - 2 visits).
void validate(const RouteBatch& batch);

/// Host twin: evaluates the batch over the kernel's launch grid on the host (OpenMP over
/// blocks). Always available.
std::vector<RouteTotals> evaluate_routes_host(const RouteBatch& batch);

struct DeviceEvalOptions {
  TransferMode transfer = TransferMode::Pinned;
  int device = 0;  ///< CUDA device index
};

/// Where the time of one device evaluation went, in seconds (copies and kernel timed by events).
struct DeviceEvalTimings {
  double pack = 0.0;    ///< host: packing into the staging buffer
  double h2d = 0.0;     ///< host to device copies
  double kernel = 0.0;  ///< the evaluation kernel
  double d2h = 0.0;     ///< device to host copy of the results
  std::size_t h2d_bytes = 0;
  std::size_t h2d_copies = 0;  ///< number of cudaMemcpyAsync calls host -> device
};

/// A device evaluator that keeps its stream and its staging/device buffers between calls
/// (they grow to the largest batch seen). Move-only; not thread-safe.
class DeviceRouteEvaluator {
 public:
  /// Throws Error(Device) naming the reason when no usable device exists (or a CPU-only build).
  explicit DeviceRouteEvaluator(const DeviceEvalOptions& options = {});
  ~DeviceRouteEvaluator();
  DeviceRouteEvaluator(DeviceRouteEvaluator&&) noexcept;
  DeviceRouteEvaluator& operator=(DeviceRouteEvaluator&&) noexcept;
  DeviceRouteEvaluator(const DeviceRouteEvaluator&) = delete;
  DeviceRouteEvaluator& operator=(const DeviceRouteEvaluator&) = delete;

  /// Evaluates the batch on the device; fills `timings` when given.
  std::vector<RouteTotals> evaluate(const RouteBatch& batch, DeviceEvalTimings* timings = nullptr);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// One-shot device evaluation. Throws Error(Device) without a usable device.
std::vector<RouteTotals> evaluate_routes_device(const RouteBatch& batch,
                                                const DeviceEvalOptions& options = {},
                                                DeviceEvalTimings* timings = nullptr);

/// A batch of plans (break visits are skipped: breaks are taken where the vehicle is), borrowing
/// the problem's matrices. Throws Error(InvalidInput) for unknown vehicles or tasks.
RouteBatch make_route_batch(const Problem& problem, const std::vector<RoutePlan>& plans);

/// A batch of solution routes, from the locations of their steps (start, tasks, end).
RouteBatch make_route_batch(const Problem& problem, const std::vector<Route>& routes);

/// Host twin over plans / solution routes.
std::vector<RouteTotals> evaluate_routes_host(const Problem& problem,
                                              const std::vector<RoutePlan>& plans);
std::vector<RouteTotals> evaluate_routes_host(const Problem& problem,
                                              const std::vector<Route>& routes);

/// Device evaluation over plans / solution routes. Throws Error(Device) without a usable device.
std::vector<RouteTotals> evaluate_routes_device(const Problem& problem,
                                                const std::vector<RoutePlan>& plans,
                                                const DeviceEvalOptions& options = {});
std::vector<RouteTotals> evaluate_routes_device(const Problem& problem,
                                                const std::vector<Route>& routes,
                                                const DeviceEvalOptions& options = {});

}  // namespace routesolve::cuda
