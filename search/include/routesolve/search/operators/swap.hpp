#pragma once
// Swap between tours on a WorkingSolution: a string of jobs from u on and a string from w on
// change places (u and w alone by default; strings of up to max_string jobs each, in their
// order: HGS's swaps of (2, 1) and (2, 2) tasks, PyVRP's Exchange21 / Exchange22). Each
// variant is screened in O(length) from the arcs it adds and removes, then checked by
// concatenating prefix, the arriving string's segment and suffix on each side. Shipment halves
// never swap.

#include <cstddef>
#include <utility>
#include <vector>

#include "routesolve/search/operators/operator.hpp"
#include "routesolve/search/working_solution.hpp"

namespace routesolve::search {

class InterSwap {
 public:
  /// The best exchange of a string from u on with a string from w on (each of 1..max_string
  /// jobs) when it beats `bound` (see operator.hpp).
  InterSwap(const WorkingSolution& s, std::size_t u, std::size_t w, Objective objective,
            const Score& bound = Score{}, std::size_t max_string = 1);

  [[nodiscard]] Score delta() const noexcept { return delta_; }
  [[nodiscard]] bool is_valid() const noexcept { return found_; }
  void apply(WorkingSolution& s) const;
  [[nodiscard]] TouchedRoutes routes() const {
    return found_ ? TouchedRoutes(v1_, v2_) : TouchedRoutes();
  }
  /// The lengths of the strings that leave u's tour and w's tour.
  [[nodiscard]] std::pair<std::size_t, std::size_t> lengths() const noexcept { return {a_, b_}; }

 private:
  std::size_t u_, w_, v1_ = kNone, v2_ = kNone;
  std::size_t a_ = 1, b_ = 1;
  bool found_ = false;
  Score delta_;
};

}  // namespace routesolve::search
