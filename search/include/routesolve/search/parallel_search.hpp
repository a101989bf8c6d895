#pragma once
// N annealing searches (chains) on N threads or in lockstep, with seeds derived from the solve's
// seed. They run in epochs of a fixed number of iterations (more on larger instances). In the
// cost phase each chain searches its own region of one shared solution (regions.hpp: tours near
// each other, about equal task counts, new borders every epoch); between epochs the regions are
// put together into the shared solution, and the best of the put-together bests and the
// chains' bests is kept. Otherwise (the fleet phase, or too few tours) every chain searches its
// own copy and, between epochs, the chains that are behind take the best solution (lowest index
// on ties). The result depends only on (seed, chains) and the number of epochs the budget
// allowed.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "routesolve/search/annealing_search.hpp"
#include "routesolve/search/search_control.hpp"
#include "routesolve/search/worker_pool.hpp"

namespace routesolve::search {

class ParallelSearch {
 public:
  /// Called after every epoch with the best score and the share of the budget used.
  using ProgressFn = std::function<void(const Score&, double)>;
  /// Checkpoint sink: the best plan, its score and the iterations so far (all threads, earlier
  /// runs included). Called between epochs, every thread joined.
  using CheckpointFn = std::function<void(const TourPlan&, const Score&, std::size_t)>;

  /// The chains: `count` annealing searches, each on its own thread (an engine that may be
  /// called from several threads at once), or all on the calling thread in lockstep, the
  /// requests of every chain priced in one engine call per insertion round (a batched engine).
  /// A chain makes the same decisions either way.
  struct Chains {
    unsigned count = 1;
    bool lockstep = false;
    /// In the cost phase, chains search disjoint regions of one shared solution (regions.hpp),
    /// new regions every epoch, so that their improvements add up; else (and in the fleet
    /// phase) each searches its own copy and the best is exchanged between epochs.
    bool regions = true;
    /// Lockstep: threads for the chains' host work (ruin, bookkeeping, descent), the calling
    /// thread included.
    unsigned workers = 1;
  };

  ParallelSearch(const SegmentModel& model, const Neighbours& adjacency,
                 const VehicleClasses& classes, const std::vector<std::size_t>& insertable,
                 Objective objective, std::uint64_t seed, Chains chains,
                 AnnealingSearch::Parameters parameters, InsertionEngine& engine);

  /// Resuming: `fraction_done` (0..1) of the budget and `iterations_done` (all threads) were
  /// spent by earlier runs; the annealing schedule continues from there over what is left.
  void resume_from(double fraction_done, std::size_t iterations_done);
  /// Calls `sink` after the first epoch that ends at least `every_s` seconds (on the
  /// deadline's clock) after `last_s`, then every `every_s` seconds.
  void set_checkpoint(CheckpointFn sink, double every_s, double last_s);

  /// Runs from `start` until the deadline (time_limit_s > 0), `iterations` steps per thread
  /// (when non-zero; with a time limit as well, whichever comes first), or the stop flag;
  /// returns the best plan.
  TourPlan run(const TourPlan& start, const Deadline& deadline, double time_limit_s,
               std::size_t iterations, const ProgressFn& on_epoch = {});

  [[nodiscard]] Score best_score() const noexcept { return best_score_; }
  /// Iterations of every thread, earlier runs (resume_from) included.
  [[nodiscard]] std::size_t iterations() const noexcept { return total_iterations_; }

 private:
  /// One step of every chain in lockstep.
  void lockstep_step(const std::vector<double>& fractions);

  const Problem* problem_;
  std::vector<AnnealingSearch> searches_;
  Objective objective_;
  bool lockstep_ = false;
  bool regions_ = true;
  InsertionEngine* engine_;
  std::unique_ptr<WorkerPool> pool_;  // the chains' threads (persistent: no thread per epoch)
  WorkingSolution scratch_;           // scores put-together plans
  std::size_t epoch_steps_;           // steps of every chain per epoch
  TourPlan best_plan_;
  Score best_score_;
  std::size_t cycles_seen_ = 0;  // annealing cycles of the first chain at the last epoch
  std::size_t total_iterations_ = 0;
  double fraction_done_ = 0.0;
  std::size_t iterations_done_ = 0;
  CheckpointFn checkpoint_;
  double checkpoint_every_s_ = 0.0;
  double last_checkpoint_s_ = 0.0;
};

/// The seed of thread i, derived from the solve's seed (splitmix64).
std::uint64_t derive_seed(std::uint64_t seed, std::size_t i);

}  // namespace routesolve::search
