#pragma once
// Descents over the local-search operators of a WorkingSolution (operators/), written against
// their common interface (operators/operator.hpp):
//   - GranularDescent: inter-route local search with granular neighbourhoods (Toth & Vigo 2003;
//     the neighbourhood structure of Vidal's HGS-CVRP). For every routed task u and each of its
//     nearest tasks w in another tour, the best move of InterRelocate (both ways), InterSwap (of
//     strings of up to max_swap jobs) and InterTwoOptStar is applied; when none improves
//     anywhere, SwapStar is tried on every pair of tours that hold granular neighbours.
//     With a DescentMemory, a descent examines only what changed since the last one on the same
//     solution: task u's neighbourhood when u's tour or the tour of one of its granular
//     neighbours changed after u was last examined, SWAP* on a pair of tours when one of them
//     changed after the last complete SWAP* pass. A pair of tours that has not changed since it
//     was found without an improving move still has none, so the result is a local optimum as
//     with a full descent, at a cost that follows the change rather than the instance (a
//     ruin-and-recreate step touches a few tours of hundreds).
//     run_around is the same descent restricted to given tasks (the ends of what a ruin and
//     recreate step changed) and, after each applied move, to the tasks it rewired (selective
//     vertex caching, as in Accorsi & Vigo's FILO): a cost that follows one step, without SWAP*.
//   - polish_tour: intra-route first-improvement descent with TourTwoOpt and TourOrOpt.

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "routesolve/backend.hpp"
#include "routesolve/search/neighbours.hpp"
#include "routesolve/search/operators/or_opt.hpp"
#include "routesolve/search/operators/relocate.hpp"
#include "routesolve/search/operators/swap.hpp"
#include "routesolve/search/operators/swap_star.hpp"
#include "routesolve/search/operators/two_opt.hpp"
#include "routesolve/search/operators/two_opt_star.hpp"
#include "routesolve/search/search_control.hpp"
#include "routesolve/search/vehicle_classes.hpp"
#include "routesolve/search/working_solution.hpp"

namespace routesolve::search {

/// What the descents on one WorkingSolution have examined (clock values of that solution).
struct DescentMemory {
  std::vector<std::uint64_t>
      examined;                 ///< per task: clock when its neighbourhood was last examined
  std::uint64_t swap_star = 0;  ///< clock at the start of the last complete SWAP* pass
  std::vector<char> queued;     ///< run_around's scratch: per task, whether it is queued
  /// Forget everything (the next descent examines the whole solution): for a new solution
  /// object. (The memory stays valid when a region moves: WorkingSolution::set_region counts
  /// the tours that become movable as changed.)
  void clear() {
    examined.clear();
    swap_star = 0;
  }
};

class GranularDescent {
 public:
  struct Parameters {
    std::size_t neighbours = 20;  ///< partners w tried per task u
    std::size_t max_chain = 3;    ///< longest relocated chain
    std::size_t max_passes = 50;  ///< passes over all tasks (a safety bound)
    bool swap_star = true;        ///< SWAP* between neighbouring tours when the rest is stuck
    /// Longest string of jobs an InterSwap exchanges on each side (1: u and w alone; 2 adds the
    /// (2, 1), (1, 2) and (2, 2) exchanges of HGS and PyVRP).
    std::size_t max_swap = 1;
    /// Partners in u's own tour too: or-opt of the run from u (1 to max_chain tasks) next to w,
    /// and the 2-opts that make u and w neighbours (a granular intra-route search, in place of
    /// a full scan of the tour).
    bool intra_route = false;
  };

  GranularDescent(const Neighbours& near, const VehicleClasses& classes, Parameters parameters);

  /// Runs the descent until no operator improves; returns the number of moves applied. With
  /// `memory` (always the same for `s`), only what changed since the last run is examined; with
  /// `deadline`, the descent stops when it expires (polled every 64 tasks and tour pairs).
  std::size_t run(WorkingSolution& s, std::mt19937_64& rng, Objective objective,
                  DescentMemory* memory = nullptr, const Deadline* deadline = nullptr) const;

  /// The descent around tasks `seeds`: they are examined (in random order), then the tasks
  /// whose predecessor or successor each applied move changed, until none improves or
  /// `max_moves` moves were applied. Returns the number of moves applied.
  std::size_t run_around(WorkingSolution& s, const std::vector<std::size_t>& seeds,
                         std::mt19937_64& rng, Objective objective, DescentMemory& memory,
                         std::size_t max_moves, const Deadline* deadline = nullptr) const;

 private:
  /// For each partner w of task u in another tour (or in its own, Parameters::intra_route), the
  /// best improving move of u and w applied;
  /// with `seen`, pairs whose two tours have not changed since that clock are skipped. The
  /// tasks whose predecessor or successor a move changed are appended to `rewired` (when
  /// given). At most `max_moves` moves; returns the moves.
  std::size_t improve_task(WorkingSolution& s, std::size_t u, Objective objective,
                           const std::uint64_t* seen, std::vector<std::size_t>* rewired,
                           std::size_t max_moves) const;
  /// The best improving intra-route move of u and w (one tour) applied; true when one was.
  bool improve_within(WorkingSolution& s, const TourCosts& costs, std::size_t u, std::size_t w,
                      Objective objective, std::vector<std::size_t>* rewired) const;

  /// SWAP* on every pair of tours that hold granular neighbours, one of them changed since
  /// memory.swap_star; true when a move was applied, false also when the deadline expired.
  bool swap_star_pass(WorkingSolution& s, Objective objective, DescentMemory& memory,
                      const Deadline* deadline, std::size_t& moves) const;

  const Neighbours* near_;
  const VehicleClasses* classes_;
  Parameters parameters_;
};

/// Runs 2-opt and or-opt (runs of 1-3 tasks) on tour v until neither improves (at most
/// `max_moves` moves), first improvement.
void polish_tour(WorkingSolution& solution, std::size_t v, std::size_t max_moves = 1000);

}  // namespace routesolve::search
