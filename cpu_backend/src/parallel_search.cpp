#include "parallel_search.hpp"

#include <algorithm>
#include <thread>
#include <utility>

namespace routesolve::cpu::detail {

namespace {
constexpr std::size_t kEpochIterations = 64;
}

std::uint64_t derive_seed(std::uint64_t seed, std::size_t i) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (i + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

ParallelSearch::ParallelSearch(const SegmentModel& model, const Neighbours& adjacency,
                               const VehicleClasses& classes, const std::vector<std::size_t>& insertable,
                               Objective objective, std::uint64_t seed, unsigned threads,
                               AnnealingSearch::Parameters parameters)
    : objective_(objective) {
  const unsigned n = std::max(1u, threads);
  searches_.reserve(n);
  for (unsigned i = 0; i < n; ++i)
    searches_.emplace_back(model, adjacency, classes, insertable, objective, derive_seed(seed, i), parameters);
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
  for (AnnealingSearch& s : searches_) s.start(start);
  best_score_ = searches_.front().best_score();
  const bool timed = time_limit_s > 0.0;
  // Share of the whole budget: what earlier runs spent (resume_from), then this run's part.
  auto fraction = [&](const AnnealingSearch& s) {
    const double by_work =
        iterations == 0 ? (timed ? 0.0 : 1.0)
                        : std::min(1.0, static_cast<double>(s.iterations()) / static_cast<double>(iterations));
    const double own = timed ? std::max(by_work, std::min(1.0, deadline.elapsed() / time_limit_s)) : by_work;
    return fraction_done_ + (1.0 - fraction_done_) * own;
  };
  auto finished = [&](const AnnealingSearch& s) {
    if (deadline.expired()) return true;
    if (iterations > 0 && s.iterations() >= iterations) return true;
    return timed ? deadline.elapsed() >= time_limit_s : iterations == 0;
  };
  auto work = [&](AnnealingSearch& s) {
    for (std::size_t k = 0; k < kEpochIterations && !finished(s); ++k) s.step(fraction(s));
  };
  for (;;) {
    if (searches_.size() == 1) {
      work(searches_.front());
    } else {
      std::vector<std::thread> pool;
      pool.reserve(searches_.size() - 1);
      for (std::size_t i = 1; i < searches_.size(); ++i) pool.emplace_back([&, i] { work(searches_[i]); });
      work(searches_.front());
      for (std::thread& t : pool) t.join();
    }
    // Exchange: the best so far (lowest index on ties) goes to every search behind it.
    std::size_t leader = 0;
    for (std::size_t i = 1; i < searches_.size(); ++i)
      if (better(searches_[i].best_score(), searches_[leader].best_score(), objective_)) leader = i;
    best_score_ = searches_[leader].best_score();
    for (std::size_t i = 0; i < searches_.size(); ++i)
      if (i != leader && better(best_score_, searches_[i].best_score(), objective_))
        searches_[i].adopt(searches_[leader].best_plan());
    total_iterations_ = iterations_done_;
    for (const AnnealingSearch& s : searches_) total_iterations_ += s.iterations();
    if (on_epoch) on_epoch(best_score_, fraction(searches_.front()));
    const bool last = finished(searches_.front());
    // Checkpoint: a deterministic point (every thread joined, exchange done); the best plan is
    // the leader's. Not after the last epoch: the caller has the result then.
    if (checkpoint_ && !last && deadline.elapsed() - last_checkpoint_s_ >= checkpoint_every_s_) {
      checkpoint_(searches_[leader].best_plan(), best_score_, total_iterations_);
      last_checkpoint_s_ = deadline.elapsed();
    }
    if (last) break;
  }
  std::size_t leader = 0;
  for (std::size_t i = 1; i < searches_.size(); ++i)
    if (better(searches_[i].best_score(), searches_[leader].best_score(), objective_)) leader = i;
  return searches_[leader].best_plan();
}

}  // namespace routesolve::cpu::detail
