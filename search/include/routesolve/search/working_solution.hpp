#pragma once
// The solution a metaheuristic works on: one tour per vehicle with prefix and suffix segments
// (so that any insertion is priced and checked in O(1)), where each task is, the objective
// terms kept up to date, and a journal that undoes a rejected ruin-and-recreate step.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "routesolve/backend.hpp"
#include "routesolve/hd/score.hpp"
#include "routesolve/search/segments.hpp"
#include "routesolve/search/tour_plan.hpp"

namespace routesolve::search {

/// A tour and its segments. Nodes: 0 = start, 1..n = tasks, n + 1 = end.
struct Tour {
  std::size_t vehicle = 0;
  std::vector<std::size_t> tasks;
  Cost cost = 0;  ///< fixed cost included; 0 when empty
  /// Changes with every change of the tour, unique in the process: equal versions mean equal
  /// tours (what an engine that mirrors tours elsewhere, e.g. on a device, compares).
  std::uint64_t version = 0;

  [[nodiscard]] std::size_t size() const noexcept { return tasks.size(); }
  [[nodiscard]] bool empty() const noexcept { return tasks.empty(); }
  /// The n + 2 prefix segments ([k]: nodes 0..k) and suffix segments ([k]: nodes k..n+1). An
  /// empty tour stores none: it reads its vehicle's, which the model shares between vehicles with
  /// the same ends (a CVRPLIB file without a fleet size has n - 1 vehicles, nearly all unused).
  [[nodiscard]] const RouteSegment* prefix() const noexcept {
    return tasks.empty() ? unused_ : prefix_.data();
  }
  [[nodiscard]] const RouteSegment* suffix() const noexcept {
    return tasks.empty() ? unused_ + 1 : suffix_.data();
  }

 private:
  friend class WorkingSolution;
  std::vector<RouteSegment> prefix_, suffix_;  // empty while the tour is
  const RouteSegment* unused_ = nullptr;       // SegmentModel::unused_route(vehicle)
};

class WorkingSolution {
 public:
  /// Every vehicle starts empty and every task unassigned. `insertable`: the jobs and shipment
  /// pickups the search may route (the others are hopeless and not counted as unassigned).
  WorkingSolution(const SegmentModel& model, const std::vector<std::size_t>& insertable);

  [[nodiscard]] const SegmentModel& model() const noexcept { return *model_; }
  [[nodiscard]] const Problem& problem() const noexcept { return model_->problem(); }
  [[nodiscard]] std::size_t vehicle_count() const noexcept { return tours_.size(); }
  [[nodiscard]] const Tour& tour(std::size_t v) const { return tours_[v]; }
  /// tour(v).empty(), from a compact array (the recreate scans it for empty vehicles).
  [[nodiscard]] bool tour_empty(std::size_t v) const { return empty_[v] != 0; }
  [[nodiscard]] std::size_t route_of(std::size_t t) const { return route_of_[t]; }
  [[nodiscard]] std::size_t position_of(std::size_t t) const { return position_of_[t]; }
  [[nodiscard]] bool assigned(std::size_t t) const { return route_of_[t] != kNone; }
  [[nodiscard]] const std::vector<std::size_t>& insertable() const noexcept { return insertable_; }
  /// Insertable tasks not routed now.
  [[nodiscard]] std::vector<std::size_t> unassigned_tasks() const;

  /// The objective: cost is the tours' costs plus the balance term (Problem::balance_cost) of
  /// the longest tour, when the problem asks for one.
  [[nodiscard]] Score score() const;
  /// The tours' costs, fixed costs included (no balance term).
  [[nodiscard]] Cost cost() const noexcept { return cost_; }
  /// The longest working time of a non-empty tour, as the segments measure it (exact for single
  /// time windows without breaks).
  [[nodiscard]] Duration longest_working_time() const;
  [[nodiscard]] std::size_t used_routes() const noexcept { return used_; }
  /// Tasks in the tours (reloads and shipment halves included).
  [[nodiscard]] std::size_t routed() const noexcept { return routed_; }

  /// Replaces the tour of vehicle v (its tasks must not be in other tours).
  void set_tasks(std::size_t v, std::vector<std::size_t> tasks);
  /// Inserts a job (or a lone task) before tasks[position] of v.
  void insert(std::size_t task, std::size_t v, std::size_t position);
  /// Inserts a shipment: the pickup before tasks[i], the delivery before tasks[j] (indices in
  /// the tour before the insertion, i <= j).
  void insert_pair(std::size_t pickup, std::size_t v, std::size_t i, std::size_t j);
  /// Removes tasks (shipment halves are removed with their siblings); tours are rebuilt once.
  void remove(const std::vector<std::size_t>& tasks);

  /// Starts recording the tours the following changes touch.
  void begin_change();
  /// Puts every touched tour back as it was at begin_change().
  void revert();
  /// Forgets the journal (the change is kept).
  void commit();
  /// Vehicles whose tours changed since begin_change().
  [[nodiscard]] std::vector<std::size_t> touched() const;
  /// Tasks of the tours changed since begin_change() whose predecessor or successor there is
  /// not the one they had before (the ends of every removed, inserted or moved piece).
  [[nodiscard]] std::vector<std::size_t> rewired() const;

  /// Restricts the search's changes to a region: the tours of the vehicles marked in
  /// `vehicles` and the unassigned tasks marked in `tasks` (empty vectors: no restriction).
  /// Ruin, recreate and the descents only touch tours in the region, so searches on disjoint
  /// regions of one solution can run at once and their results be put together. The tours
  /// that enter the region count as changed (changed_at).
  void set_region(std::vector<char> vehicles, std::vector<char> tasks);
  [[nodiscard]] bool in_region(std::size_t v) const { return region_.empty() || region_[v] != 0; }
  [[nodiscard]] bool has_region() const noexcept { return !region_.empty(); }
  /// An unassigned task this search may insert.
  [[nodiscard]] bool may_insert(std::size_t t) const {
    return region_tasks_.empty() || region_tasks_[t] != 0;
  }
  /// A routed task whose tour is in the region.
  [[nodiscard]] bool movable(std::size_t t) const { return assigned(t) && in_region(route_of(t)); }

  /// This solution's change clock: it advances with every change of a tour, and
  /// changed_at(v) is its value when tour v last changed (0: never since construction). A
  /// descent that records when it last examined a task skips what has not changed since.
  [[nodiscard]] std::uint64_t clock() const noexcept { return clock_; }
  [[nodiscard]] std::uint64_t changed_at(std::size_t v) const { return changed_at_[v]; }

  [[nodiscard]] TourPlan plan() const;
  /// Loads a plan (one sequence per vehicle); the journal is cleared.
  void load(const TourPlan& plan);

 private:
  void touch(std::size_t v);
  void rebuild(std::size_t v);
  /// Recomputes prefix[prefix_from..n+1] and suffix[0..suffix_to] of tour v (the others are
  /// still valid), its cost and its positions.
  void refresh(std::size_t v, std::size_t prefix_from, std::size_t suffix_to);
  void set_route_of(std::size_t t, std::size_t v);

  const SegmentModel* model_;
  std::vector<std::size_t> insertable_;
  std::vector<Tour> tours_;
  std::vector<char> empty_;                // per vehicle: its tour is empty
  std::vector<std::uint64_t> changed_at_;  // per vehicle: clock_ at its last change
  std::uint64_t clock_ = 0;
  std::vector<std::size_t> route_of_, position_of_;
  std::vector<char> counted_;  // task counts as insertable (job or pickup on the list)
  Cost cost_ = 0;
  std::size_t used_ = 0;
  std::size_t routed_ = 0;
  std::size_t unassigned_ = 0;
  long priority_lost_ = 0;
  std::vector<char> region_, region_tasks_;
  bool journaling_ = false;
  std::vector<char> saved_;
  std::vector<std::pair<std::size_t, std::vector<std::size_t>>> journal_;
};

/// Appends to `out` the tasks now in the tours of `before` (a tour and its earlier sequence,
/// each tour once) whose predecessor or successor in s differs from the one they had in
/// `before` (tasks new to those tours included).
void append_rewired(const WorkingSolution& s,
                    const std::vector<std::pair<std::size_t, std::vector<std::size_t>>>& before,
                    std::vector<std::size_t>& out);

}  // namespace routesolve::search
