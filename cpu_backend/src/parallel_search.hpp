#pragma once
// N annealing searches on N threads, with seeds derived from the solve's seed. They run in
// epochs of a fixed number of iterations and, between epochs, every search that is behind takes
// the best solution found so far (lowest thread index on ties), so that the result depends only
// on (seed, threads) and the number of epochs the budget allowed.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "annealing_search.hpp"
#include "search_control.hpp"

namespace routesolve::cpu::detail {

class ParallelSearch {
 public:
  /// Called after every epoch with the best score and the share of the budget used.
  using ProgressFn = std::function<void(const Score&, double)>;

  ParallelSearch(const SegmentModel& model, const Neighbours& adjacency, const VehicleClasses& classes,
                 const std::vector<std::size_t>& insertable, Objective objective, std::uint64_t seed,
                 unsigned threads, AnnealingSearch::Parameters parameters);

  /// Runs from `start` until the deadline (time_limit_s > 0) or `iterations` steps per thread,
  /// or the stop flag; returns the best plan.
  TourPlan run(const TourPlan& start, const Deadline& deadline, double time_limit_s, std::size_t iterations,
               const ProgressFn& on_epoch = {});

  [[nodiscard]] Score best_score() const noexcept { return best_score_; }
  [[nodiscard]] std::size_t iterations() const noexcept { return total_iterations_; }

 private:
  std::vector<AnnealingSearch> searches_;
  Objective objective_;
  Score best_score_;
  std::size_t total_iterations_ = 0;
};

/// The seed of thread i, derived from the solve's seed (splitmix64).
std::uint64_t derive_seed(std::uint64_t seed, std::size_t i);

}  // namespace routesolve::cpu::detail
