#include "routesolve/search/insertion_engine.hpp"

#include <cmath>
#include <vector>

#include "routesolve/search/search_state.hpp"

namespace routesolve::search {

static_assert(hd::kNoInsertion == kInfiniteCost, "one 'not found' delta for every engine");

std::uint32_t blink_threshold(double rate) {
  if (!(rate > 0.0)) return 0;
  return static_cast<std::uint32_t>(std::ldexp(std::min(rate, 0.999), 32));
}

hd::Inserted inserted(const WorkingSolution& solution, std::size_t task) {
  const Problem& problem = solution.problem();
  const Task& t = problem.task(task);
  hd::Inserted x;
  x.segment = &solution.model().task(task);
  x.location = t.location;
  if (t.sibling != kNone) {
    x.sibling = &solution.model().task(t.sibling);
    x.sibling_location = problem.task(t.sibling).location;
  }
  return x;
}

std::optional<hd::TourView> tour_view(const WorkingSolution& solution, std::size_t task,
                                      const hd::Inserted& x, std::size_t v) {
  const Problem& problem = solution.problem();
  if (!problem.compatible(v, task)) return std::nullopt;
  // What the view needs of the vehicle comes from the model's compact per-vehicle arrays (at
  // 500 vehicles the Vehicle records miss the cache on every candidate tour).
  const SegmentModel& m = solution.model();
  const Tour& tour = solution.tour(v);
  const bool pair = x.sibling != nullptr;
  const SegmentLimits& limits = m.limits(v);
  if (limits.max_tasks != kNone && tour.size() + (pair ? 2 : 1) > limits.max_tasks)
    return std::nullopt;
  hd::TourView view;
  view.prefix = tour.prefix();
  view.suffix = tour.suffix();
  view.task_ids = tour.tasks.data();
  view.n = tour.size();
  view.vehicle = v;
  view.opening = tour.empty() ? m.fixed_cost(v) : 0;
  view.travel = m.travel(v);
  view.limits = limits;
  // (A multi-trip tour's totals are its first trip's: the screen does not apply.)
  if (!pair && m.single_trip(v) && !hd::job_may_fit(view, x, m.dims())) return std::nullopt;
  return view;
}

namespace {

class SegmentEngine final : public InsertionEngine {
 public:
  [[nodiscard]] std::string name() const override { return "segments"; }

  void price(std::span<const InsertionRequest> requests, std::span<InsertionChoice> out) override {
    for (std::size_t r = 0; r < requests.size(); ++r) out[r] = price_one(requests[r]);
  }

 private:
  /// Per-thread scratch for a tour's arcs (an engine may be called from several chains).
  static std::vector<hd::JobArcs>& arcs_scratch() {
    thread_local std::vector<hd::JobArcs> arcs;
    return arcs;
  }

  static InsertionChoice price_one(const InsertionRequest& q) {
    const WorkingSolution& s = *q.solution;
    const SegmentModel& m = s.model();
    const hd::Inserted x = inserted(s, q.task);
    const auto segment_of = [&m](std::size_t t) -> const RouteSegment& { return m.task(t); };
    InsertionChoice best;
    std::vector<hd::JobArcs>& arcs = arcs_scratch();
    for (const std::size_t v : q.vehicles) {
      const std::optional<hd::TourView> view = tour_view(s, q.task, x, v);
      if (!view) continue;
      if (x.sibling != nullptr) {
        for (std::size_t k = 0; k <= view->n; ++k) {
          const hd::Priced p = hd::price_pair_row(*view, x, m.dims(), k, best.delta, q.blink_key,
                                                  q.blink_threshold, segment_of);
          if (p.delta < best.delta) best = InsertionChoice{v, k, p.j, p.delta};
        }
        continue;
      }
      // Every position's arcs first: independent matrix reads that overlap (at 5,000 stops each
      // may miss the cache), then the positions in order, as hd::price_job prices them.
      arcs.resize(view->n + 1);
      for (std::size_t k = 0; k <= view->n; ++k) arcs[k] = hd::job_arcs(*view, x, k);
      for (std::size_t k = 0; k <= view->n; ++k) {
        const hd::Priced p = hd::price_job_from(*view, x, m.dims(), k, arcs[k], best.delta,
                                                q.blink_key, q.blink_threshold);
        if (p.delta < best.delta) best = InsertionChoice{v, k, p.j, p.delta};
      }
    }
    return best;
  }
};

}  // namespace

std::unique_ptr<InsertionEngine> make_segment_engine() { return std::make_unique<SegmentEngine>(); }

}  // namespace routesolve::search
