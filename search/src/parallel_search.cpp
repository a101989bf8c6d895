#include "routesolve/search/parallel_search.hpp"

#include <algorithm>
#include <thread>
#include <utility>

#include "routesolve/search/hd/insertion_pricing.hpp"
#include "routesolve/search/regions.hpp"
#include "routesolve/search/worker_pool.hpp"

namespace routesolve::search {

namespace {
// An epoch is at least 64 steps of every chain, and a step per 4 insertable tasks above 256
// tasks: what runs between epochs (the cut into regions, O(tours^2) matrix reads; putting the
// regions together and scoring them, O(n)) grows with the instance while a step barely does.
// With 64 steps at 5,000 stops the cut took a large share of the search and two threads made
// the iterations of one (docs/EXPERIMENTS.md, "epochs that grow with the instance").
constexpr std::size_t kMinEpochSteps = 64;
constexpr std::size_t kTasksPerEpochStep = 4;
}  // namespace

std::uint64_t derive_seed(std::uint64_t seed, std::size_t i) {
  return hd::mix(seed + 0x9E3779B97F4A7C15ULL * (i + 1));  // splitmix64
}

ParallelSearch::ParallelSearch(const SegmentModel& model, const Neighbours& adjacency,
                               const VehicleClasses& classes,
                               const std::vector<std::size_t>& insertable, Objective objective,
                               std::uint64_t seed, Chains chains,
                               AnnealingSearch::Parameters parameters, InsertionEngine& engine)
    : problem_(&model.problem()),
      objective_(objective),
      lockstep_(chains.lockstep),
      regions_(chains.regions),
      engine_(&engine),
      scratch_(model, insertable),
      epoch_steps_(std::max(kMinEpochSteps, insertable.size() / kTasksPerEpochStep)) {
  const unsigned n = std::max(1u, chains.count);
  // Lockstep: the chains' host work on `workers` threads; else one thread per chain.
  pool_ = std::make_unique<WorkerPool>(lockstep_ ? std::max(1u, chains.workers) : n);
  if (regions_) parameters.chains_per_solution = n;
  searches_.reserve(n);
  for (unsigned i = 0; i < n; ++i)
    searches_.emplace_back(model, adjacency, classes, insertable, objective, derive_seed(seed, i),
                           parameters, engine);
}

void ParallelSearch::lockstep_step(const std::vector<double>& fractions) {
  // The chains' host work in parallel on the pool (each chain touches only its own state), the
  // pricing of every chain's request in one engine call on this thread.
  const std::size_t n = searches_.size();
  std::vector<char> open(n, 0), asking(n, 0);
  std::vector<InsertionRequest> mine(n);
  pool_->run(n, [&](std::size_t i) { open[i] = searches_[i].begin_step(fractions[i]) ? 1 : 0; });
  std::vector<InsertionRequest> requests;
  std::vector<std::size_t> owner;
  std::vector<InsertionChoice> choices;
  for (;;) {
    pool_->run(n, [&](std::size_t i) {
      asking[i] = 0;
      if (!open[i]) return;
      if (searches_[i].next_request(mine[i])) {
        asking[i] = 1;
      } else {
        searches_[i].end_step();
        open[i] = 0;
      }
    });
    requests.clear();
    owner.clear();
    for (std::size_t i = 0; i < n; ++i)
      if (asking[i]) {
        requests.push_back(mine[i]);
        owner.push_back(i);
      }
    if (requests.empty()) break;
    choices.assign(requests.size(), InsertionChoice{});
    engine_->price(requests, choices);  // one batch: a request of every chain still recreating
    pool_->run(requests.size(), [&](std::size_t r) { searches_[owner[r]].take(choices[r]); });
  }
}

void ParallelSearch::resume_from(double fraction_done, std::size_t iterations_done) {
  fraction_done_ = std::clamp(fraction_done, 0.0, 1.0);
  iterations_done_ = iterations_done;
  total_iterations_ = iterations_done;
  for (AnnealingSearch& s : searches_) s.resume(iterations_done / searches_.size());
}

void ParallelSearch::set_checkpoint(CheckpointFn sink, double every_s, double last_s) {
  checkpoint_ = std::move(sink);
  checkpoint_every_s_ = every_s;
  last_checkpoint_s_ = last_s;
}

TourPlan ParallelSearch::run(const TourPlan& start, const Deadline& deadline, double time_limit_s,
                             std::size_t iterations, const ProgressFn& on_epoch) {
  const bool timed = time_limit_s > 0.0;
  const Deadline search_deadline = deadline.sooner(time_limit_s);
  for (AnnealingSearch& s : searches_) {
    s.start(start);
    s.set_deadline(&search_deadline);
  }
  best_score_ = searches_.front().best_score();
  best_plan_ = searches_.front().best_plan();
  // Share of the whole budget: what earlier runs spent (resume_from), then this run's part.
  auto fraction = [&](const AnnealingSearch& s) {
    const double by_work =
        iterations == 0
            ? (timed ? 0.0 : 1.0)
            : std::min(1.0, static_cast<double>(s.iterations()) / static_cast<double>(iterations));
    const double own =
        timed ? std::max(by_work, std::min(1.0, deadline.elapsed() / time_limit_s)) : by_work;
    return fraction_done_ + (1.0 - fraction_done_) * own;
  };
  auto finished = [&](const AnnealingSearch& s) {
    if (deadline.expired()) return true;
    if (iterations > 0 && s.iterations() >= iterations) return true;
    return timed ? deadline.elapsed() >= time_limit_s : iterations == 0;
  };
  auto work = [&](AnnealingSearch& s) {
    for (std::size_t k = 0; k < epoch_steps_ && !finished(s); ++k) s.step(fraction(s));
  };
  // Lockstep: every chain steps together (they have made the same number of steps), their
  // recreate requests priced in batches.
  auto lockstep_work = [&] {
    std::vector<double> fractions(searches_.size());
    for (std::size_t k = 0; k < epoch_steps_ && !finished(searches_.front()); ++k) {
      for (std::size_t i = 0; i < searches_.size(); ++i) fractions[i] = fraction(searches_[i]);
      lockstep_step(fractions);
    }
  };
  // Regions: in the cost phase, chains search disjoint regions of one shared solution (their
  // changes add up) instead of each a copy of it; the regions move every epoch. A chain takes
  // up its region on its own thread (the serial part between epochs is what limits threads).
  TourPlan shared;          // the chains' current solutions put together
  bool in_regions = false;  // the chains are on regions (of the last epoch)
  auto leave_regions = [&] {
    if (!in_regions) return;
    for (AnnealingSearch& s : searches_) s.end_region();
    in_regions = false;
  };
  for (std::size_t epoch = 0;; ++epoch) {
    Regions regions;
    if (regions_ && searches_.size() > 1 &&
        std::all_of(searches_.begin(), searches_.end(),
                    [](const AnnealingSearch& s) { return s.in_cost_phase(); })) {
      if (shared.empty())
        shared = best_plan_.empty() ? searches_.front().current_plan() : best_plan_;
      regions = split_regions(*problem_, shared, searches_.size(), epoch * 7 + 3);
      if (regions.vehicles.empty()) shared.clear();
    }
    const bool on_regions = !regions.vehicles.empty();
    if (!on_regions) leave_regions();
    auto begin_region = [&](std::size_t i) {
      if (on_regions)
        searches_[i].begin_region(std::move(regions.vehicles[i]), std::move(regions.tasks[i]),
                                  shared, best_plan_, best_score_);
    };
    in_regions = on_regions;
    if (lockstep_) {
      if (on_regions) pool_->run(searches_.size(), begin_region);
      lockstep_work();
    } else if (searches_.size() == 1) {
      work(searches_.front());
    } else {
      pool_->run(searches_.size(), [&](std::size_t i) {  // one chain per thread
        begin_region(i);
        work(searches_[i]);
      });
    }
    std::size_t leader = 0;
    for (std::size_t i = 1; i < searches_.size(); ++i)
      if (better(searches_[i].best_score(), searches_[leader].best_score(), objective_)) leader = i;
    if (better(searches_[leader].best_score(), best_score_, objective_) || best_plan_.empty()) {
      best_score_ = searches_[leader].best_score();
      best_plan_ = searches_[leader].best_plan();
    }
    if (!regions.owner.empty()) {
      // Put the regions together: every vehicle's tour from the chain that owned it, once as
      // the chains are now (the next epoch's start) and once at each chain's best.
      // When no chain improved on its start, the regions' best is that start: the chains'
      // states of the last epoch put together, no better than their bests then (the score adds
      // up over regions, except the balance term's longest route), so it is not scored.
      const bool improved =
          problem_->spec().balance > 0.0 ||
          std::any_of(searches_.begin(), searches_.end(),
                      [](const AnnealingSearch& s) { return s.region_improved(); });
      TourPlan region_best;
      if (improved) region_best.resize(shared.size());
      for (std::size_t v = 0; v < shared.size(); ++v) {
        const AnnealingSearch& owner = searches_[regions.owner[v]];
        if (improved)
          region_best[v] = owner.region_improved() ? owner.region_best_plan()[v] : shared[v];
        shared[v] = owner.current_tour(v);
      }
      if (improved) {
        scratch_.load(region_best);
        if (better(scratch_.score(), best_score_, objective_)) {
          best_score_ = scratch_.score();
          best_plan_ = std::move(region_best);
        }
      }
      // A new annealing cycle (annealing_search.hpp) begins from the best, for every chain.
      if (searches_.front().cycles() != cycles_seen_) {
        cycles_seen_ = searches_.front().cycles();
        shared = best_plan_;
      }
    } else {
      // Exchange: the best so far (lowest index on ties) goes to every search behind it.
      shared.clear();
      for (std::size_t i = 0; i < searches_.size(); ++i)
        if (better(best_score_, searches_[i].best_score(), objective_))
          searches_[i].adopt(best_plan_);
    }
    total_iterations_ = iterations_done_;
    for (const AnnealingSearch& s : searches_) total_iterations_ += s.iterations();
    if (on_epoch) on_epoch(best_score_, fraction(searches_.front()));
    const bool last = finished(searches_.front());
    // Checkpoint: a deterministic point (every thread joined, exchange done); the best plan is
    // the leader's. Not after the last epoch: the caller has the result then.
    if (checkpoint_ && !last && deadline.elapsed() - last_checkpoint_s_ >= checkpoint_every_s_) {
      checkpoint_(best_plan_, best_score_, total_iterations_);
      last_checkpoint_s_ = deadline.elapsed();
    }
    if (last) break;
  }
  leave_regions();
  for (AnnealingSearch& s : searches_) s.set_deadline(nullptr);
  return best_plan_;
}

}  // namespace routesolve::search
