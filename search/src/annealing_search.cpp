#include "routesolve/search/annealing_search.hpp"

#include <algorithm>
#include <cmath>
#include <span>

#include "routesolve/search/descent.hpp"
#include "routesolve/solution.hpp"

namespace routesolve::search {

AnnealingSearch::AnnealingSearch(const SegmentModel& model, const Neighbours& adjacency,
                                 const VehicleClasses& classes,
                                 const std::vector<std::size_t>& insertable, Objective objective,
                                 std::uint64_t seed, Parameters parameters, InsertionEngine& engine)
    : problem_(model.problem()),
      objective_(objective),
      parameters_(parameters),
      current_(model, insertable),
      removal_(adjacency, parameters.removal),
      insertion_(adjacency, classes, parameters.blink_rate, parameters.recreate_tours),
      descent_(parameters.partners != nullptr ? *parameters.partners : adjacency, classes,
               parameters.granular),
      engine_(&engine),
      reloads_(model.problem()),
      rng_(seed),
      absences_(model.problem().tasks().size(), 0) {
  if (parameters_.cycle_per_task > 0.0)
    cycle_length_ =
        std::max<std::size_t>(1, static_cast<std::size_t>(parameters_.cycle_per_task *
                                                          static_cast<double>(insertable.size())));
}

void AnnealingSearch::resume(std::size_t iterations_done) {
  if (cycle_length_ == 0) return;
  cost_iterations_ = iterations_done;
  cycles_ = iterations_done / cycle_length_;
  cycle_begin_ = cycles_ * cycle_length_;
  cycle_phase_unknown_ = cycles_ > 0;
}

void AnnealingSearch::start(const TourPlan& plan) {
  current_.load(plan);
  best_plan_ = current_.plan();
  best_score_ = current_.score();
}

void AnnealingSearch::adopt(const TourPlan& plan) {
  start(plan);
  fleet_active_ = false;
}

void AnnealingSearch::record_if_best() {
  const Score s = current_.score();
  if (better(s, best_score_, objective_)) {
    best_score_ = s;
    best_plan_ = current_.plan();
    best_phase_ = step_fraction_;
  }
  if (current_.has_region() && better(s, epoch_best_score_, objective_)) {
    epoch_best_score_ = s;
    for (std::size_t v = 0; v < current_.vehicle_count(); ++v)  // the rest is as it began
      if (current_.in_region(v)) epoch_best_plan_[v] = current_.tour(v).tasks;
    region_improved_ = true;
  }
}

void AnnealingSearch::begin_region(std::vector<char> vehicles, std::vector<char> tasks,
                                   const TourPlan& current, const TourPlan& best,
                                   const Score& best_score) {
  current_.load(current);
  current_.set_region(std::move(vehicles), std::move(tasks));
  // The region's first descent examines all of it. The memory would stay valid (set_region
  // counts the tours entering the region as changed) and keeping it makes the every-step
  // phase's steps cheaper, but side by side it found worse routes (docs/EXPERIMENTS.md,
  // "where two threads' steps go").
  descent_memory_.clear();
  epoch_best_plan_.resize(current_.vehicle_count());
  epoch_best_score_ = current_.score();
  region_improved_ = false;
  if (better(best_score, best_score_, objective_) || best_plan_.empty()) {
    best_plan_ = best;
    best_score_ = best_score;
    best_phase_ = step_fraction_;
  }
}

void AnnealingSearch::end_region() {
  current_.set_region({}, {});
  descent_memory_.clear();
}

void AnnealingSearch::intensify() {
  for (std::size_t v : current_.touched()) polish_tour(current_, v);
  if (!parameters_.descent) return;
  // The journal (when a step is open) records the descent's moves too, so the step stays one
  // unit for accept / revert; the tours the descent changes are polished again.
  std::vector<std::vector<std::size_t>> snapshot(current_.vehicle_count());
  for (std::size_t v = 0; v < current_.vehicle_count(); ++v) snapshot[v] = current_.tour(v).tasks;
  const Score before = current_.score();
  if (descent_.run(current_, rng_, objective_, &descent_memory_, deadline_) == 0) return;
  for (std::size_t v = 0; v < current_.vehicle_count(); ++v)
    if (current_.tour(v).tasks != snapshot[v]) polish_tour(current_, v);
  // The descent prices cost alone: with a balance term it may worsen the objective, then undone.
  if (better(before, current_.score(), objective_))
    for (std::size_t v = 0; v < current_.vehicle_count(); ++v)
      if (current_.tour(v).tasks != snapshot[v]) current_.set_tasks(v, snapshot[v]);
}

bool AnnealingSearch::begin_step(double fraction) {
  ++iterations_;
  if (objective_ == Objective::VehiclesThenCost && !fleet_done_ &&
      fraction < parameters_.fleet_phase) {
    if (!fleet_active_ || fraction - fleet_round_start_ < parameters_.fleet_round) {
      return fleet_begin(fraction);
    }
    fleet_done_ = true;  // this round is not succeeding: the rest of the budget goes to cost
  }
  if (fleet_active_) {  // the fleet phase ended mid-round: back to the best complete solution
    fleet_active_ = false;
    current_.load(best_plan_);
  }
  fleet_done_ = true;
  if (cost_phase_start_ < 0.0)
    cost_phase_start_ = objective_ == Objective::VehiclesThenCost ? fraction : 0.0;
  // The cost phase gets a full cooling schedule over what is left of the budget.
  const double rest = 1.0 - cost_phase_start_;
  cost_begin(rest > 1e-9 ? (fraction - cost_phase_start_) / rest : 1.0);
  return true;
}

void AnnealingSearch::step(double fraction) {
  if (!begin_step(fraction)) return;
  InsertionRequest request;
  InsertionChoice choice;
  while (next_request(request)) {
    engine_->price(std::span<const InsertionRequest>(&request, 1),
                   std::span<InsertionChoice>(&choice, 1));
    take(choice);
  }
  end_step();
}

bool AnnealingSearch::next_request(InsertionRequest& request) {
  // A cost step already at its threshold is rejected whatever the tasks still out add
  // (Parameters::early_reject): its recreate ends here.
  if (may_reject_early_ && pending_ == Pending::Cost &&
      static_cast<double>(current_.cost()) >= threshold_ &&
      (objective_ != Objective::VehiclesThenCost ||
       static_cast<std::int64_t>(current_.used_routes()) >= step_before_.routes)) {
    ++early_rejects_;
    may_reject_early_ = false;
    return false;
  }
  return insertion_.next(current_, pass_, request);
}

void AnnealingSearch::take(const InsertionChoice& choice) {
  insertion_.take(current_, pass_, choice);
}

void AnnealingSearch::end_step() {
  if (pending_ != Pending::None && reloads_.active()) reloads_.run(current_);
  if (pending_ == Pending::Cost)
    cost_end();
  else if (pending_ == Pending::Fleet)
    fleet_end();
  pending_ = Pending::None;
}

void AnnealingSearch::cost_begin(double fraction) {
  step_before_ = current_.score();
  const Score& before = step_before_;
  temperature_ = temperature(fraction);
  step_fraction_ = fraction;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  threshold_ =
      static_cast<double>(before.cost) - temperature_ * std::log(std::max(unit(rng_), 1e-300));
  may_reject_early_ = parameters_.early_reject && before.unassigned == 0 &&
                      before.priority_lost == 0 && problem_.spec().balance <= 0.0 &&
                      !reloads_.active() && fraction < every_step_from() &&
                      !descends_around_every_step();
  current_.begin_change();
  std::vector<std::size_t> tasks = removal_.apply(current_, rng_);
  // Tasks left out before get another chance (a bounded number, for speed). The ruined tasks are
  // all the unassigned ones when the solution had none before (no scan of every task then).
  std::vector<std::size_t> waiting;
  if (static_cast<std::size_t>(current_.score().unassigned) > tasks.size())
    waiting = current_.unassigned_tasks();
  std::erase_if(waiting, [&](std::size_t t) { return !current_.may_insert(t); });
  if (waiting.size() > tasks.size() + 16) {
    std::shuffle(waiting.begin(), waiting.end(), rng_);
    waiting.resize(tasks.size() + 16);
  }
  for (std::size_t t : waiting)
    if (std::find(tasks.begin(), tasks.end(), t) == tasks.end()) tasks.push_back(t);
  const std::size_t route_cap = objective_ == Objective::VehiclesThenCost
                                    ? std::max(best_score_.routes, before.routes)
                                    : current_.vehicle_count();
  std::size_t open_with = kNone;
  const double routed =
      static_cast<double>(current_.insertable().size()) - static_cast<double>(before.unassigned);
  if (parameters_.open_route > 0.0 && !tasks.empty() && current_.used_routes() < route_cap &&
      (routed >= parameters_.open_route_min_length * static_cast<double>(current_.used_routes()) ||
       problem_.spec().balance > 0.0)) {  // balance: short routes are worth opening
    if (unit(rng_) < parameters_.open_route) open_with = tasks[rng_() % tasks.size()];
  }
  insertion_.begin(current_, std::move(tasks), rng_, route_cap, pass_, open_with);
  pending_ = Pending::Cost;
}

void AnnealingSearch::cost_end() {
  const Score& before = step_before_;
  // Polishing every step slows the annealing down; a step that beats the best is worth it,
  // and at the end of the budget every step is (Parameters::descent_every_step_from).
  if (parameters_.early_descent_per_task > 0.0)
    projected_per_task(step_fraction_);  // learns the pace
  if (step_fraction_ >= every_step_from()) {
    intensify();
  } else if (descends_around_every_step()) {
    descent_.run_around(current_, current_.rewired(), rng_, objective_, descent_memory_,
                        parameters_.local_descent_moves, deadline_);
  } else if (better(current_.score(), best_score_, objective_)) {
    const double spacing =
        parameters_.descent_spacing * static_cast<double>(current_.insertable().size());
    if (parameters_.local_descent_on_new_best && descended_ && parameters_.descent &&
        problem_.spec().balance <= 0.0) {  // the descents price cost alone
      descent_.run_around(current_, current_.rewired(), rng_, objective_, descent_memory_,
                          parameters_.local_descent_moves, deadline_);
      for (std::size_t v : current_.touched()) polish_tour(current_, v);
    } else if (!descended_ || static_cast<double>(iterations_ - last_descent_) >= spacing) {
      descended_ = true;
      last_descent_ = iterations_;
      intensify();
    } else {
      for (std::size_t v : current_.touched()) polish_tour(current_, v);
    }
  } else if (parameters_.polish) {
    for (std::size_t v : current_.touched()) polish_tour(current_, v);
  }
  const Score after = current_.score();
  bool accept;
  if (!same_rank(after, before, objective_)) {
    accept = better(after, before, objective_);
  } else {
    accept = static_cast<double>(after.cost) < threshold_;
  }
  if (accept && !touched_tours_feasible()) {
    accept = false;
    ++infeasible_steps_;
  }
  if (accept) {
    current_.commit();
    record_if_best();
  } else {
    current_.revert();
  }
}

bool AnnealingSearch::touched_tours_feasible() const {
  if (current_.model().exact()) return true;
  for (std::size_t v : current_.touched())
    if (!route_feasible(problem_, v, current_.tour(v).tasks)) return false;
  return true;
}

double AnnealingSearch::temperature(double phase) {
  const double t0 = parameters_.start_temperature;
  const double t1 = std::min(t0, parameters_.end_temperature * end_scale(phase));
  if (cycle_length_ == 0) {
    ++cost_iterations_;
    return budget_scale(phase) * t0 * std::pow(t1 / t0, std::clamp(phase, 0.0, 1.0));
  }
  if (cycle_phase_unknown_) {
    cycle_phase_start_ = phase;
    cycle_phase_unknown_ = false;
  }
  // A cycle's progress: its iterations, or what it has used of the budget left when it began,
  // whichever is further (a budget shorter than a cycle gets the one schedule over all of it).
  auto progress = [&] {
    const double by_work =
        static_cast<double>(cost_iterations_ - cycle_begin_) / static_cast<double>(cycle_length_);
    const double by_budget =
        cycle_phase_start_ < 1.0 ? (phase - cycle_phase_start_) / (1.0 - cycle_phase_start_) : 1.0;
    return std::max(by_work, by_budget);
  };
  double p = progress();
  const double restart_at = std::max(t1, parameters_.restart_temperature * t0);
  // A search stuck since its last new best (Parameters::stagnation) restarts before its cycle
  // ends, with the rest of the budget (or its cycle's iterations) as the new schedule: where the
  // pace leaves room to converge again, and not in the last half-share.
  if (parameters_.stagnation > 0.0 && phase - best_phase_ >= parameters_.stagnation &&
      phase - cycle_phase_start_ >= parameters_.stagnation &&
      1.0 - phase >= 0.5 * parameters_.stagnation &&
      projected_per_task(phase) >= parameters_.stagnation_per_task) {
    restart_cycle(phase);
    best_phase_ = phase;
    p = progress();
  } else if (p >= 1.0 && phase < 1.0) {
    restart_cycle(phase);
    p = progress();
  }
  ++cost_iterations_;
  const double ts = cycles_ == 0 ? t0 : restart_at;
  return budget_scale(phase) * ts * std::pow(t1 / ts, std::clamp(p, 0.0, 1.0));
}

double AnnealingSearch::projected_per_task(double phase) {
  if (projected_per_task_ >= 0.0) return projected_per_task_;
  if (pace_phase_start_ < 0.0) {
    pace_phase_start_ = phase;
    pace_iterations_start_ = cost_iterations_;
  }
  const double span = phase - pace_phase_start_;
  if (span < 0.01) return -1.0;
  const double projected = static_cast<double>(cost_iterations_ - pace_iterations_start_) / span;
  projected_per_task_ = projected * static_cast<double>(parameters_.chains_per_solution) /
                        static_cast<double>(std::max<std::size_t>(1, current_.insertable().size()));
  return projected_per_task_;
}

double AnnealingSearch::budget_scale(double phase) {
  if (parameters_.short_budget_per_task <= 0.0) return 1.0;
  if (budget_scale_ > 0.0) return budget_scale_;
  const double per_task = projected_per_task(phase);
  if (per_task < 0.0) return parameters_.short_budget_floor;
  budget_scale_ =
      std::clamp(per_task / parameters_.short_budget_per_task, parameters_.short_budget_floor, 1.0);
  return budget_scale_;
}

double AnnealingSearch::end_scale(double phase) {
  if (parameters_.hot_end_per_task <= 0.0) return 1.0;
  if (end_scale_ > 0.0) return end_scale_;
  const double per_task = projected_per_task(phase);
  if (per_task < 0.0) return 1.0;  // the first 1% of the cost phase: the end is far
  end_scale_ = std::clamp(parameters_.hot_end_per_task / std::max(per_task, 1e-9), 1.0,
                          std::max(1.0, parameters_.hot_end_max));
  return end_scale_;
}

void AnnealingSearch::restart_cycle(double phase) {
  if (current_.has_region()) {
    // A chain on a region of a shared solution keeps its state: the chains restart together
    // from the best between two epochs (ParallelSearch), so that the regions stay disjoint.
    cycle_begin_ = cost_iterations_;
    cycle_phase_start_ = phase;
    ++cycles_;
    return;
  }
  // The end of a cycle (near a local optimum) joins the pool when it is new and good enough.
  if (parameters_.elite_pool > 0) {
    const Score s = current_.score();
    bool known = false;
    for (const Score& e : elite_scores_)
      known = known || (same_rank(e, s, objective_) && e.cost == s.cost);
    if (!known) {
      if (elite_plans_.size() < parameters_.elite_pool) {
        elite_plans_.push_back(current_.plan());
        elite_scores_.push_back(s);
      } else {
        std::size_t worst = 0;
        for (std::size_t i = 1; i < elite_scores_.size(); ++i)
          if (better(elite_scores_[worst], elite_scores_[i], objective_)) worst = i;
        if (better(s, elite_scores_[worst], objective_)) {
          elite_plans_[worst] = current_.plan();
          elite_scores_[worst] = s;
        }
      }
    }
  }
  const std::size_t pick = elite_plans_.empty() ? 0 : rng_() % (elite_plans_.size() + 1);
  current_.load(pick == 0 ? best_plan_ : elite_plans_[pick - 1]);
  cycle_begin_ = cost_iterations_;
  cycle_phase_start_ = phase;
  ++cycles_;
}

void AnnealingSearch::begin_fleet_round() {
  // Empty the smallest tour (ties: at random) and ask the others to absorb its tasks.
  std::size_t smallest = kNone;
  std::size_t ties = 0;
  for (std::size_t v = 0; v < current_.vehicle_count(); ++v) {
    const std::size_t n = current_.tour(v).size();
    if (n == 0) continue;
    if (smallest == kNone || n < current_.tour(smallest).size()) {
      smallest = v;
      ties = 1;
    } else if (n == current_.tour(smallest).size() && rng_() % ++ties == 0) {
      smallest = v;
    }
  }
  if (smallest == kNone || current_.used_routes() <= 1) {
    fleet_done_ = true;
    return;
  }
  fleet_base_unassigned_ = best_score_.unassigned;
  current_.begin_change();
  current_.remove(current_.tour(smallest).tasks);
  current_.commit();
  fleet_target_ = current_.used_routes();
  fleet_active_ = true;
}

bool AnnealingSearch::fleet_begin(double fraction) {
  if (!fleet_active_) {
    fleet_round_start_ = fraction;
    begin_fleet_round();
    if (!fleet_active_) return false;
  }
  fleet_before_ = current_.unassigned_tasks();
  const std::vector<std::size_t>& before = fleet_before_;
  current_.begin_change();
  std::vector<std::size_t> tasks = removal_.apply(current_, rng_);
  for (std::size_t t : before)
    if (std::find(tasks.begin(), tasks.end(), t) == tasks.end()) tasks.push_back(t);
  insertion_.begin(current_, std::move(tasks), rng_, fleet_target_, pass_);
  pending_ = Pending::Fleet;
  return true;
}

void AnnealingSearch::fleet_end() {
  auto absence_sum = [&](const std::vector<std::size_t>& tasks) {
    std::uint64_t s = 0;
    for (std::size_t t : tasks) s += absences_[t];
    return s;
  };
  const std::vector<std::size_t>& before = fleet_before_;
  const std::uint64_t before_sum = absence_sum(before);
  const std::vector<std::size_t> after = current_.unassigned_tasks();
  const bool accept =
      (after.size() < before.size() || absence_sum(after) < before_sum) && touched_tours_feasible();
  for (std::size_t t : after) ++absences_[t];
  if (accept)
    current_.commit();
  else
    current_.revert();
  if (current_.unassigned_tasks().size() <= fleet_base_unassigned_) {
    // Every task has found room: this fleet size is reached.
    fleet_active_ = false;
    if (better(current_.score(), best_score_, objective_)) intensify();
    record_if_best();
  }
}

}  // namespace routesolve::search
