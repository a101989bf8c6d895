#pragma once
// Very large single problems over MPI ranks (`routesolve solve --decompose`, docs/SCALING.md):
// every rank searches the whole problem from its own seed and the best plan is kept; then, for a
// number of rounds, the plan is cut into groups of nearby routes (polar sectors of the routes'
// barycentres around the depots' centre, and k-means on the barycentres in alternate rounds, with
// Eigen), each rank improves its groups as subproblems with the library's solve, warm-started from
// the group's routes (a SolveCheckpoint: the search resumes from the plan and returns one no
// worse), the improved groups are merged (groups share no vehicle and no task, so every objective
// term adds up) and the merged plan goes to every rank. Deterministic for (seed, ranks) with an
// iterations budget; valid and never worse than the first plan.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "routesolve/backend.hpp"
#include "routesolve/checkpoint.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"

namespace routesolve::distributed {

struct DecomposeOptions {
  unsigned rounds = 3;                ///< decomposition rounds after the first search
  std::size_t tasks_per_group = 200;  ///< about this many tasks per subproblem (groups >= ranks)
  double warm_fraction =
      0.5;  ///< share of a subproblem's annealing the warm plan counts as done (< 1)
  double first_share = 0.4;  ///< with a time limit: share of it for the first whole-problem search
};

/// A plan: per vehicle its task indices in visiting order (jobs, pickups and deliveries).
using Plan = std::vector<std::vector<std::size_t>>;

/// Groups of vehicles for one round: each vehicle with a route in exactly one group; vehicles
/// without a route spread over the groups round-robin. Groups are ordered and sorted.
std::vector<std::vector<std::size_t>> group_routes(const Problem& problem, const Plan& plan,
                                                   std::size_t groups, unsigned round);

/// The subproblem of one group: its vehicles, the tasks on their routes and `extra` tasks
/// (unassigned ones; shipments given by their pickup), matrices cut to their locations.
struct Subproblem {
  ProblemPtr problem;
  std::vector<std::size_t> vehicle_of;  ///< sub vehicle -> vehicle
  std::vector<std::size_t> task_of;     ///< sub task -> task
};
Subproblem make_subproblem(const Problem& problem, const Plan& plan,
                           const std::vector<std::size_t>& vehicles,
                           const std::vector<std::size_t>& extra);

/// The plan's score as the search ranks it (every route scheduled; throws Error(Internal) when a
/// route is infeasible).
CheckpointScore plan_score(const Problem& problem, const Plan& plan);

/// The routes of a solution as a plan.
Plan plan_of(const Problem& problem, const Solution& solution);

/// Collective over every rank: the decomposed solve. Rank 0 returns the solution (validated by
/// the caller like any other); other ranks return an empty one.
Solution decompose_solve(const Problem& problem, const SolveOptions& options,
                         const DecomposeOptions& decompose = {});

}  // namespace routesolve::distributed
