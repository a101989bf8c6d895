#pragma once
// The metaheuristic of one search chain: ruin and recreate (string removal + blink insertion)
// accepted by simulated annealing on cost (SISR). With vehicles-then-cost, a fleet
// minimisation phase comes first: the smallest tour is emptied and its tasks must find room
// elsewhere, ruin and recreate being accepted when fewer tasks are left out or when the left-out
// ones have been absent less often so far (SISR's absence counters); each success removes a
// tour for good, and the cost phase then keeps the fleet at that size.
//
// Long budgets cool in cycles of a fixed number of iterations per task, each later one restarting
// from the best or an elite pool of cycle ends (docs/EXPERIMENTS.md, "Search tuning"). The
// parameters come from tuning.hpp.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "routesolve/backend.hpp"
#include "routesolve/search/blink_insertion.hpp"
#include "routesolve/search/descent.hpp"
#include "routesolve/search/insertion_engine.hpp"
#include "routesolve/search/reloads.hpp"
#include "routesolve/search/string_removal.hpp"
#include "routesolve/search/working_solution.hpp"

namespace routesolve::search {

class AnnealingSearch {
 public:
  struct Parameters {
    double start_temperature = 1.0;  ///< in cost units
    double end_temperature = 0.01;
    double fleet_phase = 0.6;  ///< vehicles-then-cost: share of the budget for fleet minimisation
    double fleet_round =
        0.15;  ///< a fleet round failing this long (share of the budget) ends the phase
    /// Cost phase in cycles of this many iterations per insertable task (0: one schedule over
    /// the whole budget). A cycle ends after its iterations or, if sooner, with the budget.
    double cycle_per_task = 0.0;
    /// Start temperature of the cycles after the first, as a share of start_temperature.
    double restart_temperature = 1.0;
    /// Distinct solutions kept from the ends of cycles; a cycle restarts from the best or,
    /// with a pool, from one of the pool or the best drawn at random (0: from the best).
    std::size_t elite_pool = 0;
    /// With cycles (cycle_per_task > 0): when the best has not improved over this share of the
    /// cost phase, nor has the cycle run that long, a new cycle begins at once (from the best or
    /// the pool, at restart_temperature), cooling over the rest of the budget; never in the last
    /// half of this share (0: never). A search that converged early spends the rest of its
    /// budget from a fresh start of its best instead of near a local optimum at a temperature
    /// too low to leave it. Chains on regions count the best of the whole solution.
    double stagnation = 0.0;
    /// Restarts on stagnation only where the cost phase's projected iterations per insertable
    /// task (as for short_budget_per_task) reach this.
    double stagnation_per_task = 0.0;
    /// Share of the cost steps whose recreate seeds a new route with one of the removed tasks
    /// (while the objective allows one more route, a vehicle is free and the used tours hold
    /// at least open_route_min_length tasks on average).
    double open_route = 0.0;
    double open_route_min_length = 0.0;
    bool polish = false;  ///< intra-route 2-opt / or-opt after every step (else: on new bests only)
    bool descent = true;  ///< inter-route granular descent on new bests
    /// A new best gets the granular descent only when at least this many steps per insertable
    /// task have passed since the last descent (0: every new best); the others get the
    /// intra-route polish. Early in a search nearly every accepted step is a new best, and on
    /// long tours with time windows the descents then cost more than they find.
    double descent_spacing = 0.0;
    /// From this share of the budget on, every cost step gets the granular descent before its
    /// acceptance, so that the end of the annealing compares local optima (an iterated local
    /// search with annealing acceptance: far fewer, stronger steps); 1 or more: never.
    double descent_every_step_from = 1.0;
    /// When the cost phase's projected iterations per insertable task (its pace over its first
    /// 1%, as for short_budget_per_task) reach early_descent_per_task, the every-step descent
    /// begins at early_descent_from instead, if sooner (0: never): a budget with room for both
    /// gives the annealing its share and the local optima theirs.
    double early_descent_per_task = 0.0;
    double early_descent_from = 1.0;
    /// New bests after the first descent get the granular descent around what their step
    /// rewired (GranularDescent::run_around, at most local_descent_moves moves) instead of the
    /// descent over everything changed since the last one, whose scan grows with the instance.
    bool local_descent_on_new_best = false;
    /// After the first descent, every cost step (not only a new best) gets the descent around
    /// what its step rewired before its acceptance: each step ends in a local optimum of the
    /// neighbourhoods it touched, at a cost that follows the change (at most local_descent_moves
    /// moves; the intra-route moves come from GranularDescent::Parameters::intra_route).
    bool descent_around_every_step = false;
    std::size_t local_descent_moves = 256;
    /// Short budgets: when the cost phase makes fewer iterations per insertable task than this
    /// (projected from its pace over its first 1%, which runs at the floor), its temperatures
    /// are scaled by (iterations per task) / short_budget_per_task, down to short_budget_floor
    /// (0: never). A start that a full temperature would take most of a short budget to undo
    /// is improved from the start instead.
    double short_budget_per_task = 0.0;
    double short_budget_floor = 0.1;
    /// Short budgets that keep their start temperature: when the projected iterations per
    /// insertable task (as for short_budget_per_task) fall below hot_end_per_task, the end
    /// temperature is raised by hot_end_per_task / (iterations per task), at most hot_end_max
    /// times (0: never). A schedule that cannot reach equilibrium at every decade of its range
    /// spends its few steps where they still change the routes.
    double hot_end_per_task = 0.0;
    double hot_end_max = 30.0;
    /// A cost step draws its acceptance threshold (current cost + temperature * -log u) when it
    /// begins, and its recreate stops as soon as the cost reaches it: the step is rejected
    /// without pricing the tasks still out. Exact where insertions never lower the cost (travel
    /// costs that satisfy the triangle inequality, as shortest paths and Euclidean distances
    /// do, up to rounding), so the same steps are accepted as with a full recreate; it applies
    /// while the step cannot improve the score's rank (nothing was unassigned, and with
    /// vehicles-then-cost no fewer routes than before), without a balance term or reloads, and
    /// not where every step gets the descent before its acceptance.
    bool early_reject = true;
    /// The recreate's blink rate (SISR: a position is skipped with this chance) and the nearest
    /// tours it prices for each task.
    double blink_rate = 0.01;
    std::size_t recreate_tours = 24;
    /// Chains whose steps add up on one solution (chains on regions): the iterations per task
    /// are this many times a chain's own.
    std::size_t chains_per_solution = 1;
    GranularDescent::Parameters granular;
    /// The descent's partners (granular.neighbours of each list; outliving the search); null:
    /// the adjacency's nearest tasks, as for the ruin and the recreate.
    const Neighbours* partners = nullptr;
    StringRemoval::Parameters removal;
  };

  AnnealingSearch(const SegmentModel& model, const Neighbours& adjacency,
                  const VehicleClasses& classes, const std::vector<std::size_t>& insertable,
                  Objective objective, std::uint64_t seed, Parameters parameters,
                  InsertionEngine& engine);

  /// Starts from a plan (it becomes the current and the best solution).
  void start(const TourPlan& plan);
  /// Continues from a better plan found elsewhere (parallel search exchange).
  void adopt(const TourPlan& plan);
  /// One ruin-and-recreate step; `fraction` (0..1) is the share of the budget used so far.
  /// The recreate's positions are priced by the engine, one request at a time.
  void step(double fraction);
  /// The search's time limit (with the solve's stop flag), polled inside the descents; the
  /// deadline must outlive the steps (nullptr: none).
  void set_deadline(const Deadline* deadline) noexcept { deadline_ = deadline; }
  /// Resuming: this search's share of the iterations earlier runs did (places it in its cycle).
  void resume(std::size_t iterations_done);

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
  /// The current tour of vehicle v.
  [[nodiscard]] const std::vector<std::size_t>& current_tour(std::size_t v) const {
    return current_.tour(v).tasks;
  }
  /// The best state since begin_region when region_improved(): the tours of the region's
  /// vehicles (the rest is as it was then, and not kept here).
  [[nodiscard]] const TourPlan& region_best_plan() const noexcept { return epoch_best_plan_; }
  /// Whether a state since begin_region was better than the one it began from.
  [[nodiscard]] bool region_improved() const noexcept { return region_improved_; }

  [[nodiscard]] const TourPlan& best_plan() const noexcept { return best_plan_; }
  [[nodiscard]] const Score& best_score() const noexcept { return best_score_; }
  [[nodiscard]] std::size_t iterations() const noexcept { return iterations_; }
  /// Cost steps whose recreate stopped at the acceptance threshold (Parameters::early_reject).
  [[nodiscard]] std::size_t early_rejects() const noexcept { return early_rejects_; }
  /// Steps the segment model accepted and core's schedule refused (touched_tours_feasible).
  [[nodiscard]] std::size_t infeasible_steps() const noexcept { return infeasible_steps_; }
  /// The factor on the cost phase's temperatures for the budget (Parameters::
  /// short_budget_per_task): the floor until the pace is known, 1 when not used.
  [[nodiscard]] double temperature_scale() const noexcept {
    if (parameters_.short_budget_per_task <= 0.0) return 1.0;
    return budget_scale_ > 0.0 ? budget_scale_ : parameters_.short_budget_floor;
  }
  /// The factor on the end temperature for the budget (Parameters::hot_end_per_task): 1 until
  /// the pace is known and when not used.
  [[nodiscard]] double end_temperature_scale() const noexcept {
    return end_scale_ > 0.0 ? end_scale_ : 1.0;
  }
  /// The share of the cost phase from which every step gets the descent: descent_every_step_from,
  /// or early_descent_from once the projected pace reaches early_descent_per_task.
  [[nodiscard]] double every_step_from() const noexcept {
    if (parameters_.early_descent_per_task > 0.0 &&
        projected_per_task_ >= parameters_.early_descent_per_task)
      return std::min(parameters_.descent_every_step_from, parameters_.early_descent_from);
    return parameters_.descent_every_step_from;
  }
  /// Cost-phase cycles begun after the first.
  [[nodiscard]] std::size_t cycles() const noexcept { return cycles_; }

 private:
  /// Parameters::descent_around_every_step applies (after the first descent; the descents price
  /// cost alone, so not with a balance term).
  [[nodiscard]] bool descends_around_every_step() const noexcept {
    return parameters_.descent_around_every_step && parameters_.descent && descended_ &&
           problem_.spec().balance <= 0.0;
  }
  bool fleet_begin(double fraction);
  void fleet_end();
  void cost_begin(double fraction);
  void cost_end();
  /// Temperature at `phase` (share of the cost phase used); starts a new cycle when one ends.
  double temperature(double phase);
  /// The temperatures' factor for the budget (Parameters::short_budget_per_task).
  double budget_scale(double phase);
  /// The factor on the end temperature for the budget (Parameters::hot_end_per_task).
  double end_scale(double phase);
  /// The cost phase's iterations per insertable task over the whole budget, projected from its
  /// pace over its first 1% (negative until then).
  double projected_per_task(double phase);
  void restart_cycle(double phase);
  void record_if_best();
  /// True when core's schedule accepts every tour the open step changed (always where the
  /// segment model is exact): where it relaxes, a step stands only then, so the walk and its
  /// best stay feasible and the exactness repair after the search has nothing to drop.
  [[nodiscard]] bool touched_tours_feasible() const;
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
  DescentMemory descent_memory_;  // what the descents on current_ have examined
  const Deadline* deadline_ = nullptr;
  InsertionEngine* engine_;
  ReloadRepair reloads_;  // multi-trip vehicles: reloads where capacity blocks, none where useless
  // the step in progress
  enum class Pending { None, Cost, Fleet };
  Pending pending_ = Pending::None;
  BlinkInsertion::Pass pass_;
  Score step_before_;
  double temperature_ = 0.0;
  double threshold_ = 0.0;         // the cost step's acceptance threshold, drawn when it begins
  bool may_reject_early_ = false;  // whether its recreate may stop at the threshold
  double step_fraction_ = 0.0;     // share of the budget used when the current cost step began
  std::vector<std::size_t> fleet_before_;
  std::mt19937_64 rng_;
  TourPlan best_plan_;
  Score best_score_;
  TourPlan epoch_best_plan_;  // best since begin_region: the region's tours
  Score epoch_best_score_;
  bool region_improved_ = false;
  std::size_t iterations_ = 0;
  std::size_t early_rejects_ = 0;
  std::size_t infeasible_steps_ = 0;  // accepted by the segments, refused by the schedule
  std::size_t last_descent_ = 0;      // iterations_ at the last descent on a new best
  bool descended_ = false;            // whether any descent ran yet
  // fleet minimisation
  bool fleet_active_ = false;
  bool fleet_done_ = false;
  std::size_t fleet_target_ = 0;  // routes allowed in the current round
  std::size_t fleet_base_unassigned_ = 0;
  double fleet_round_start_ = 0.0;  // budget share when the current round began
  double cost_phase_start_ =
      -1.0;  // budget share when the cost phase began (its annealing restarts)
  std::vector<std::uint64_t> absences_;
  // cycles of the cost phase
  std::size_t cycle_length_ = 0;  // iterations, 0: one cycle over the budget
  std::size_t cost_iterations_ = 0;
  std::size_t cycle_begin_ = 0;     // cost_iterations_ when the current cycle began
  double cycle_phase_start_ = 0.0;  // phase share when the current cycle began
  bool cycle_phase_unknown_ =
      false;                 // resumed inside a later cycle: the next phase share begins it
  std::size_t cycles_ = 0;   // cycles begun after the first
  double best_phase_ = 0.0;  // step_fraction_ of the last new best
  // short budgets: the temperatures' factor once the pace is known (0: not yet)
  double budget_scale_ = 0.0;
  double end_scale_ = 0.0;  // 0: not known yet
  double pace_phase_start_ = -1.0;
  std::size_t pace_iterations_start_ = 0;
  double projected_per_task_ = -1.0;
  std::vector<TourPlan> elite_plans_;
  std::vector<Score> elite_scores_;
};

}  // namespace routesolve::search
