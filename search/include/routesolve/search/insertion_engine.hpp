#pragma once
// The evaluation engine behind the search driver's recreate step. The driver (SISR ruin and
// recreate with annealing, the fleet phase, the granular descent on new bests) is written once;
// the hot operation it delegates is "price every insertion position of a task in a set of tours
// and return the best", for one search chain or for many chains in lockstep (one request per
// chain, each against its own solution). Engines:
//   - the segment engine (this layer, the CPU backend's): one position after the other, O(1)
//     each from prefix and suffix segments, skipping the feasibility check of positions that
//     cannot beat the best so far;
//   - the batched engine (cuda_backend): all positions of all requests of a batch at once, by
//     the device kernels or their host twins.
// Both price a position with the same RS_HD body (hd/insertion_pricing.hpp) and return the same
// choice (cheapest feasible unblinked position; ties: earlier tour, earlier i, earlier j), so
// the search makes the same decisions on either.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "routesolve/search/hd/insertion_pricing.hpp"
#include "routesolve/search/search_state.hpp"  // kInfiniteCost
#include "routesolve/search/working_solution.hpp"

namespace routesolve::search {

/// The best position found for a task.
struct InsertionChoice {
  std::size_t vehicle = kNone;
  std::size_t i = 0;  ///< before tasks[i]
  std::size_t j = 0;  ///< shipments: the delivery before tasks[j] (j >= i)
  Cost delta = kInfiniteCost;
  [[nodiscard]] bool found() const noexcept { return vehicle != kNone; }
  friend bool operator==(const InsertionChoice&, const InsertionChoice&) = default;
};

/// One task to place in one solution.
struct InsertionRequest {
  const WorkingSolution* solution = nullptr;
  std::size_t task = kNone;               ///< a job or a shipment pickup, unassigned now
  std::span<const std::size_t> vehicles;  ///< the tours to try, in order
  std::uint64_t blink_key = 0;            ///< see hd::blinks
  std::uint32_t blink_threshold = 0;      ///< blink rate * 2^32 (0: no blinks)
};

class InsertionEngine {
 public:
  virtual ~InsertionEngine() = default;
  [[nodiscard]] virtual std::string name() const = 0;
  /// out[r]: the best insertion of requests[r] (not found() when no position is feasible).
  virtual void price(std::span<const InsertionRequest> requests,
                     std::span<InsertionChoice> out) = 0;
};

/// The CPU engine: positions priced one after the other.
std::unique_ptr<InsertionEngine> make_segment_engine();

/// How the engines see tour v of a solution for a task, given as inserted(solution, task) gives
/// it (computed once for all its candidate tours); nullopt when the task cannot go there at all
/// (skills, max_tasks, or a job whose load cannot fit at any position).
std::optional<hd::TourView> tour_view(const WorkingSolution& solution, std::size_t task,
                                      const hd::Inserted& x, std::size_t v);

/// The task (and its sibling) as the pricing reads it.
hd::Inserted inserted(const WorkingSolution& solution, std::size_t task);

/// Blink rate as a threshold on 32 random bits.
std::uint32_t blink_threshold(double rate);

}  // namespace routesolve::search
