#pragma once
// SWAP* (Vidal 2022, "Hybrid genetic search for the CVRP: open-source implementation and SWAP*
// neighborhood") on a WorkingSolution: u of tour v1 and w of tour v2 exchange tours, each going
// to its best position in the other tour without its partner rather than to the partner's place
// (top-3 insertion positions per task, as in HGS). Candidates are screened by arc costs and load
// totals, then confirmed on the whole new tours. Shipment halves never move.

#include <cstddef>
#include <vector>

#include "routesolve/search/operators/operator.hpp"
#include "routesolve/search/working_solution.hpp"

namespace routesolve::search {

class SwapStar {
 public:
  /// The best confirmed SWAP* between tours v1 and v2 that beats `bound` (see operator.hpp).
  SwapStar(const WorkingSolution& s, std::size_t v1, std::size_t v2, Objective objective,
           const Score& bound = Score{});

  [[nodiscard]] Score delta() const noexcept { return delta_; }
  [[nodiscard]] bool is_valid() const noexcept { return found_; }
  void apply(WorkingSolution& s) const;
  [[nodiscard]] TouchedRoutes routes() const {
    return found_ ? TouchedRoutes(v1_, v2_) : TouchedRoutes();
  }

  /// The task leaving v1 (u) and the one leaving v2 (w), kNone when none was found.
  [[nodiscard]] std::size_t u() const noexcept { return u_; }
  [[nodiscard]] std::size_t w() const noexcept { return w_; }

  /// Tour v's tasks after the swap (u leaves, w arrives before tasks[to], or in u's place).
  static std::vector<std::size_t> swapped(const std::vector<std::size_t>& tasks,
                                          std::size_t u_position, std::size_t w, std::size_t to);

 private:
  std::size_t v1_, v2_, u_ = kNone, w_ = kNone;
  std::size_t u_to_ = kNone;  ///< u goes before w's tour's tasks[u_to] (kNone: to w's place)
  std::size_t w_to_ = kNone;  ///< w goes before u's tour's tasks[w_to] (kNone: to u's place)
  bool found_ = false;
  Score delta_;
};

}  // namespace routesolve::search
