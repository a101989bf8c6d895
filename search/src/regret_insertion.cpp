#include "routesolve/search/regret_insertion.hpp"

#include <algorithm>
#include <array>

#include "routesolve/search/insertion.hpp"

namespace routesolve::search {

namespace {

// Regret of a task with fewer options than k: large, so that it goes first.
constexpr Cost kMissingOption = kInfiniteCost / 16;

}  // namespace

RegretInsertion::RegretInsertion(SearchState& state, const VehicleClasses& classes,
                                 const Deadline& deadline, std::size_t regret_k)
    : state_(state),
      classes_(classes),
      deadline_(deadline),
      regret_k_(std::clamp<std::size_t>(regret_k, 2, 3)) {}

std::vector<std::pair<std::size_t, UnassignedReason>> RegretInsertion::run(
    const std::vector<std::size_t>& tasks, const std::vector<char>* routes) {
  const Problem& problem = state_.problem();
  const std::size_t m = tasks.size();
  const std::size_t nv = state_.vehicle_count();
  std::vector<std::pair<std::size_t, UnassignedReason>> left_out;
  if (m == 0) return left_out;

  std::vector<char> done(m, 0);
  std::vector<FailureTally> tallies(m);
  std::size_t remaining = m;

  // Best insertion of every pending task into every non-empty route, and into an empty
  // vehicle of every class.
  std::vector<std::vector<Insertion>> route_cache(nv);
  std::vector<std::vector<Insertion>> class_cache(classes_.count());
  std::vector<std::size_t> used;
  // Pricing a route is m insertions (up to 32 schedule_route calls each): the deadline (time
  // limit or SIGINT) is polled every kPoll tasks, and a route left half priced does not matter
  // since the main loop stops at its next look at the deadline.
  constexpr std::size_t kPoll = 256;
  auto price_route = [&](std::size_t v, std::vector<Insertion>& cache) {
    cache.assign(m, Insertion{});
    for (std::size_t k = 0; k < m; ++k) {
      if (k % kPoll == kPoll - 1 && deadline_.expired()) return;
      if (!done[k]) cache[k] = best_insertion(state_, state_.route(v), tasks[k], &tallies[k]);
    }
  };
  std::vector<std::size_t> next_unused(classes_.count(), 0);
  auto first_unused = [&](std::size_t c) {
    const auto& members = classes_.members(c);
    std::size_t& i = next_unused[c];
    while (i < members.size() && !state_.route(members[i]).empty()) ++i;
    return i < members.size() ? members[i] : kNone;
  };
  auto price_all = [&] {
    used.clear();
    for (std::size_t v = 0; v < nv; ++v) {
      if (state_.route(v).empty() || (routes && !(*routes)[v])) continue;
      used.push_back(v);
      price_route(v, route_cache[v]);
    }
    for (std::size_t c = 0; c < classes_.count(); ++c) {
      next_unused[c] = 0;
      const std::size_t v = first_unused(c);
      if (v != kNone) price_route(v, class_cache[c]);
    }
  };
  price_all();

  while (remaining > 0) {
    if (deadline_.expired()) break;
    int top_priority = -1;
    for (std::size_t k = 0; k < m; ++k)
      if (!done[k]) top_priority = std::max(top_priority, problem.task(tasks[k]).priority);

    std::size_t best_k = kNone;
    Cost best_regret = -1, best_cost = 0;
    Insertion best_option;
    bool stopped = false;
    for (std::size_t k = 0; k < m; ++k) {
      if (k % (kPoll * 16) == kPoll * 16 - 1 && deadline_.expired()) {
        stopped = true;  // half a scan: no choice is made, the tasks left are NotRouted below
        break;
      }
      if (done[k] || problem.task(tasks[k]).priority != top_priority) continue;
      std::array<Cost, 3> top{kInfiniteCost, kInfiniteCost, kInfiniteCost};
      Insertion option;
      auto consider = [&](const Insertion& ins, std::size_t v) {
        if (!ins.feasible) return;
        if (ins.delta < top[0] || (ins.delta == top[0] && !option.feasible)) {
          option = ins;
          option.vehicle = v;
        }
        Cost x = ins.delta;
        for (Cost& slot : top)
          if (x < slot) std::swap(x, slot);
      };
      for (std::size_t v : used) consider(route_cache[v][k], v);
      for (std::size_t c = 0; c < classes_.count(); ++c) {
        const std::size_t v = first_unused(c);
        if (v != kNone) consider(class_cache[c][k], v);
      }
      if (!option.feasible) {
        done[k] = 1;
        --remaining;
        left_out.emplace_back(tasks[k], tallies[k].dominant());
        continue;
      }
      Cost regret = 0;
      for (std::size_t i = 1; i < regret_k_; ++i)
        regret += top[i] >= kInfiniteCost ? kMissingOption : top[i] - top[0];
      if (best_k == kNone || regret > best_regret ||
          (regret == best_regret && option.delta < best_cost)) {
        best_k = k;
        best_regret = regret;
        best_cost = option.delta;
        best_option = option;
      }
    }
    if (stopped) break;
    if (best_k == kNone) continue;

    const std::size_t v = best_option.vehicle;
    std::vector<std::size_t> seq =
        inserted_sequence(problem, state_.route(v), best_option, tasks[best_k]);
    if (!schedule(problem, v, seq).feasible) {
      // A filter trusted as exact disagreed with core: stop trusting filters and reprice.
      state_.distrust_filters();
      price_all();
      continue;
    }
    const bool was_empty = state_.route(v).empty();
    state_.set_route(v, std::move(seq));
    done[best_k] = 1;
    --remaining;
    if (was_empty) {
      used.push_back(v);
      std::sort(used.begin(), used.end());
    }
    price_route(v, route_cache[v]);
  }
  for (std::size_t k = 0; k < m; ++k)
    if (!done[k]) left_out.emplace_back(tasks[k], UnassignedReason::NotRouted);
  return left_out;
}

}  // namespace routesolve::search
