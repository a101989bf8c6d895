#include "routesolve/search/exact_search.hpp"

#include <algorithm>
#include <cmath>

#include "routesolve/search/regret_insertion.hpp"
#include "routesolve/search/tuning.hpp"

namespace routesolve::search {

Score state_score(const SearchState& state, const std::vector<std::size_t>& insertable) {
  Score s;
  for (std::size_t t : insertable)
    if (!state.assigned(t)) {
      ++s.unassigned;
      s.priority_lost += state.problem().task(t).priority;
    }
  s.routes = static_cast<std::int64_t>(state.used_routes());
  s.cost = state.total_cost();
  return s;
}

ExactSearch::ExactSearch(SearchState& state, const Neighbours& neighbours,
                         const VehicleClasses& classes, Objective objective,
                         const Deadline& deadline, std::mt19937_64& rng,
                         std::vector<std::size_t> insertable, Parameters parameters)
    : state_(state),
      neighbours_(neighbours),
      classes_(classes),
      objective_(objective),
      deadline_(deadline),
      rng_(rng),
      insertable_(std::move(insertable)),
      parameters_(parameters) {}

std::size_t ExactSearch::run(std::size_t steps, const std::function<void()>& on_step) {
  best_ = state_.plan();
  best_score_ = state_score(state_, insertable_);
  const double t0 = parameters_.start_temperature;
  const double t1 = std::min(t0, parameters_.end_temperature);
  std::size_t made = 0;
  while ((steps == 0 || made < steps) && !deadline_.expired()) {
    // The schedule's progress: by steps, else by the time limit (none: the first temperature).
    const double phase = steps > 0 ? static_cast<double>(made) / static_cast<double>(steps)
                         : deadline_.limit() > 0
                             ? std::min(1.0, deadline_.elapsed() / deadline_.limit())
                             : 0.0;
    const double temperature = t0 > 0.0 && t1 > 0.0 ? t0 * std::pow(t1 / t0, phase) : 0.0;
    if (!step(temperature)) break;
    ++made;
    if (on_step) on_step();
  }
  // The best plan met (a later one of the same score is as good).
  if (better(best_score_, state_score(state_, insertable_), objective_)) {
    for (std::size_t v = 0; v < state_.vehicle_count(); ++v)
      if (state_.route(v).tasks != best_[v]) state_.set_route(v, best_[v]);
  } else {
    left_out_ = current_left_out_;
  }
  return made;
}

bool ExactSearch::step(double temperature) {
  const Problem& problem = state_.problem();
  // The task a removal is keyed on: a shipment's pickup stands for both halves.
  auto key_of = [&](std::size_t t) {
    return problem.task(t).type == TaskType::Delivery ? problem.task(t).sibling : t;
  };
  std::vector<std::size_t> routed;
  for (std::size_t t : insertable_)
    if (state_.assigned(t)) routed.push_back(t);

  if (routed.empty()) return false;  // nothing to ruin; the construction tried every task
  const std::size_t seed = routed[rng_() % routed.size()];
  const std::size_t size = 1 + rng_() % kExactRuinTasks;
  std::vector<std::size_t> removed{seed};
  for (std::size_t w : neighbours_.of(seed)) {
    if (removed.size() >= size) break;
    const std::size_t k = key_of(w);
    if (state_.assigned(k) && std::find(removed.begin(), removed.end(), k) == removed.end())
      removed.push_back(k);
  }
  const Score before = state_score(state_, insertable_);
  const TourPlan kept = state_.plan();
  // The annealing's threshold, drawn before the step as the SISR chains do.
  const double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng_);
  const double threshold =
      static_cast<double>(before.cost) - temperature * std::log(std::max(u, 1e-300));

  // Ruin: the removed tasks (with their siblings) leave their routes.
  std::vector<char> out(problem.tasks().size(), 0);
  for (std::size_t t : removed) {
    out[t] = 1;
    if (problem.task(t).sibling != kNone) out[problem.task(t).sibling] = 1;
  }
  std::vector<char> touched(state_.vehicle_count(), 0);
  for (std::size_t t : removed) touched[state_.route_of(t)] = 1;
  for (std::size_t v = 0; v < state_.vehicle_count(); ++v) {
    if (!touched[v]) continue;
    std::vector<std::size_t> rest;
    for (std::size_t t : state_.route(v).tasks)
      if (!out[t]) rest.push_back(t);
    state_.set_route(v, std::move(rest));
  }

  // Recreate: the removed tasks first, then those the state already left out.
  std::vector<std::size_t> pending = removed;
  for (std::size_t t : insertable_)
    if (!state_.assigned(t) && !out[t]) pending.push_back(t);
  // Into the routes near what is pending: those of each pending task's nearest routed tasks.
  std::vector<char> near(state_.vehicle_count(), 0);
  for (std::size_t t : pending)
    for (std::size_t x : {t, problem.task(t).sibling}) {
      if (x == kNone) continue;
      for (std::size_t w : neighbours_.of(x))
        if (state_.assigned(w)) near[state_.route_of(w)] = 1;
    }
  auto left = RegretInsertion(state_, classes_, deadline_, 3).run(pending, &near);
  const bool cut_short = deadline_.expired();

  const Score after = state_score(state_, insertable_);
  const bool accept = same_rank(after, before, objective_)
                          ? static_cast<double>(after.cost) < threshold || after.cost <= before.cost
                          : better(after, before, objective_);
  if (!cut_short && accept) {
    current_left_out_ = std::move(left);
    if (better(after, best_score_, objective_)) {
      best_score_ = after;
      best_ = state_.plan();
      left_out_ = current_left_out_;
    }
    return true;
  }
  for (std::size_t v = 0; v < state_.vehicle_count(); ++v)
    if (state_.route(v).tasks != kept[v]) state_.set_route(v, kept[v]);
  return !cut_short;
}

}  // namespace routesolve::search
