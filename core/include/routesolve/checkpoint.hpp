#pragma once
// The state of a long solve, as a checkpoint: enough to resume the search from its best plan
// with what is left of the time budget. Backends hand one to SolveOptions::on_checkpoint from
// time to time; SolveOptions::resume takes one back. The file format (version, CRC-32,
// atomic writes) lives in routesolve/io/checkpoint.hpp; this is the plain data and its checks.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "routesolve/problem.hpp"

namespace routesolve {

enum class Objective;

/// The best plan's objective terms, compared lexicographically like the search does: priority
/// of the unassigned tasks, their number, (routes, with vehicles-then-cost), then cost.
struct CheckpointScore {
  std::int64_t priority_lost = 0;
  std::uint64_t unassigned =
      0;  ///< unassigned jobs and shipments (pickups), hopeless ones included
  std::uint64_t routes = 0;
  Cost cost = 0;  ///< internal cost units, fixed costs included
  friend bool operator==(const CheckpointScore&, const CheckpointScore&) = default;
};

/// True when a is strictly better than b under the objective.
bool better(const CheckpointScore& a, const CheckpointScore& b, Objective objective);

struct SolveCheckpoint {
  std::uint64_t fingerprint = 0;  ///< problem_fingerprint() of the problem being solved
  std::uint64_t seed = 1;
  std::uint32_t threads = 1;
  Objective objective{};
  double time_limit_s = 0.0;     ///< the solve's whole budget (0 = a fixed amount of work)
  double elapsed_s = 0.0;        ///< time spent so far, over every run that led to this state
  std::uint64_t iterations = 0;  ///< search iterations so far (all threads, all runs)
  CheckpointScore score;         ///< of the best plan
  /// The best plan: per vehicle (problem order) its task indices in visiting order.
  std::vector<std::vector<std::size_t>> routes;
  /// Task indices (jobs and shipment pickups) not in any route, sorted.
  std::vector<std::size_t> unassigned;
  std::string source;  ///< file it came from, for error messages ("" = in memory)
};

/// A 64-bit hash of everything a validated problem's solutions depend on: tasks, vehicles,
/// and the travel tables (durations, distances, costs per vehicle travel). Reads every matrix
/// once (about 0.5 s for 10,000 locations).
std::uint64_t problem_fingerprint(const Problem& problem);

/// Checks that a checkpoint belongs to this problem and is structurally sound: same fingerprint,
/// one route per vehicle, task indices in range, each task at most once, shipments whole and in
/// order on one route, unassigned = the rest. Throws Error(InvalidInput) naming
/// checkpoint.source and the field.
void check_checkpoint(const Problem& problem, const SolveCheckpoint& checkpoint);

}  // namespace routesolve
