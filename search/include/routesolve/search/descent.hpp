#pragma once
// Descents over the local-search operators of a WorkingSolution (operators/), written against
// their common interface (operators/operator.hpp):
//   - GranularDescent: inter-route local search with granular neighbourhoods (Toth & Vigo 2003;
//     the neighbourhood structure of Vidal's HGS-CVRP). For every routed task u and each of its
//     nearest tasks w in another tour, the best move of InterRelocate (both ways), InterSwap and
//     InterTwoOptStar is applied; when none improves anywhere, SwapStar is tried on every pair of
//     tours that hold granular neighbours.
//   - polish_tour: intra-route first-improvement descent with TourTwoOpt and TourOrOpt.

#include <cstddef>
#include <random>

#include "routesolve/search/neighbours.hpp"
#include "routesolve/search/operators/or_opt.hpp"
#include "routesolve/search/operators/relocate.hpp"
#include "routesolve/search/operators/swap.hpp"
#include "routesolve/search/operators/swap_star.hpp"
#include "routesolve/search/operators/two_opt.hpp"
#include "routesolve/search/operators/two_opt_star.hpp"
#include "routesolve/backend.hpp"
#include "routesolve/search/vehicle_classes.hpp"
#include "routesolve/search/working_solution.hpp"

namespace routesolve::search {

class GranularDescent {
 public:
  struct Parameters {
    std::size_t neighbours = 20;  ///< partners w tried per task u
    std::size_t max_chain = 3;    ///< longest relocated chain
    std::size_t max_passes = 50;  ///< passes over all tasks (a safety bound)
    bool swap_star = true;        ///< SWAP* between neighbouring tours when the rest is stuck
  };

  GranularDescent(const Neighbours& near, const VehicleClasses& classes, Parameters parameters);

  /// Runs the descent until no operator improves; returns the number of moves applied.
  std::size_t run(WorkingSolution& s, std::mt19937_64& rng, Objective objective) const;

 private:
  /// SWAP* on every pair of tours that hold granular neighbours; true when a move was applied.
  bool swap_star_pass(WorkingSolution& s, Objective objective, std::size_t& moves) const;

  const Neighbours* near_;
  const VehicleClasses* classes_;
  Parameters parameters_;
};

/// Runs 2-opt and or-opt (runs of 1-3 tasks) on tour v until neither improves (at most
/// `max_moves` moves), first improvement.
void polish_tour(WorkingSolution& solution, std::size_t v, std::size_t max_moves = 1000);

}  // namespace routesolve::search
