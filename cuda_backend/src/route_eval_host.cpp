// Host twin of the batched route evaluation: the per-arc functor of route_eval.cuh through
// Thrust on the OpenMP system, as a gather plus a segmented reduction (reduce_by_key over arc
// slots keyed by route). Also the batch checks shared by both paths. Compiled by g++ with
// THRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP in every build, CUDA or not.

#include "route_eval_host.hpp"

#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/scatter.h>
#include <thrust/system/omp/execution_policy.h>
#include <thrust/transform.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "route_eval.cuh"
#include "routesolve/cuda/route_eval.hpp"
#include "routesolve/error.hpp"

namespace routesolve::cuda {
namespace {

[[noreturn]] void bad_batch(const std::string& where, const std::string& what) {
  throw Error(ErrorCode::InvalidInput, "route batch: " + where + ": " + what);
}

std::string at(const char* field, std::size_t i) {
  return std::string(field) + "[" + std::to_string(i) + "]";
}

/// Number of arc slots per route (device-style functor over route indices).
struct SlotCount {
  detail::RouteEvalView view;
  std::uint64_t operator()(std::uint64_t r) const { return detail::arc_slots(view, r); }
};

/// Figures of global arc slot s: its route comes from the slot -> route keys.
struct SlotEval {
  detail::ArcEval eval;
  const std::uint64_t* slot_offsets;
  const std::uint64_t* slot_route;
  detail::ArcTotals operator()(std::uint64_t s) const {
    const std::uint64_t r = slot_route[s];
    return eval(r, static_cast<std::uint32_t>(s - slot_offsets[r]));
  }
};

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

std::vector<MatrixRef> host_matrix_table(const RouteBatch& batch) {
  std::vector<MatrixRef> table;
  table.reserve(batch.travel.size());
  for (const TravelView& m : batch.travel)
    table.push_back(MatrixRef{m.n, m.durations, m.distances, m.costs});
  return table;
}

RouteEvalView host_view(const RouteBatch& batch, const std::vector<MatrixRef>& table) {
  RouteEvalView view;
  view.travel = {table.data(), table.size()};
  view.route_offsets = {batch.route_offsets.data(), batch.route_offsets.size()};
  view.visits = {batch.visits.data(), batch.visits.size()};
  view.route_travel = {batch.route_travel.data(), batch.route_travel.size()};
  view.route_start = {batch.route_start.data(), batch.route_start.size()};
  view.route_end = {batch.route_end.data(), batch.route_end.size()};
  return view;
}

}  // namespace detail

std::vector<RouteTotals> evaluate_routes_host(const RouteBatch& batch) {
  validate(batch);
  const std::size_t routes = batch.size();
  std::vector<detail::ArcTotals> totals(routes);
  const std::vector<detail::MatrixRef> table = detail::host_matrix_table(batch);
  const detail::RouteEvalView view = detail::host_view(batch, table);
  const auto policy = thrust::omp::par;
  using Index = std::uint64_t;

  // Slot offsets per route: exclusive scan of the slot counts (last entry = all slots).
  std::vector<Index> slot_offsets(routes + 1, 0);
  thrust::transform(policy, thrust::counting_iterator<Index>(0),
                    thrust::counting_iterator<Index>(routes), slot_offsets.begin(),
                    SlotCount{view});
  thrust::exclusive_scan(policy, slot_offsets.begin(), slot_offsets.end(), slot_offsets.begin());
  const Index slots = slot_offsets.back();

  if (slots > 0) {
    // Key of each slot: its route (routes without slots are skipped by upper_bound).
    std::vector<Index> slot_route(slots);
    thrust::upper_bound(policy, slot_offsets.begin() + 1, slot_offsets.end(),
                        thrust::counting_iterator<Index>(0),
                        thrust::counting_iterator<Index>(slots), slot_route.begin());
    // Gather each arc and reduce per route.
    const auto arcs = thrust::make_transform_iterator(
        thrust::counting_iterator<Index>(0),
        SlotEval{detail::ArcEval{view}, slot_offsets.data(), slot_route.data()});
    std::vector<Index> keys(routes);
    std::vector<detail::ArcTotals> sums(routes);
    const auto ends = thrust::reduce_by_key(policy, slot_route.begin(), slot_route.end(), arcs,
                                            keys.begin(), sums.begin());
    thrust::scatter(policy, sums.begin(), ends.second, keys.begin(), totals.begin());
  }

  std::vector<RouteTotals> out(routes);
  for (std::size_t r = 0; r < routes; ++r)
    out[r] = RouteTotals{totals[r].duration, totals[r].distance, totals[r].cost};
  return out;
}

}  // namespace routesolve::cuda
