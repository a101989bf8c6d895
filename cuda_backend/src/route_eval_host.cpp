// Host twin of the batched route evaluation: the kernel's grid (route_eval_grid) walked on the
// host, blocks spread over OpenMP threads, each block's threads run phase by phase through the
// phases of route_eval.cuh with the warp reduction of warp_sum.cuh between them. Also the batch
// checks shared by both paths. Compiled by g++ in every build, CUDA or not.

#include "route_eval_host.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "routesolve/error.hpp"
#include "warp_sum.cuh"

namespace routesolve::cuda {
namespace {

[[noreturn]] void bad_batch(const std::string& where, const std::string& what) {
  throw Error(ErrorCode::InvalidInput, "route batch: " + where + ": " + what);
}

std::string at(const char* field, std::size_t i) {
  return std::string(field) + "[" + std::to_string(i) + "]";
}

}  // namespace

void RouteBatch::add_route(std::uint32_t travel_index, std::int32_t start, std::int32_t end,
                           std::span<const std::uint32_t> route_visits) {
  visits.insert(visits.end(), route_visits.begin(), route_visits.end());
  route_offsets.push_back(static_cast<std::uint32_t>(visits.size()));
  route_travel.push_back(travel_index);
  route_start.push_back(start);
  route_end.push_back(end);
}

void validate(const RouteBatch& batch) {
  const std::size_t routes = batch.size();
  if (batch.route_start.size() != routes || batch.route_end.size() != routes)
    bad_batch("route_start/route_end", "sizes " + std::to_string(batch.route_start.size()) + "/" +
                                           std::to_string(batch.route_end.size()) +
                                           " differ from " + std::to_string(routes) + " routes");
  if (batch.route_offsets.size() != routes + 1)
    bad_batch("route_offsets", "has " + std::to_string(batch.route_offsets.size()) +
                                   " entries, expected routes + 1 = " + std::to_string(routes + 1));
  // Offsets are 32-bit and a route of k visits has k + 1 arc slots.
  if (batch.visits.size() > std::numeric_limits<std::uint32_t>::max() - 1u)
    bad_batch("visits", std::to_string(batch.visits.size()) + " visits exceed the 32-bit limit");
  if (batch.route_offsets.front() != 0) bad_batch("route_offsets[0]", "must be 0");
  if (batch.route_offsets.back() != batch.visits.size())
    bad_batch(at("route_offsets", routes), "is " + std::to_string(batch.route_offsets.back()) +
                                               ", expected the visit count " +
                                               std::to_string(batch.visits.size()));
  for (std::size_t t = 0; t < batch.travel.size(); ++t) {
    const TravelView& m = batch.travel[t];
    if (m.n > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
      bad_batch(at("travel", t), "n = " + std::to_string(m.n) + " exceeds the 32-bit limit");
    if (m.n > 0 && (m.durations == nullptr || m.costs == nullptr))
      bad_batch(at("travel", t), "durations and costs must not be null");
  }
  for (std::size_t r = 0; r < routes; ++r) {
    if (batch.route_offsets[r + 1] < batch.route_offsets[r])
      bad_batch(at("route_offsets", r + 1), "offsets must not decrease");
    const std::uint32_t t = batch.route_travel[r];
    if (t >= batch.travel.size())
      bad_batch(at("route_travel", r), "travel index " + std::to_string(t) + " out of range (" +
                                           std::to_string(batch.travel.size()) + " matrices)");
    const std::size_t n = batch.travel[t].n;
    const auto check_end = [&](const char* field, std::int32_t loc) {
      if (loc != kNoLocation && (loc < 0 || static_cast<std::size_t>(loc) >= n))
        bad_batch(at(field, r), "location " + std::to_string(loc) +
                                    " out of range (n = " + std::to_string(n) + ")");
    };
    check_end("route_start", batch.route_start[r]);
    check_end("route_end", batch.route_end[r]);
    for (std::uint32_t i = batch.route_offsets[r]; i < batch.route_offsets[r + 1]; ++i)
      if (batch.visits[i] >= n)
        bad_batch(at("visits", i), "location " + std::to_string(batch.visits[i]) +
                                       " out of range (n = " + std::to_string(n) + ")");
  }
}

namespace detail {

RouteEvalView host_view(const RouteBatch& batch) {
  RouteEvalView view;
  view.travel = {batch.travel.data(), batch.travel.size()};
  view.route_offsets = {batch.route_offsets.data(), batch.route_offsets.size()};
  view.visits = {batch.visits.data(), batch.visits.size()};
  view.route_travel = {batch.route_travel.data(), batch.route_travel.size()};
  view.route_start = {batch.route_start.data(), batch.route_start.size()};
  view.route_end = {batch.route_end.data(), batch.route_end.size()};
  return view;
}

void evaluate_routes_grid(const RouteEvalView& view, DeviceSpan<RouteTotals> out) {
  const Grid grid = route_eval_grid(view.routes());
  const auto blocks = static_cast<std::int64_t>(grid.blocks);
#pragma omp parallel for schedule(static)
  for (std::int64_t b = 0; b < blocks; ++b) {
    const auto block = static_cast<std::uint32_t>(b);
    RouteTotals lanes[kRouteEvalBlock];
    for (std::uint32_t t = 0; t < grid.threads; ++t)
      lanes[t] = route_eval_partial(t, block, grid.threads, view);
    for (std::uint32_t warp = 0; warp < grid.threads / kWarp; ++warp)
      warp_sum_lanes(lanes + warp * kWarp);
    for (std::uint32_t t = 0; t < grid.threads; ++t)
      route_eval_store(t, block, grid.threads, lanes[t], out);
  }
}

}  // namespace detail

std::vector<RouteTotals> evaluate_routes_host(const RouteBatch& batch) {
  validate(batch);
  std::vector<RouteTotals> totals(batch.size());
  detail::evaluate_routes_grid(detail::host_view(batch), {totals.data(), totals.size()});
  return totals;
}

}  // namespace routesolve::cuda
