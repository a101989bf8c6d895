#pragma once
// The exact form of a plan: one task sequence per vehicle, plus per-route cached arrays (costs,
// loads, relaxed time bounds) that price an insertion and filter it cheaply before core's
// schedule_route, the ground truth of feasibility, is asked. The regret construction, the
// exactness step and the exact search run on it (docs/ARCHITECTURE.md, "Plans").

#include <cstddef>
#include <limits>
#include <vector>

#include "routesolve/hd/route_segment.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/search/tour_plan.hpp"
#include "routesolve/solution.hpp"

namespace routesolve::search {

inline constexpr Cost kInfiniteCost = std::numeric_limits<Cost>::max() / 4;
inline constexpr Duration kNoTime = std::numeric_limits<Duration>::min() / 4;

// ---- amounts: missing dimensions count as zero --------------------------------------------

/// a += b over b's dimensions.
void add_amount(Amount& a, const Amount& b);
/// a -= b over b's dimensions.
void subtract_amount(Amount& a, const Amount& b);
/// (a + extra) fits in capacity, dimension by dimension (extra may be empty).
bool fits_with(const Amount& a, const Amount& extra, const Amount& capacity);

// ---- travel helpers -------------------------------------------------------------------------

/// Arc cost; 0 when either end is a missing start/end (core's, routesolve/hd/route_segment.hpp).
using routesolve::arc_cost;
/// Arc duration; 0 when either end is missing.
inline Duration arc_duration(const TravelView& tv, std::size_t a, std::size_t b) {
  return (a == kNone || b == kNone) ? 0 : tv.duration(a, b);
}
/// True when the arc exists and has no path.
inline bool arc_unreachable(const TravelView& tv, std::size_t a, std::size_t b) {
  return a != kNone && b != kNone &&
         (tv.duration(a, b) >= kUnreachable || tv.cost(a, b) >= kUnreachable);
}

/// Travel cost of a task sequence on vehicle v, fixed cost excluded (0 when empty).
Cost sequence_travel_cost(const Problem& problem, std::size_t v,
                          const std::vector<std::size_t>& tasks);
/// Cost of a route in internal units: travel cost plus the fixed cost when not empty.
Cost route_cost(const Problem& problem, std::size_t v, const std::vector<std::size_t>& tasks);

/// Earliest instant >= t inside one of the windows; kMaxTime + 1 when none.
Duration earliest_in_windows(const std::vector<TimeWindow>& windows, Duration t);
/// Latest instant <= t inside one of the windows; kNoTime when none.
Duration latest_in_windows(const std::vector<TimeWindow>& windows, Duration t);

// ---- routes ---------------------------------------------------------------------------------

/// A route and its cached arrays. Nodes: 0 = start, 1..n = tasks, n + 1 = end.
struct RouteData {
  std::size_t vehicle = 0;
  std::vector<std::size_t> tasks;
  std::vector<std::size_t> locations;        ///< per node; kNone for a missing start/end
  std::vector<Cost> forward_cost;            ///< [k]: cost of arcs node 0 -> ... -> node k
  std::vector<Cost> backward_cost;           ///< [k]: sum over m < k of cost(node m+1 -> node m)
  std::vector<Amount> load;                  ///< [k], k = 0..n: load after node k
  std::vector<Amount> load_prefix_max;       ///< [k]: max of load[0..k]
  std::vector<Amount> load_suffix_max;       ///< [k]: max of load[k..n]
  std::vector<Amount> delivery_prefix;       ///< [k]: job deliveries of the first k tasks
  std::vector<Amount> pickup_prefix;         ///< [k]: job pickups of the first k tasks
  std::vector<Duration> earliest_departure;  ///< [k]: relaxed earliest departure from node k
  std::vector<Duration> latest_start;        ///< [k]: relaxed latest service start (n+1: arrival)
  Cost travel_cost = 0;
  std::size_t shipment_tasks = 0;
  bool time_filter = false;  ///< relaxed time arrays usable (vehicle without breaks)

  [[nodiscard]] std::size_t size() const noexcept { return tasks.size(); }
  [[nodiscard]] bool empty() const noexcept { return tasks.empty(); }
  /// Location of node k (0 = start, n + 1 = end).
  [[nodiscard]] std::size_t node_location(std::size_t k) const { return locations[k]; }
  /// Total cost of the route (fixed cost included when not empty).
  [[nodiscard]] Cost cost(const Problem& problem) const;
};

/// Builds a route's cached arrays for vehicle v.
RouteData make_route_data(const Problem& problem, std::size_t v, std::vector<std::size_t> tasks);

/// The search state: one RouteData per vehicle and where each task is.
class SearchState {
 public:
  explicit SearchState(const Problem& problem);

  [[nodiscard]] const Problem& problem() const noexcept { return *problem_; }
  [[nodiscard]] std::size_t vehicle_count() const noexcept { return routes_.size(); }
  [[nodiscard]] const RouteData& route(std::size_t v) const { return routes_[v]; }
  [[nodiscard]] const TravelView& travel(std::size_t v) const { return travel_[v]; }
  [[nodiscard]] Cost fixed_cost(std::size_t v) const { return fixed_[v]; }
  /// Vehicle serving task t, or kNone.
  [[nodiscard]] std::size_t route_of(std::size_t t) const { return route_of_[t]; }
  /// Position of task t in its route (undefined when unassigned).
  [[nodiscard]] std::size_t position_of(std::size_t t) const { return position_of_[t]; }
  [[nodiscard]] bool assigned(std::size_t t) const { return route_of_[t] != kNone; }

  /// Replaces the route of vehicle v.
  void set_route(std::size_t v, std::vector<std::size_t> tasks);
  /// Every vehicle's task sequence.
  [[nodiscard]] TourPlan plan() const;
  /// Replaces every route by the plan's (vehicles beyond the plan end up empty).
  void load(const TourPlan& plan);

  /// True when the O(1) filters of a job insertion into v are exact (no breaks, setups,
  /// travel-time or distance limits): schedule_route may then be skipped during pricing.
  [[nodiscard]] bool exact_job_filter(std::size_t v) const { return exact_job_filter_[v] != 0; }
  /// Turns the exact-filter shortcut off (used if core ever disagrees with a filter).
  void distrust_filters() { exact_job_filter_.assign(exact_job_filter_.size(), 0); }

  [[nodiscard]] Cost total_cost() const;
  [[nodiscard]] std::size_t used_routes() const;
  [[nodiscard]] std::size_t assigned_count() const;
  [[nodiscard]] long priority_sum() const;

 private:
  const Problem* problem_;
  std::vector<TravelView> travel_;
  std::vector<Cost> fixed_;
  std::vector<RouteData> routes_;
  std::vector<std::size_t> route_of_, position_of_;
  std::vector<char> exact_job_filter_;
};

/// Schedules a sequence on v with core (empty sequences are feasible).
ScheduleResult schedule(const Problem& problem, std::size_t v,
                        const std::vector<std::size_t>& tasks);

}  // namespace routesolve::search
