#pragma once
// Private to core/src: the steps of Problem::create.
//
// Validation names the JSON path of the first offending field ("jobs[3].time_windows[0]: ...").
// The steps run in a fixed order (problem.cpp), so the first error reported never depends on how
// the work is split between files:
//   problem_check.cpp     the Checker (path-naming checks), spec-wide checks: presence, scales,
//                         dimensions, matrix entries
//   problem_tasks.cpp     jobs, then each shipment's pickup and delivery, as Tasks
//   problem_vehicles.cpp  profiles, vehicles (capacities, skills, windows, breaks), compatibility
//   problem_costs.cpp     cost units (exact integer costs) and the per-combination travel tables
//   problem_steps.cpp     vehicles' given steps: ids, order, skills, service_at/after/before;
//                         the re-optimisation input (done, current_location, current_load)

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "routesolve/problem.hpp"

namespace routesolve {
namespace problem_build {

/// "base[i]".
std::string idx(std::string_view base, std::size_t i);

/// Path-naming checks; every failure throws Error(InvalidInput) prefixed by the spec's source.
class Checker {
 public:
  explicit Checker(const std::string& source) : source_(source) {}

  [[noreturn]] void fail(std::string_view path, std::string_view what) const;
  void non_negative(std::int64_t value, const std::string& path) const;
  void duration(Duration value, const std::string& path) const;
  void amount(const Amount& a, std::size_t dims, const std::string& path) const;
  /// Sorted, merged, never-empty time windows.
  std::vector<TimeWindow> windows(const std::vector<TimeWindow>& in, const std::string& path) const;
  /// A positive integer scale factor.
  std::int64_t scale(double value, const std::string& path) const;

 private:
  const std::string& source_;
};

std::vector<std::uint32_t> sorted_unique(std::vector<std::uint32_t> v);

/// `a` when it has `dims` entries, else `dims` copies of `fill`.
Amount filled(const Amount& a, std::size_t dims, std::int64_t fill);

inline bool mul_ok(std::int64_t a, std::int64_t b, std::int64_t& out) {
  return !__builtin_mul_overflow(a, b, &out);
}

}  // namespace problem_build

/// Builds one Problem from one spec; a friend of Problem. Each member function is one step of
/// Problem::create and may fail with the path of the offending field.
struct ProblemBuilder {
  ProblemBuilder(const ProblemSpec& s, Problem& p) : spec(s), pr(p), check(s.source) {}

  // problem_check.cpp
  void check_presence_and_scales();
  void read_dimensions();
  void check_matrices() const;
  // problem_vehicles.cpp
  void index_profiles();
  // problem_tasks.cpp
  void add_jobs();
  void add_shipments();
  // problem_vehicles.cpp
  void add_vehicles();
  void add_reloads(const VehicleSpec& vs, const std::string& base, Vehicle& veh);
  static constexpr std::size_t kMaxReloadLocations = 64;
  // problem_costs.cpp
  void derive_cost_units();
  void derive_route_rounding();
  void fill_travel_tables();
  // problem_vehicles.cpp
  void fill_compatibility();
  // problem_steps.cpp
  void add_steps();
  void check_dispatch_state();

  /// Matrix index of a location; fails when it has none or is out of range.
  [[nodiscard]] std::size_t location(const LocationSpec& loc, const std::string& path) const;

  const ProblemSpec& spec;
  Problem& pr;
  const problem_build::Checker check;

  std::int64_t scale_time = 1, scale_distance = 1, scale_cost = 1;
  std::size_t dims = 0;
  std::map<std::string, std::size_t>
      profile_index;             ///< profiles used by vehicles, in order of first use
  std::size_t min_size = kNone;  ///< locations every used profile has

  /// Per travel combination: coefficients of duration, distance and matrix cost, in cost units.
  struct Coef {
    std::int64_t hour = 0, km = 0, matrix = 0;
  };
  std::vector<Coef> coefs;
};

}  // namespace routesolve
