#pragma once
// The shape of every local-search operator of the CPU backend (after VROOM's ls::Operator).
//
// An operator object is built on a solution for one place in it (a task and a partner, a pair
// of tours, a run of one tour) and answers:
//   delta()     the change of the objective if the move is applied, as a Score difference
//               (routesolve/hd/score.hpp: negative cost is cheaper); improves(delta(), objective)
//               says whether it pays and better() ranks two moves;
//   is_valid()  the move exists and the routes it leaves are feasible (for the operators on a
//               WorkingSolution: under the segment model; on a SearchState: by schedule_route);
//   apply(s)    performs it on the solution it was built on, unchanged since;
//   routes()    the vehicles whose tours it rewrites (what a descent must look at again).
// Operators that search several variants at their place (chain lengths, directions, insertion
// positions) are built with a bound: the best delta found elsewhere so far (Score{} for "must
// improve"); they only report a variant strictly better than it, so descents compare moves of
// different operators without pricing the hopeless ones.

#include <array>
#include <concepts>
#include <cstddef>
#include <type_traits>
#include <utility>
#include <variant>

#include "routesolve/hd/score.hpp"
#include "routesolve/problem.hpp"

namespace routesolve::search {

/// The vehicles a move rewrites: one (intra-route) or two (inter-route).
class TouchedRoutes {
 public:
  TouchedRoutes() = default;
  explicit TouchedRoutes(std::size_t v) : vehicles_{v, kNone}, count_(1) {}
  TouchedRoutes(std::size_t a, std::size_t b) : vehicles_{a, b}, count_(a == b ? 1 : 2) {}

  [[nodiscard]] const std::size_t* begin() const noexcept { return vehicles_.data(); }
  [[nodiscard]] const std::size_t* end() const noexcept { return vehicles_.data() + count_; }
  [[nodiscard]] std::size_t size() const noexcept { return count_; }
  [[nodiscard]] bool contains(std::size_t v) const noexcept {
    for (std::size_t x : *this)
      if (x == v) return true;
    return false;
  }

 private:
  std::array<std::size_t, 2> vehicles_{kNone, kNone};
  std::size_t count_ = 0;
};

/// The interface above, for operators that work on solutions of type Solution.
template <class Op, class Solution>
concept LocalOperator = std::copyable<Op> && requires(const Op& op, Solution& s) {
  { op.delta() } -> std::same_as<Score>;
  { op.is_valid() } -> std::same_as<bool>;
  { op.apply(s) } -> std::same_as<void>;
  { op.routes() } -> std::same_as<TouchedRoutes>;
};

/// Applies the move when it improves and is valid (first-improvement descents); true when it did.
template <class Solution, LocalOperator<Solution> Op>
bool apply_if_improving(Solution& s, const Op& op, Objective objective) {
  if (!improves(op.delta(), objective) || !op.is_valid()) return false;
  op.apply(s);
  return true;
}

/// The best valid move offered at one place, over several operators (best-improvement
/// descents). bound() is what an offer must beat: Score{} until a move is kept, then its delta;
/// ties keep the earlier offer.
template <class Solution, LocalOperator<Solution>... Ops>
class BestMove {
 public:
  explicit BestMove(Objective objective) : objective_(objective) {}

  [[nodiscard]] const Score& bound() const noexcept { return bound_; }
  [[nodiscard]] bool found() const noexcept { return move_.index() != 0; }

  /// Keeps `op` when it is better than the bound and valid; true when it did.
  template <class Op>
  bool offer(Op&& op) {
    if (!better(op.delta(), bound_, objective_) || !op.is_valid()) return false;
    bound_ = op.delta();
    move_ = std::forward<Op>(op);
    return true;
  }

  /// Applies the kept move (found() must hold).
  void apply(Solution& s) const {
    std::visit(
        [&](const auto& m) {
          if constexpr (!std::is_same_v<std::decay_t<decltype(m)>, std::monostate>) m.apply(s);
        },
        move_);
  }

 private:
  Objective objective_;
  Score bound_{};
  std::variant<std::monostate, Ops...> move_;
};

}  // namespace routesolve::search
