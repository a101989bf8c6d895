#include "routesolve/search/descent.hpp"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

namespace routesolve::search {

namespace {

static_assert(LocalOperator<InterRelocate, WorkingSolution>);
static_assert(LocalOperator<InterSwap, WorkingSolution>);
static_assert(LocalOperator<InterTwoOptStar, WorkingSolution>);
static_assert(LocalOperator<SwapStar, WorkingSolution>);
static_assert(LocalOperator<TourTwoOpt, WorkingSolution>);
static_assert(LocalOperator<TourOrOpt, WorkingSolution>);

/// Applies the first improving valid 2-opt of tour v; true when one was applied.
bool two_opt_pass(WorkingSolution& s, std::size_t v) {
  const std::size_t n = s.tour(v).size();
  if (n < 2) return false;
  const TourCosts costs(s, v);
  for (std::size_t i = 0; i + 1 < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      if (apply_if_improving(s, TourTwoOpt(s, costs, v, i, j), Objective::Cost)) return true;
  return false;
}

/// Applies the first improving valid or-opt of tour v; true when one was applied.
bool or_opt_pass(WorkingSolution& s, std::size_t v) {
  const std::size_t n = s.tour(v).size();
  if (n < 2) return false;
  const TourCosts costs(s, v);
  for (std::size_t length = 1; length <= 3 && length < n; ++length)
    for (std::size_t i = 0; i + length <= n; ++i)
      for (std::size_t to = 0; to <= n; ++to) {
        if (to >= i && to <= i + length) continue;
        if (apply_if_improving(s, TourOrOpt(s, costs, v, i, length, to), Objective::Cost))
          return true;
      }
  return false;
}

}  // namespace

void polish_tour(WorkingSolution& solution, std::size_t v, std::size_t max_moves) {
  for (std::size_t moves = 0; moves < max_moves; ++moves) {
    if (two_opt_pass(solution, v)) continue;
    if (or_opt_pass(solution, v)) continue;
    break;
  }
}

GranularDescent::GranularDescent(const Neighbours& near, const VehicleClasses& classes,
                                 Parameters parameters)
    : near_(&near), classes_(&classes), parameters_(parameters) {}

bool GranularDescent::swap_star_pass(WorkingSolution& s, Objective objective, DescentMemory& memory,
                                     const Deadline* deadline, std::size_t& moves) const {
  // Pairs of tours holding granular neighbours, one of them changed since the last pass, in a
  // fixed order.
  const std::uint64_t since = memory.swap_star;
  const std::uint64_t begun = s.clock();
  const std::size_t nv = s.vehicle_count();
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  for (std::size_t v = 0; v < nv; ++v) {
    if (!s.in_region(v)) continue;
    for (std::size_t u : s.tour(v).tasks) {
      const auto& near = near_->of(u);
      for (std::size_t x = 0; x < std::min(parameters_.neighbours, near.size()); ++x) {
        const std::size_t w = near[x];
        if (!s.movable(w) || s.route_of(w) == v) continue;
        const std::size_t v2 = s.route_of(w);
        if (s.changed_at(v) <= since && s.changed_at(v2) <= since) continue;
        pairs.emplace_back(std::min(v, v2), std::max(v, v2));
      }
    }
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  bool improved = false;
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    if (deadline != nullptr && k % 64 == 63 && deadline->expired()) return false;
    const auto [v1, v2] = pairs[k];
    BestMove<WorkingSolution, SwapStar> best(objective);
    if (!best.offer(SwapStar(s, v1, v2, objective, best.bound()))) continue;
    best.apply(s);
    ++moves;
    improved = true;
  }
  memory.swap_star = begun;
  return improved;
}

std::size_t GranularDescent::improve_task(WorkingSolution& s, std::size_t u, Objective objective,
                                          const std::uint64_t* seen,
                                          std::vector<std::size_t>* rewired,
                                          std::size_t max_moves) const {
  std::size_t moves = 0;
  const auto& near = near_->of(u);
  const std::size_t k = std::min(parameters_.neighbours, near.size());
  std::optional<TourCosts> costs;
  std::uint64_t costs_at = 0;
  for (std::size_t x = 0; x < k && moves < max_moves; ++x) {
    const std::size_t w = near[x];
    if (!s.movable(u) || !s.movable(w)) continue;
    const std::size_t vu = s.route_of(u), vw = s.route_of(w);
    if (vu == vw) {
      if (!parameters_.intra_route || (seen != nullptr && s.changed_at(vu) <= *seen)) continue;
      // The tour's cumulative costs, built once per task until a move changes the tour.
      if (!costs || costs_at != s.changed_at(vu)) {
        costs.emplace(s, vu);
        costs_at = s.changed_at(vu);
      }
      if (improve_within(s, *costs, u, w, objective, rewired)) ++moves;
      continue;
    }
    // The moves of (u, w) depend on their two tours only: unchanged since u was examined, they
    // still do not improve.
    if (seen != nullptr && s.changed_at(vu) <= *seen && s.changed_at(vw) <= *seen) continue;
    BestMove<WorkingSolution, InterRelocate, InterSwap, InterTwoOptStar> best(objective);
    best.offer(InterRelocate(s, u, w, parameters_.max_chain, objective, best.bound()));
    best.offer(InterRelocate(s, w, u, parameters_.max_chain, objective, best.bound()));
    best.offer(InterSwap(s, u, w, objective, best.bound(), parameters_.max_swap));
    best.offer(InterTwoOptStar(s, *classes_, u, w, objective, best.bound()));
    if (!best.found()) continue;
    if (rewired != nullptr) {
      const std::vector<std::pair<std::size_t, std::vector<std::size_t>>> before{
          {vu, s.tour(vu).tasks}, {vw, s.tour(vw).tasks}};
      best.apply(s);
      append_rewired(s, before, *rewired);
    } else {
      best.apply(s);
    }
    ++moves;
  }
  return moves;
}

bool GranularDescent::improve_within(WorkingSolution& s, const TourCosts& costs, std::size_t u,
                                     std::size_t w, Objective objective,
                                     std::vector<std::size_t>* rewired) const {
  const std::size_t v = s.route_of(u);
  const std::size_t n = s.tour(v).size(), i = s.position_of(u), j = s.position_of(w);
  BestMove<WorkingSolution, TourOrOpt, TourTwoOpt> best(objective);
  // The run tasks[i..i+length-1] before w (to = j) or after it (to = j + 1).
  for (std::size_t length = 1; length <= parameters_.max_chain && i + length <= n; ++length)
    for (const std::size_t to : {j, j + 1})
      if (to < i || to > i + length) best.offer(TourOrOpt(s, costs, v, i, length, to));
  // Reversals that end with u next to w: tasks[i+1..j] or tasks[i..j-1] when u comes first.
  const std::size_t a = std::min(i, j), b = std::max(i, j);
  if (b > a + 1) {
    best.offer(TourTwoOpt(s, costs, v, a + 1, b));
    best.offer(TourTwoOpt(s, costs, v, a, b - 1));
  }
  if (!best.found()) return false;
  if (rewired != nullptr) {
    const std::vector<std::pair<std::size_t, std::vector<std::size_t>>> before{
        {v, s.tour(v).tasks}};
    best.apply(s);
    append_rewired(s, before, *rewired);
  } else {
    best.apply(s);
  }
  return true;
}

std::size_t GranularDescent::run_around(WorkingSolution& s, const std::vector<std::size_t>& seeds,
                                        std::mt19937_64& rng, Objective objective,
                                        DescentMemory& memory, std::size_t max_moves,
                                        const Deadline* deadline) const {
  const std::size_t nt = s.problem().tasks().size();
  std::vector<char>& queued = memory.queued;
  if (queued.size() != nt) queued.assign(nt, 0);
  std::vector<std::size_t> queue;
  auto enqueue = [&](const std::vector<std::size_t>& tasks) {
    for (std::size_t t : tasks)
      if (!queued[t] && s.movable(t)) {
        queued[t] = 1;
        queue.push_back(t);
      }
  };
  enqueue(seeds);
  std::shuffle(queue.begin(), queue.end(), rng);
  std::size_t moves = 0;
  std::vector<std::size_t> rewired;
  std::size_t i = 0;
  for (; i < queue.size(); ++i) {
    const std::size_t u = queue[i];
    queued[u] = 0;
    if (moves >= max_moves || (deadline != nullptr && i % 64 == 63 && deadline->expired())) break;
    rewired.clear();
    moves += improve_task(s, u, objective, nullptr, &rewired, max_moves - moves);
    enqueue(rewired);
  }
  for (; i < queue.size(); ++i) queued[queue[i]] = 0;
  return moves;
}

std::size_t GranularDescent::run(WorkingSolution& s, std::mt19937_64& rng, Objective objective,
                                 DescentMemory* memory, const Deadline* deadline) const {
  DescentMemory local;
  DescentMemory& m = memory != nullptr ? *memory : local;
  const std::size_t nt = s.problem().tasks().size();
  if (m.examined.size() != nt) m.examined.assign(nt, 0);
  // Task u needs examining when its tour or the tour of one of its partners changed since.
  auto stale = [&](std::size_t u) {
    if (!s.movable(u)) return false;
    const std::uint64_t seen = m.examined[u];
    if (s.changed_at(s.route_of(u)) > seen) return true;
    const auto& near = near_->of(u);
    const std::size_t k = std::min(parameters_.neighbours, near.size());
    for (std::size_t x = 0; x < k; ++x)
      if (s.assigned(near[x]) && s.changed_at(s.route_of(near[x])) > seen) return true;
    return false;
  };
  std::vector<std::size_t> order;
  std::size_t moves = 0;
  for (std::size_t pass = 0; pass < parameters_.max_passes; ++pass) {
    order.clear();
    for (std::size_t t = 0; t < nt; ++t)
      if (stale(t)) order.push_back(t);
    std::shuffle(order.begin(), order.end(), rng);
    bool improved = false;
    for (std::size_t i = 0; i < order.size(); ++i) {
      if (deadline != nullptr && i % 64 == 63 && deadline->expired()) return moves;
      const std::size_t u = order[i];
      const std::uint64_t seen = m.examined[u];
      m.examined[u] = s.clock();
      const std::size_t applied = improve_task(s, u, objective, &seen, nullptr, SIZE_MAX);
      moves += applied;
      improved = improved || applied > 0;
    }
    if (!improved && parameters_.swap_star) {
      if (deadline != nullptr && deadline->expired()) return moves;
      improved = swap_star_pass(s, objective, m, deadline, moves);
    }
    if (!improved) break;
  }
  return moves;
}

}  // namespace routesolve::search
