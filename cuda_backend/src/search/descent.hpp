#pragma once
// The batched descent (descend() of batched_search.hpp): rounds in the engine (the default) or
// on the host (the reference), then the host pass over routes with breaks, until none applies.

#include <functional>
#include <vector>

#include "batched_search.hpp"
#include "solution_state.hpp"

namespace routesolve::cuda::batched {

/// The batched descent, the pieces of descend() (see batched_search.hpp).
class Descent {
 public:
  Descent(const Problem& p, const PackedProblem& packed, MoveEngine& engine, const BatchedSearchOptions& opts,
          SearchStats& stats, const std::function<bool()>& expired)
      : p_(p), packed_(packed), view_(packed.view(packed.arena.bytes.data())), engine_(engine), opts_(opts),
        stats_(stats), expired_(expired) {
    for (const Vehicle& v : p_.vehicles())
      if (!v.breaks.empty()) breaks_ = true;
  }

  void run(std::vector<RouteSet>& sols, std::vector<std::vector<Cost>>& costs) {
    for (int pass = 0; pass < 64; ++pass) {
      if (opts_.apply == ApplyMode::Host) {
        on_host(sols, costs);
      } else {
        in_engine(sols, costs);
      }
      if (!breaks_ || expired() || break_pass(sols, costs) == 0) return;
    }
  }

 private:
  [[nodiscard]] bool expired() const { return expired_ && expired_(); }

  /// The reference: best moves back every round, applied here after schedule_route.
  void on_host(std::vector<RouteSet>& sols, std::vector<std::vector<Cost>>& costs);
  /// The default: load, rounds in the engine, fetch, verify.
  void in_engine(std::vector<RouteSet>& sols, std::vector<std::vector<Cost>>& costs);
  /// Moves touching routes with breaks, priced without breaks, applied after schedule_route.
  std::size_t break_pass(std::vector<RouteSet>& sols, std::vector<std::vector<Cost>>& costs);

  /// What apply_verified() did with a solution's candidates.
  struct Applied {
    std::size_t applied = 0, rejected = 0, mismatched = 0;
  };
  /// Applies the candidate moves of solution `s` of the batch (sorted best first) that touch no
  /// route an earlier one changed, each only after its new routes are materialised from the
  /// batch, accepted by schedule_route, and their cost change equals the priced delta exactly
  /// (otherwise: rejected, or mismatched, a pricing bug, never applied).
  Applied apply_verified(const BatchView& bv, const detail::batched::PrefixView& prefix, std::uint32_t s,
                         const std::vector<Move>& cand, RouteSet& routes, std::vector<Cost>& cost) const;

  /// Schedules the routes of `rs` that differ from `old` (costs of the others carried over);
  /// false when one is infeasible.
  bool schedule_changed(const RouteSet& old, const std::vector<Cost>& old_cost, const RouteSet& rs,
                        std::vector<Cost>& cost) const {
    cost = old_cost;
    for (std::size_t v = 0; v < rs.size(); ++v) {
      if (rs[v] == old[v]) continue;
      bool ok = false;
      cost[v] = schedule_cost(p_, v, rs[v], &ok);
      if (!ok) return false;
    }
    return true;
  }

  const Problem& p_;
  const PackedProblem& packed_;
  ProblemView view_;
  MoveEngine& engine_;
  const BatchedSearchOptions& opts_;
  SearchStats& stats_;
  const std::function<bool()>& expired_;
  bool breaks_ = false;
};

}  // namespace routesolve::cuda::batched
