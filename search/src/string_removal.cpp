#include "routesolve/search/string_removal.hpp"

#include <algorithm>
#include <cmath>

namespace routesolve::search {

StringRemoval::StringRemoval(const Neighbours& adjacency, Parameters parameters)
    : adjacency_(&adjacency), parameters_(parameters) {}

std::vector<std::size_t> StringRemoval::apply(WorkingSolution& solution,
                                              std::mt19937_64& rng) const {
  const Problem& problem = solution.problem();
  std::vector<std::size_t> removed;
  const std::size_t routed = solution.routed();
  if (routed == 0) return removed;
  const double average_tour = static_cast<double>(routed) /
                              static_cast<double>(std::max<std::size_t>(1, solution.used_routes()));
  const double max_string = std::min(static_cast<double>(parameters_.max_string), average_tour);
  const double max_strings = 4.0 * parameters_.average_removed / (1.0 + max_string) - 1.0;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const auto strings =
      static_cast<std::size_t>(std::floor(1.0 + unit(rng) * std::max(0.0, max_strings)));

  // Seed: a random routed task.
  std::size_t seed = kNone;
  const std::size_t nt = problem.tasks().size();
  for (std::size_t attempt = 0; attempt < 64 && seed == kNone; ++attempt) {
    const std::size_t t = rng() % nt;
    if (solution.movable(t)) seed = t;
  }
  if (seed == kNone) return removed;

  std::vector<std::size_t> ruined;  // vehicles already cut
  std::size_t cut = 0;
  auto cut_around = [&](std::size_t c) {
    if (cut >= strings || !solution.movable(c)) return;
    const std::size_t v = solution.route_of(c);
    if (std::find(ruined.begin(), ruined.end(), v) != ruined.end()) return;
    ruined.push_back(v);
    ++cut;
    const std::vector<std::size_t>& tasks = solution.tour(v).tasks;
    const std::size_t n = tasks.size();
    const std::size_t pos = solution.position_of(c);
    const double longest = std::min(static_cast<double>(n), max_string);
    const auto length =
        std::max<std::size_t>(1, static_cast<std::size_t>(std::floor(1.0 + unit(rng) * longest)));
    const std::size_t l = std::min(length, n);
    std::size_t keep = 0;
    if (l < n && unit(rng) < parameters_.split_rate) {
      keep = 1;
      while (l + keep < n && unit(rng) < parameters_.keep_more) ++keep;
    }
    const std::size_t span = l + keep;
    const std::size_t lo = pos + 1 >= span ? pos + 1 - span : 0;
    const std::size_t hi = std::min(pos, n - span);
    const std::size_t start = lo + (hi >= lo ? rng() % (hi - lo + 1) : 0);
    const std::size_t keep_at = keep > 0 ? start + rng() % (l + 1) : n;  // first kept visit
    std::vector<std::size_t> batch;
    for (std::size_t k = start; k < start + span; ++k) {
      if (keep > 0 && k >= keep_at && k < keep_at + keep) continue;
      // A multi-trip tour's reloads stay: without one the tour may not fit (the reload pass
      // takes useless ones out).
      if (problem.task(tasks[k]).type == TaskType::Reload) continue;
      batch.push_back(tasks[k]);
    }
    for (std::size_t t : batch) {
      const Task& task = problem.task(t);
      removed.push_back(task.type == TaskType::Delivery ? task.sibling : t);
    }
    solution.remove(batch);
  };
  cut_around(seed);
  for (std::size_t c : adjacency_->of(seed)) {
    if (cut >= strings) break;
    cut_around(c);
  }
  std::sort(removed.begin(), removed.end());
  removed.erase(std::unique(removed.begin(), removed.end()), removed.end());
  return removed;
}

}  // namespace routesolve::search
