#pragma once
// Swap between tours on a WorkingSolution: jobs u and w change places. Priced in O(1) from the
// four arcs around them, checked by concatenating prefix, the arriving job and suffix on each
// side. Shipment halves never swap.

#include <cstddef>

#include "../working_solution.hpp"
#include "operator.hpp"

namespace routesolve::cpu::detail {

class InterSwap {
 public:
  /// The exchange of u and w when it beats `bound` (see operator.hpp).
  InterSwap(const WorkingSolution& s, std::size_t u, std::size_t w, Objective objective, const Score& bound = Score{});

  [[nodiscard]] Score delta() const noexcept { return delta_; }
  [[nodiscard]] bool is_valid() const noexcept { return found_; }
  void apply(WorkingSolution& s) const;
  [[nodiscard]] TouchedRoutes routes() const { return found_ ? TouchedRoutes(v1_, v2_) : TouchedRoutes(); }

 private:
  std::size_t u_, w_, v1_ = kNone, v2_ = kNone;
  bool found_ = false;
  Score delta_;
};

}  // namespace routesolve::cpu::detail
