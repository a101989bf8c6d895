#include "routesolve/search/local_search.hpp"

#include <algorithm>
#include <numeric>
#include <variant>

#include "routesolve/search/operators/pair_relocate.hpp"
#include "routesolve/search/operators/relocate.hpp"
#include "routesolve/search/operators/swap.hpp"
#include "routesolve/search/operators/two_opt.hpp"
#include "routesolve/search/operators/two_opt_star.hpp"
#include "routesolve/search/regret_insertion.hpp"

namespace routesolve::search {

namespace {

static_assert(LocalOperator<Relocate, SearchState>);
static_assert(LocalOperator<PairRelocate, SearchState>);
static_assert(LocalOperator<Swap, SearchState>);
static_assert(LocalOperator<TwoOpt, SearchState>);
static_assert(LocalOperator<TwoOptStar, SearchState>);

using Move = std::variant<Relocate, PairRelocate, Swap, TwoOpt, TwoOptStar>;

// At most this many improving candidates around one task go to schedule_route.
constexpr std::size_t kMaxValidations = 16;

}  // namespace

LocalSearch::LocalSearch(SearchState& state, const Neighbours& neighbours, const VehicleClasses& classes,
                         Objective objective, const Deadline& deadline, std::mt19937_64& rng,
                         std::vector<std::size_t> insertable)
    : state_(state),
      neighbours_(neighbours),
      classes_(classes),
      objective_(objective),
      deadline_(deadline),
      rng_(rng),
      insertable_(std::move(insertable)) {}

LocalSearchStats LocalSearch::run(const std::function<void()>& on_pass) {
  LocalSearchStats stats;
  const std::size_t nt = state_.problem().tasks().size();
  std::vector<std::size_t> order(nt);
  std::iota(order.begin(), order.end(), 0);
  bool stopped = false;
  while (!stopped && !deadline_.expired()) {
    std::shuffle(order.begin(), order.end(), rng_);
    bool improved = false;
    for (std::size_t u : order) {
      if (deadline_.expired()) {
        stopped = true;
        break;
      }
      if (!state_.assigned(u)) continue;
      if (improve_task(u)) {
        improved = true;
        ++stats.moves;
      }
    }
    if (!stopped) {
      const std::size_t inserted = reinsert_unassigned();
      stats.inserted += inserted;
      improved = improved || inserted > 0;
    }
    ++stats.passes;
    if (on_pass) on_pass();
    if (!improved) break;
  }
  return stats;
}

bool LocalSearch::improve_task(std::size_t u) {
  const Problem& problem = state_.problem();
  const Task& task_u = problem.task(u);
  const bool shipment = task_u.sibling != kNone;
  const std::size_t ru = state_.route_of(u), pu = state_.position_of(u);
  std::vector<Move> moves;
  moves.reserve(8 * neighbours_.of(u).size() + 8);

  std::vector<std::size_t> pair_targets;
  if (shipment) pair_targets.push_back(ru);
  for (std::size_t w : neighbours_.of(u)) {
    if (!state_.assigned(w)) continue;
    const std::size_t rw = state_.route_of(w), pw = state_.position_of(w);
    const bool w_shipment = problem.task(w).sibling != kNone;
    if (rw == ru) {
      for (std::size_t target : {pw, pw + 1})
        if (target != pu && target != pu + 1) moves.emplace_back(Relocate(state_, u, ru, target));
      moves.emplace_back(Swap(state_, u, w));
      if (pu + 1 < pw) moves.emplace_back(TwoOpt(state_, ru, pu + 1, pw));
      if (pw + 1 < pu) moves.emplace_back(TwoOpt(state_, ru, pw, pu - 1));
      continue;
    }
    if (!shipment) {
      moves.emplace_back(Relocate(state_, u, rw, pw));
      moves.emplace_back(Relocate(state_, u, rw, pw + 1));
      if (!w_shipment) moves.emplace_back(Swap(state_, u, w));
    } else if (std::find(pair_targets.begin(), pair_targets.end(), rw) == pair_targets.end()) {
      pair_targets.push_back(rw);
    }
    moves.emplace_back(TwoOptStar(state_, ru, pu + 1, rw, pw));
    moves.emplace_back(TwoOptStar(state_, ru, pu, rw, pw + 1));
  }
  // One empty vehicle per class (a route of its own, or a better-suited vehicle).
  for (std::size_t c = 0; c < classes_.count(); ++c) {
    if (c == classes_.class_of(ru) && state_.route(ru).size() <= (shipment ? 2u : 1u)) continue;
    for (std::size_t v : classes_.members(c)) {
      if (!state_.route(v).empty()) continue;
      if (shipment) pair_targets.push_back(v);
      else moves.emplace_back(Relocate(state_, u, v, 0));
      break;
    }
  }
  if (shipment) {
    const std::size_t pickup = task_u.type == TaskType::Pickup ? u : task_u.sibling;
    const bool empties = state_.route(ru).size() == 2;
    const Cost bound = objective_ == Objective::VehiclesThenCost && empties ? kInfiniteCost : 0;
    for (std::size_t v : pair_targets) {
      PairRelocate move(state_, pickup, v, bound);
      if (move.found()) moves.emplace_back(std::move(move));
    }
  }

  // Improving candidates, best first (stable: ties keep generation order).
  std::vector<std::pair<Score, std::size_t>> improving;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const Score d = std::visit([](const auto& m) { return m.delta(); }, moves[i]);
    if (improves(d, objective_)) improving.emplace_back(d, i);
  }
  std::stable_sort(improving.begin(), improving.end(), [&](const auto& a, const auto& b) {
    return better(a.first, b.first, objective_);
  });
  std::size_t validations = 0;
  for (const auto& [d, i] : improving) {
    const bool cheap = std::visit([](const auto& m) { return m.passes_filters(); }, moves[i]);
    if (!cheap) continue;
    if (validations++ >= kMaxValidations) break;
    const bool valid = std::visit([](const auto& m) { return m.is_valid(); }, moves[i]);
    if (!valid) continue;
    std::visit([&](const auto& m) { m.apply(state_); }, moves[i]);
    return true;
  }
  return false;
}

std::size_t LocalSearch::reinsert_unassigned() {
  std::vector<std::size_t> pending;
  for (std::size_t t : insertable_)
    if (!state_.assigned(t)) pending.push_back(t);
  if (pending.empty()) {
    left_out_.clear();
    return 0;
  }
  RegretInsertion insertion(state_, classes_, deadline_);
  left_out_ = insertion.run(pending);
  return pending.size() - left_out_.size();
}

}  // namespace routesolve::search
