#pragma once
// Relocate and or-opt between tours on a WorkingSolution: the chain of 1..max_length
// consecutive jobs starting at u leaves its tour and goes next to w in w's tour, before or after
// w, forwards or reversed. Priced in O(1) per variant from arc costs, then checked by
// concatenating w's tour's prefix, the chain and its suffix. Shipment halves never move.

#include <cstddef>
#include <vector>

#include "routesolve/search/operators/operator.hpp"
#include "routesolve/search/working_solution.hpp"

namespace routesolve::search {

class InterRelocate {
 public:
  /// The best variant of moving u's chain next to w that beats `bound` (see operator.hpp).
  InterRelocate(const WorkingSolution& s, std::size_t u, std::size_t w, std::size_t max_length,
                Objective objective, const Score& bound = Score{});

  [[nodiscard]] Score delta() const noexcept { return delta_; }
  [[nodiscard]] bool is_valid() const noexcept { return found_; }
  void apply(WorkingSolution& s) const;
  [[nodiscard]] TouchedRoutes routes() const {
    return found_ ? TouchedRoutes(v1_, v2_) : TouchedRoutes();
  }

  [[nodiscard]] std::size_t length() const noexcept { return length_; }

 private:
  std::size_t u_, w_, v1_ = kNone, v2_ = kNone;
  std::size_t length_ = 1;  ///< chain length
  bool reversed_ = false;   ///< the chain is inserted back to front
  bool after_ = true;       ///< after w (else before w)
  bool found_ = false;
  Score delta_;
};

}  // namespace routesolve::search
