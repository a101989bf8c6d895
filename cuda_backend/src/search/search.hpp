#pragma once
// The batched search's driver (batched_search() of batched_search.hpp): construction by
// cheapest insertion (insertion.cpp), rounds of ruin (ruin.cpp) and recreate, the batched
// descent of the children (descent.hpp), acceptance and the final solution (batched_search.cpp).

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "batched_search.hpp"
#include "solution_state.hpp"

namespace routesolve::cuda::search {

namespace ds = detail::search;

class Search {
 public:
  Search(const Problem& problem, const SolveOptions& options, MoveEngine& engine,
         const BatchedSearchOptions& opts, SearchStats& stats)
      : p_(problem), options_(options), engine_(&engine), opts_(opts), stats_(stats),
        packed_(pack_problem(problem, opts.neighbours)),
        view_(packed_.view(packed_.arena.bytes.data())),
        threads_(std::max(1u, options.threads)) {
    engine_->set_problem(packed_);
    for (const Task& t : p_.tasks())
      if (t.time_windows.size() > 1) multi_window_ = true;
    for (const Vehicle& v : p_.vehicles())
      if (!v.breaks.empty()) breaks_ = true;
  }

  Solution run();

 private:
  // --- insertion -------------------------------------------------------------------------
  void refresh(const State& s) {
    one_ = pack_batch(packed_, {&s.routes});
    one_view_ = one_.view(one_.arena.bytes.data());
    build_prefix_host(view_, one_view_, one_.routes, one_prefix_, 1);
  }
  bool insert(State& s, std::int32_t task, std::mt19937_64& rng, double blink);
  bool insert_exact(State& s, std::int32_t task);
  void recreate(State& s, std::vector<std::int32_t> tasks, std::mt19937_64& rng, double blink);
  void ruin(State& s, std::mt19937_64& rng);
  // --- batched local search ----------------------------------------------------------------
  void local_search(std::vector<State>& batch);
  [[nodiscard]] bool expired() const {
    if (options_.stop != nullptr && options_.stop->load()) return true;
    return options_.time_limit_s > 0.0 && seconds_since(start_) >= options_.time_limit_s;
  }
  Cost schedule_cost(std::size_t v, const std::vector<std::int32_t>& seq, bool* feasible) const {
    return search::schedule_cost(p_, v, seq, feasible);
  }
  Solution finish(const State& s);

  const Problem& p_;
  const SolveOptions& options_;
  MoveEngine* engine_;                      ///< the engine the search runs on now
  std::unique_ptr<MoveEngine> fallback_;    ///< owned once the search left its engine
  BatchedSearchOptions opts_;
  SearchStats& stats_;
  PackedProblem packed_;
  ProblemView view_;
  unsigned threads_;
  bool multi_window_ = false, breaks_ = false;
  Clock::time_point start_ = Clock::now();
  PackedBatch one_;
  BatchView one_view_;
  HostPrefix one_prefix_;
};

}  // namespace routesolve::cuda::search
