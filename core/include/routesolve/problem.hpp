#pragma once
// The fleet-routing problem, in two layers:
//  - ProblemSpec: a plain description with the concepts of VROOM's JSON API, filled by parsers
//    (io/) or by code. Nothing is checked yet.
//  - Problem: immutable, validated, indexed data built from a spec. Solvers only see this.
// Semantics follow VROOM (https://github.com/VROOM-Project/vroom/blob/master/docs/API.md):
//  * a job delivers `delivery` (loaded at the route start) and picks up `pickup` (kept until the
//  end);
//  * a shipment picks up `amount` at its pickup and drops it at its delivery, same route, in order;
//  * setup time is spent at a task only when arriving from a different location;
//  * service starts at max(arrival, time window start) and must start no later than the window end;
//  * a break is taken between two steps, inside one of its windows; when the window has not opened
//    at the departure, the vehicle first drives towards the next step until it opens (VROOM's
//    en-route breaks; core/src/schedule.cpp);
//  * cost = fixed + per_hour * travel time + per_km * distance, or the profile's `costs` matrix.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "routesolve/hd/travel_view.hpp"
#include "routesolve/types.hpp"

namespace routesolve {

// ---------------------------------------------------------------------------------------------
// Spec: what a user describes.
// ---------------------------------------------------------------------------------------------

/// Reload: a return of a multi-trip vehicle to one of its reload locations (one task per
/// possible reload, owned by that vehicle, never counted as unassigned; see Vehicle::reloads).
enum class TaskType { Job, Pickup, Delivery, Reload };

/// A task named by its type and id (VROOM's ids are unique per type: jobs, pickups, deliveries).
struct TaskRef {
  TaskType type = TaskType::Job;
  Id id = 0;
};

/// A place: a matrix index, coordinates, or both (VROOM: `location_index` / `location`).
struct LocationSpec {
  std::optional<std::size_t> index;
  std::optional<Coordinates> coords;
};

struct JobSpec {
  Id id = 0;
  LocationSpec location;
  Duration setup = 0;
  Duration service = 0;
  Amount delivery;  ///< empty = zero in every dimension
  Amount pickup;    ///< empty = zero in every dimension
  std::vector<std::uint32_t> skills;
  int priority = 0;                      ///< 0..100
  std::vector<TimeWindow> time_windows;  ///< empty = always open
  std::string description;
};

struct ShipmentStepSpec {
  Id id = 0;
  LocationSpec location;
  Duration setup = 0;
  Duration service = 0;
  std::vector<TimeWindow> time_windows;
  std::string description;
};

struct ShipmentSpec {
  ShipmentStepSpec pickup;
  ShipmentStepSpec delivery;
  Amount amount;  ///< empty = zero in every dimension
  std::vector<std::uint32_t> skills;
  int priority = 0;
};

struct BreakSpec {
  Id id = 0;
  std::vector<TimeWindow> time_windows;  ///< empty = always open
  Duration service = 0;
  std::optional<Amount> max_load;  ///< the load may not exceed this while the break is taken
  std::string description;
};

/// One of a vehicle's given steps (VROOM `vehicles[].steps`): in solving mode the start of its
/// route, in that order; in plan mode (check) its whole route.
enum class VehicleStepType { Start, Job, Pickup, Delivery, Break, End };

struct VehicleStepSpec {
  VehicleStepType type = VehicleStepType::Job;
  Id id = 0;                               ///< task or break id (unused for start and end)
  std::optional<Duration> service_at;      ///< service begins exactly then
  std::optional<Duration> service_after;   ///< service begins no earlier
  std::optional<Duration> service_before;  ///< service begins no later
  /// routesolve's extension: this step and every step before it on the vehicle are the fixed
  /// start of its route, kept as given. Steps after the last fixed one (all of them when none is
  /// fixed) are VROOM's starting solution, which the search may change.
  bool fixed = false;
};

struct VehicleCosts {
  Cost fixed = 0;
  Cost per_hour = 3600;  ///< VROOM default: cost equals travel seconds
  Cost per_km = 0;
};

struct VehicleSpec {
  Id id = 0;
  std::string profile = "car";
  std::optional<LocationSpec> start;  ///< absent: the route starts at its first task
  std::optional<LocationSpec> end;    ///< absent: open route, ends at its last task
  Amount capacity;                    ///< empty = unlimited in every dimension
  std::vector<std::uint32_t> skills;
  TimeWindow time_window;
  std::vector<BreakSpec> breaks;
  std::optional<std::size_t> max_tasks;
  std::optional<Duration> max_travel_time;
  std::optional<Distance> max_distance;
  VehicleCosts costs;
  double speed_factor = 1.0;           ///< travel durations are divided by this (VROOM semantics)
  std::vector<VehicleStepSpec> steps;  ///< given steps; empty = the route is the search's
  /// Multi-trip (an extension of VROOM's model): depots where the vehicle may return between two
  /// tasks to unload what it picked up and load what the next trip delivers. Empty: one trip.
  std::vector<LocationSpec> reload_locations;
  Duration reload_service = 0;           ///< time spent at each reload
  std::optional<std::size_t> max_trips;  ///< trips per route (reloads + 1); see Vehicle::max_trips
  /// Longest route: travel, setup, service (breaks and reloads included) and waiting, from the
  /// route's start to its end. Absent: no limit.
  std::optional<Duration> max_working_time;
  /// Re-optimisation input (an extension; `routesolve::reoptimise` reads it, solve refuses it):
  /// where the vehicle is now (its route then goes on from here, no earlier than `now`) ...
  std::optional<LocationSpec> current_location;
  /// ... and what it carries now that no remaining task of its route will drop (the load picked
  /// up at tasks already done; the deliveries of tasks still to do are theirs, as in a plan).
  std::optional<Amount> current_load;
  std::string description;
};

/// Travel matrices of one routing profile, indexed by location index.
struct ProfileMatrices {
  Matrix durations;
  Matrix distances;             ///< may be empty: distances unknown (then reported as 0)
  std::optional<Matrix> costs;  ///< when given, replaces per_hour/per_km travel cost
};

/// How internal integer units map to the units written out. Benchmark formats with
/// fractional Euclidean distances store them scaled (e.g. x1000) to keep exact integers.
struct UnitScale {
  double time = 1.0;      ///< internal time units per output time unit
  double distance = 1.0;  ///< internal distance units per output distance unit
  double cost = 1.0;      ///< internal matrix cost units per output cost unit
};

/// Which instants a schedule reports for a feasible order. Both end at the route's earliest end
/// and have the same travel, distance and cost; they differ in the departure and the waiting.
enum class Timeline {
  Vroom,     ///< VROOM's: every step as late as the earliest end allows, then as early as possible
             ///< from that departure (waiting as small as the order allows)
  Earliest,  ///< every step at its earliest instant, leaving at the shift start
};

std::string_view to_string(Timeline timeline) noexcept;
/// "vroom" or "earliest"; nullopt for any other name.
std::optional<Timeline> timeline_from_string(std::string_view name) noexcept;

/// What a route whose vehicle is priced per hour and per km reports as its cost (a route priced
/// by a `costs` matrix reports the sum of its arcs either way).
enum class RouteCostRule {
  ArcSum,  ///< the exact sum of its arcs' costs (the benchmark formats)
  /// VROOM's: the route's whole travel and distance priced once and rounded to the output unit,
  /// half up where VROOM schedules (time windows or breaks anywhere, and plan mode), else down.
  Vroom,
};

struct ProblemSpec {
  std::vector<JobSpec> jobs;
  std::vector<ShipmentSpec> shipments;
  std::vector<VehicleSpec> vehicles;
  std::map<std::string, ProfileMatrices>
      matrices;  ///< by profile name; may be empty with coordinates
  UnitScale scale;
  bool planar_coordinates = false;  ///< coordinates are x/y on a plane (benchmarks), not WGS84
  bool geometry = false;            ///< VROOM `"options": {"g": true}`: write each route's geometry
  /// VROOM `"options": {"l": seconds}` (or `"time_limit"`): the request's time limit, which the
  /// service applies under its own cap; 0: none given.
  double time_limit_s = 0.0;
  /// Re-optimisation input (an extension; see routesolve/reoptimise.hpp): tasks already served.
  std::vector<TaskRef> done;
  /// Balance (an extension, `"options": {"balance": W}`): the objective adds W output cost units
  /// per output time unit of the longest route's working time (travel, setup, service, waiting,
  /// breaks and reloads from the route's start to its end), as OR-Tools' span cost coefficient
  /// does with the longest span. 0: no balance term.
  double balance = 0.0;
  /// Plan mode (VROOM's `-c`, routesolve/plan_check.hpp): the steps' service_at / after /
  /// before stay apart from the windows (hard bounds beside soft windows) instead of narrowing
  /// them.
  bool plan = false;
  /// `"options": {"timeline": "vroom" | "earliest"}` (earliest is an extension): the instants the
  /// solution reports; unset: the caller's choice (VROOM's by default).
  std::optional<Timeline> timeline;
  /// How per-hour / per-km routes report their cost (the VROOM JSON reader sets Vroom); the
  /// search optimises the exact arc sums either way.
  RouteCostRule route_costs = RouteCostRule::ArcSum;
  std::string name;    ///< instance name, for reports
  std::string source;  ///< file it came from, for error messages ("" = in memory)
};

// ---------------------------------------------------------------------------------------------
// Problem: validated, indexed, immutable.
// ---------------------------------------------------------------------------------------------

/// "job", "pickup", "delivery" (the VROOM names), "reload".
std::string_view to_string(TaskType type) noexcept;

/// One visit a vehicle can make: a job, or one half of a shipment.
struct Task {
  TaskType type = TaskType::Job;
  Id id = 0;                 ///< user id (job id, or the shipment step's id)
  std::size_t location = 0;  ///< matrix index
  std::optional<Coordinates> coords;
  Duration setup = 0;
  Duration service = 0;
  Amount
      delivery;   ///< dropped here (jobs: carried from the start; deliveries: the shipment amount)
  Amount pickup;  ///< loaded here (jobs: kept to the end; pickups: the shipment amount)
  std::vector<std::uint32_t> skills;  ///< sorted, unique
  int priority = 0;
  std::vector<TimeWindow> time_windows;  ///< sorted, disjoint, never empty
  std::size_t sibling = kNone;           ///< the other half of a shipment; kNone for jobs
  std::size_t source_index = 0;          ///< index in spec.jobs or spec.shipments
  std::string description;
};

struct Break {
  Id id = 0;
  std::vector<TimeWindow> time_windows;  ///< sorted, disjoint, never empty
  Duration service = 0;
  std::optional<Amount> max_load;
  std::string description;
};

/// A given step resolved: a task, or one of the vehicle's breaks (start and end are implied).
struct StepVisit {
  bool is_break = false;
  std::size_t index = 0;  ///< task index, or break index within the vehicle
  std::size_t step = 0;   ///< index in the vehicle's spec steps (for messages)
  bool fixed = false;     ///< in the vehicle's fixed prefix (VehicleStepSpec::fixed)
};

struct Vehicle {
  Id id = 0;
  std::size_t profile = 0;    ///< index into Problem::profile_names()
  std::size_t start = kNone;  ///< matrix index, or kNone
  std::size_t end = kNone;    ///< matrix index, or kNone
  std::optional<Coordinates> start_coords, end_coords;
  Amount capacity;  ///< always problem.dimensions() entries (unlimited = large value)
  std::vector<std::uint32_t> skills;  ///< sorted, unique
  TimeWindow time_window;
  std::vector<Break> breaks;  ///< in the order they must be taken
  std::size_t max_tasks = kNone;
  Duration max_travel_time = kMaxTime;
  Distance max_distance = kMaxTime;
  VehicleCosts costs;
  double speed_factor = 1.0;
  std::size_t travel =
      0;  ///< index into Problem::travel(): shared by vehicles of equal profile/speed/costs
  /// The given steps' tasks and breaks in order (their service_at / _after / _before are folded
  /// into the task's or break's time windows).
  std::vector<StepVisit> steps;
  /// How many of `steps` are the fixed start of the route (those up to the last step marked
  /// fixed); the others are a starting solution.
  std::size_t fixed_steps = 0;
  /// Multi-trip: the vehicle's reload tasks (task indices after every job and shipment; for each
  /// reload location, max_trips - 1 of them). Empty: a single trip.
  std::vector<std::size_t> reloads;
  std::size_t max_trips = 1;
  Duration reload_service = 0;
  Duration max_working_time = kMaxTime;
  std::string description;
};

class Problem {
 public:
  /// Validates and indexes a spec. Throws Error(InvalidInput) naming the JSON path and field
  /// (e.g. "jobs[3].time_windows[0]: start 50 is after end 10") prefixed by spec.source.
  /// The spec must have matrices: a spec with coordinates only gets them from a matrix provider
  /// first (routesolve/network/matrix_provider.hpp: fill_matrices); create() never builds them.
  static std::shared_ptr<const Problem> create(ProblemSpec spec);

  [[nodiscard]] const ProblemSpec& spec() const noexcept { return spec_; }
  [[nodiscard]] const std::vector<Task>& tasks() const noexcept { return tasks_; }
  [[nodiscard]] const std::vector<Vehicle>& vehicles() const noexcept { return vehicles_; }
  [[nodiscard]] const Task& task(std::size_t i) const { return tasks_[i]; }
  [[nodiscard]] const Vehicle& vehicle(std::size_t v) const { return vehicles_[v]; }
  [[nodiscard]] std::size_t dimensions() const noexcept { return dimensions_; }
  [[nodiscard]] std::size_t locations() const noexcept { return locations_; }
  [[nodiscard]] const std::vector<std::string>& profile_names() const noexcept {
    return profile_names_;
  }
  [[nodiscard]] bool has_distances() const noexcept { return has_distances_; }

  /// Travel data of vehicle v (durations divided by its speed factor, its cost per arc).
  [[nodiscard]] TravelView travel(std::size_t v) const;
  [[nodiscard]] std::size_t travel_count() const noexcept { return travel_.size(); }
  [[nodiscard]] TravelView travel_by_index(std::size_t t) const;
  /// The points whose rounded planar distances vehicle v's arc costs are (see PlanarSource), or
  /// null: only when its cost table is a matrix of the spec that its reader computed from points
  /// and nothing wrote since (not after a conversion: speed factor, cost per hour or per km).
  [[nodiscard]] const PlanarSource* planar_costs(std::size_t v) const;

  /// Internal cost units per output cost unit: reported cost = internal / cost_scale().
  [[nodiscard]] double cost_scale() const noexcept { return cost_scale_; }
  /// Fixed cost of using vehicle v, in internal cost units.
  [[nodiscard]] Cost fixed_cost(std::size_t v) const;
  /// The balance term (ProblemSpec::balance) for a longest route of `longest` internal time
  /// units, in internal cost units (rounded to the nearest unit); 0 without balance.
  [[nodiscard]] Cost balance_cost(Duration longest) const;
  /// The cost a route of vehicle v reports, in internal units: its fixed cost plus `arcs`, the
  /// exact cost of its arcs (of `travel` duration and `distance`), under ProblemSpec::route_costs.
  [[nodiscard]] Cost route_cost(std::size_t v, Duration travel, Distance distance, Cost arcs) const;
  /// True when route_cost() may differ from the fixed cost plus the arcs' (VROOM's rounding).
  [[nodiscard]] bool rounds_route_costs() const noexcept {
    return route_rounding_ != RouteRounding::None;
  }

  /// Task index of a job id, a pickup id or a delivery id; kNone if unknown.
  [[nodiscard]] std::size_t find_task(TaskType type, Id id) const;
  /// Vehicle index of a vehicle id; kNone if unknown.
  [[nodiscard]] std::size_t find_vehicle(Id id) const;

  /// True when some vehicle has given steps.
  [[nodiscard]] bool has_steps() const noexcept;
  /// True when some vehicle has reload locations (multi-trip).
  [[nodiscard]] bool has_reloads() const noexcept;
  /// Jobs and shipment halves: tasks()[0..routable_tasks()) (the reload tasks follow).
  [[nodiscard]] std::size_t routable_tasks() const noexcept { return routable_tasks_; }

  /// True when vehicle v has every skill task t requires.
  [[nodiscard]] bool compatible(std::size_t v, std::size_t t) const {
    return compatible_[compatible_row_[v]][t] != 0;
  }

  /// A copy whose location k is this problem's location order[k] (order: a permutation of
  /// 0..locations()-1): the same tasks, vehicles and ids in the same order, every arc the same
  /// value at the new indices, the spec's location indices renumbered and its matrices permuted
  /// (tables shared here stay shared). Nothing is validated again. A plan (task indices per
  /// vehicle) means the same in both; Step::location does not.
  [[nodiscard]] std::shared_ptr<const Problem> relocated(
      const std::vector<std::size_t>& order) const;

  struct TravelData {
    std::size_t profile = 0;
    double speed_factor = 1.0;
    Cost per_hour = 0, per_km = 0;
    std::size_t n = 0;
    /// The tables the views read: the problem's own matrices where they need no conversion
    /// (the spec is kept with the problem), else the converted copies below.
    TravelTable durations, distances, costs;
    std::vector<std::int64_t> own_durations, own_distances, own_costs;
  };

 private:
  friend struct ProblemBuilder;  // the steps of create() (core/src/problem_build.hpp)
  Problem() = default;
  ProblemSpec spec_;
  std::vector<Task> tasks_;
  std::vector<Vehicle> vehicles_;
  std::vector<std::string> profile_names_;
  std::vector<TravelData> travel_;
  std::vector<std::vector<char>> compatible_;  // [row][task], one row per distinct skill set
  std::vector<std::size_t> compatible_row_;    // [vehicle]: its row of compatible_
  std::map<std::pair<int, Id>, std::size_t> task_by_id_;
  std::map<Id, std::size_t> vehicle_by_id_;
  std::size_t dimensions_ = 0;
  std::size_t locations_ = 0;
  std::size_t routable_tasks_ = 0;
  bool has_distances_ = false;
  double cost_scale_ = 1.0;
  enum class RouteRounding : std::uint8_t { None, HalfUp, Down };
  RouteRounding route_rounding_ = RouteRounding::None;  // from spec.route_costs (derive_cost_units)
};

using ProblemPtr = std::shared_ptr<const Problem>;

}  // namespace routesolve
