#pragma once
// 2-opt* on a WorkingSolution: the tours of u and w (interchangeable vehicles) exchange their
// tails so that u and w become adjacent (u -> w or w -> u). Priced in O(1) from the two arcs cut
// and the two arcs made, checked by concatenating each head with the other tail. A move whose
// tails would separate a pickup from its delivery is refused.

#include <cstddef>
#include <vector>

#include "routesolve/search/operators/operator.hpp"
#include "routesolve/search/vehicle_classes.hpp"
#include "routesolve/search/working_solution.hpp"

namespace routesolve::search {

class InterTwoOptStar {
 public:
  /// The best of the two tail exchanges between the tours of u and w that beats `bound`.
  InterTwoOptStar(const WorkingSolution& s, const VehicleClasses& classes, std::size_t u,
                  std::size_t w, Objective objective, const Score& bound = Score{});

  [[nodiscard]] Score delta() const noexcept { return delta_; }
  [[nodiscard]] bool is_valid() const noexcept { return found_; }
  void apply(WorkingSolution& s) const;
  [[nodiscard]] TouchedRoutes routes() const {
    return found_ ? TouchedRoutes(v1_, v2_) : TouchedRoutes();
  }

 private:
  std::size_t u_, w_, v1_ = kNone, v2_ = kNone;
  bool u_first_ = true;  ///< the new arc is u -> w (else w -> u)
  bool found_ = false;
  Score delta_;
};

}  // namespace routesolve::search
