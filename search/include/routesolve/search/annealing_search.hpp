#pragma once
// The metaheuristic of one search chain: ruin and recreate (string removal + blink insertion)
// accepted by simulated annealing on cost (SISR). With vehicles-then-cost, a fleet
// minimisation phase comes first: the smallest tour is emptied and its tasks must find room
// elsewhere, ruin and recreate being accepted when fewer tasks are left out or when the left-out
// ones have been absent less often so far (SISR's absence counters); each success removes a
// tour for good, and the cost phase then keeps the fleet at that size.

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "routesolve/search/blink_insertion.hpp"
#include "routesolve/search/descent.hpp"
#include "routesolve/search/insertion_engine.hpp"
#include "routesolve/backend.hpp"
#include "routesolve/search/string_removal.hpp"
#include "routesolve/search/working_solution.hpp"

namespace routesolve::search {

class AnnealingSearch {
 public:
  struct Parameters {
    double start_temperature = 1.0;  ///< in cost units
    double end_temperature = 0.01;
    double fleet_phase = 0.6;  ///< vehicles-then-cost: share of the budget for fleet minimisation
    double fleet_round = 0.15; ///< a fleet round failing this long (share of the budget) ends the phase
    bool polish = false;  ///< intra-route 2-opt / or-opt after every step (else: on new bests only)
    bool descent = true;  ///< inter-route granular descent on every new best
    GranularDescent::Parameters granular;
    StringRemoval::Parameters removal;
  };

  AnnealingSearch(const SegmentModel& model, const Neighbours& adjacency, const VehicleClasses& classes,
                  const std::vector<std::size_t>& insertable, Objective objective, std::uint64_t seed,
                  Parameters parameters, InsertionEngine& engine);

  /// Starts from a plan (it becomes the current and the best solution).
  void start(const TourPlan& plan);
  /// Continues from a better plan found elsewhere (parallel search exchange).
  void adopt(const TourPlan& plan);
  /// One ruin-and-recreate step; `fraction` (0..1) is the share of the budget used so far.
  /// The recreate's positions are priced by the engine, one request at a time.
  void step(double fraction);

  // The same step in parts, for chains in lockstep whose requests are priced in one batch:
  // begin_step (ruin; false when the step is over without a recreate), then next_request /
  // take until next_request is false, then end_step (descent on a new best, acceptance).
  bool begin_step(double fraction);
  bool next_request(InsertionRequest& request);
  void take(const InsertionChoice& choice);
  void end_step();

  // Regions (parallel chains on disjoint parts of one solution, see parallel_search.hpp): the
  // chain continues from `current` with its changes restricted to a region (WorkingSolution::
  // set_region), and keeps, besides its best solution, the best of its states since then.
  void begin_region(std::vector<char> vehicles, std::vector<char> tasks, const TourPlan& current,
                    const TourPlan& best, const Score& best_score);
  void end_region();
  /// The fleet phase is over (or there is none): the search only lowers the cost.
  [[nodiscard]] bool in_cost_phase() const noexcept {
    return objective_ != Objective::VehiclesThenCost || (fleet_done_ && !fleet_active_);
  }
  [[nodiscard]] TourPlan current_plan() const { return current_.plan(); }
  /// The best state since begin_region (its region's best; the rest as it was then).
  [[nodiscard]] const TourPlan& region_best_plan() const noexcept { return epoch_best_plan_; }

  [[nodiscard]] const TourPlan& best_plan() const noexcept { return best_plan_; }
  [[nodiscard]] const Score& best_score() const noexcept { return best_score_; }
  [[nodiscard]] std::size_t iterations() const noexcept { return iterations_; }

 private:
  bool fleet_begin(double fraction);
  void fleet_end();
  void cost_begin(double fraction);
  void cost_end();
  void record_if_best();
  /// Intra-route polish of the touched tours, then the inter-route granular descent and a
  /// polish of what it changed: run on candidates that beat the best solution.
  void intensify();
  void begin_fleet_round();

  const Problem& problem_;
  Objective objective_;
  Parameters parameters_;
  WorkingSolution current_;
  StringRemoval removal_;
  BlinkInsertion insertion_;
  GranularDescent descent_;
  InsertionEngine* engine_;
  // the step in progress
  enum class Pending { None, Cost, Fleet };
  Pending pending_ = Pending::None;
  BlinkInsertion::Pass pass_;
  Score step_before_;
  double temperature_ = 0.0;
  std::vector<std::size_t> fleet_before_;
  std::mt19937_64 rng_;
  TourPlan best_plan_;
  Score best_score_;
  TourPlan epoch_best_plan_;  // best since begin_region
  Score epoch_best_score_;
  std::size_t iterations_ = 0;
  // fleet minimisation
  bool fleet_active_ = false;
  bool fleet_done_ = false;
  std::size_t fleet_target_ = 0;  // routes allowed in the current round
  std::size_t fleet_base_unassigned_ = 0;
  double fleet_round_start_ = 0.0;  // budget share when the current round began
  double cost_phase_start_ = -1.0;  // budget share when the cost phase began (its annealing restarts)
  std::vector<std::uint64_t> absences_;
};

}  // namespace routesolve::search
