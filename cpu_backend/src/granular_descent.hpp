#pragma once
// Inter-route local search on a WorkingSolution with granular neighbourhoods (Toth & Vigo 2003;
// the neighbourhood structure of Vidal's HGS-CVRP): for every routed task u and each of its
// nearest tasks w in another tour, three operators are priced in O(1) by concatenating the
// tours' prefix and suffix segments:
//   - InterRelocate: a chain of 1-3 consecutive jobs starting at u moves next to w (before or
//     after it, in either direction) - relocate and or-opt between routes;
//   - InterSwap: u and w change places;
//   - InterTwoOptStar: the two tours exchange their tails so that u and w become adjacent;
//   - SwapStar (Vidal 2022, "Hybrid genetic search for the CVRP: open-source implementation and
//     SWAP* neighborhood"): u and w change tours, each going to its best position in the other
//     tour rather than to the other's place; tried on pairs of tours that are granular neighbours
//     once the three operators above find nothing.
// Arc costs screen the candidates; only the improving ones are merged for feasibility
// (capacity, time windows, max tasks / travel time / distance, reachability). Shipments never
// split: relocate and swap leave shipment halves alone, and a 2-opt* whose tails would separate
// a pickup from its delivery is refused.

#include <cstddef>
#include <random>

#include "neighbours.hpp"
#include "routesolve/solve.hpp"
#include "vehicle_classes.hpp"
#include "working_solution.hpp"

namespace routesolve::cpu::detail {

/// A move between the tours of u (v1) and w (v2), priced exactly: `delta` is the change of the
/// objective (total cost with fixed costs, and the number of used tours).
struct ExchangeMove {
  enum class Kind { None, Relocate, Swap, TwoOptStar, SwapStar };
  Kind kind = Kind::None;
  std::size_t u = kNone, w = kNone;
  std::size_t length = 1;  ///< relocate: chain length
  bool reversed = false;   ///< relocate: the chain is inserted back to front
  bool after = true;       ///< relocate: after w (else before w)
  bool u_first = true;     ///< 2-opt*: the new arc is u -> w (else w -> u)
  std::size_t u_to = kNone;  ///< SWAP*: u goes before w's tour's tasks[u_to] (kNone: to w's place)
  std::size_t w_to = kNone;  ///< SWAP*: w goes before u's tour's tasks[w_to] (kNone: to u's place)
  Score delta;  ///< the change of the objective (cost and used tours; the tasks routed stay)

  [[nodiscard]] bool found() const noexcept { return kind != Kind::None; }
};

/// True when the move improves the solution under the objective.
bool improving(const ExchangeMove& move, Objective objective);
/// Strict order: a is a better move than b (a found move beats none).
bool better_move(const ExchangeMove& a, const ExchangeMove& b, Objective objective);

/// Relocate / or-opt of the chain of jobs starting at u into w's tour.
class InterRelocate {
 public:
  /// Replaces `best` by the best improving relocation of u next to w that beats it; true when
  /// it did.
  static bool evaluate(const WorkingSolution& s, std::size_t u, std::size_t w, std::size_t max_length,
                       Objective objective, ExchangeMove& best);
  static void apply(WorkingSolution& s, const ExchangeMove& move);
};

/// Exchange of two jobs in different tours.
class InterSwap {
 public:
  static bool evaluate(const WorkingSolution& s, std::size_t u, std::size_t w, Objective objective,
                       ExchangeMove& best);
  static void apply(WorkingSolution& s, const ExchangeMove& move);
};

/// 2-opt* (tail exchange) between the tours of two interchangeable vehicles.
class InterTwoOptStar {
 public:
  static bool evaluate(const WorkingSolution& s, const VehicleClasses& classes, std::size_t u, std::size_t w,
                       Objective objective, ExchangeMove& best);
  static void apply(WorkingSolution& s, const ExchangeMove& move);
};

/// SWAP*: u of tour v1 and w of tour v2 exchange tours, each inserted at its best position in
/// the other tour without its partner (top-3 insertion positions per task, as in HGS). Candidates
/// are screened by arc costs and load totals, then confirmed on the whole new tours.
class SwapStar {
 public:
  /// Replaces `best` by the best improving feasible SWAP* between tours v1 and v2 that beats it.
  static bool evaluate(const WorkingSolution& s, std::size_t v1, std::size_t v2, Objective objective,
                       ExchangeMove& best);
  static void apply(WorkingSolution& s, const ExchangeMove& move);
  /// Tour v's tasks after the swap (u leaves, w arrives before tasks[to], or in u's place).
  static std::vector<std::size_t> swapped(const std::vector<std::size_t>& tasks, std::size_t u_position,
                                          std::size_t w, std::size_t to);
};

/// Applies any move of the four operators.
void apply_move(WorkingSolution& s, const ExchangeMove& move);

/// First-improvement descent over the granular neighbourhood until no operator improves.
class GranularDescent {
 public:
  struct Parameters {
    std::size_t neighbours = 20;  ///< partners w tried per task u
    std::size_t max_chain = 3;    ///< longest relocated chain
    std::size_t max_passes = 50;  ///< passes over all tasks (a safety bound)
    bool swap_star = true;        ///< SWAP* between neighbouring tours when the rest is stuck
  };

  GranularDescent(const Neighbours& near, const VehicleClasses& classes, Parameters parameters);

  /// Runs the descent; returns the number of moves applied.
  std::size_t run(WorkingSolution& s, std::mt19937_64& rng, Objective objective) const;

 private:
  /// SWAP* on every pair of tours that hold granular neighbours; true when a move was applied.
  bool swap_star_pass(WorkingSolution& s, Objective objective, std::size_t& moves) const;

  const Neighbours* near_;
  const VehicleClasses* classes_;
  Parameters parameters_;
};

}  // namespace routesolve::cpu::detail
