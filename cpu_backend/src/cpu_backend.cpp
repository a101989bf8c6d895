// The reference CPU backend. Top loop:
//   1. pre-check every task alone (reasons for the hopeless ones);
//   2. construction by regret insertion, higher priorities first;
//   3. descent (relocate, pair relocate, swap, 2-opt, 2-opt*, reinsertion of unassigned tasks);
//   4. every route scheduled by core, the solution assembled by core's make_solution.
// `threads` is accepted but unused: this solver is sequential (the multi-threaded search comes
// with the state-of-the-art optimizer).

#include "routesolve/cpu/cpu_backend.hpp"

#include <algorithm>
#include <map>
#include <random>

#include "local_search.hpp"
#include "neighbours.hpp"
#include "precheck.hpp"
#include "regret_insertion.hpp"
#include "routesolve/error.hpp"
#include "search_control.hpp"
#include "search_state.hpp"
#include "vehicle_classes.hpp"

namespace routesolve::cpu {

namespace {

using namespace detail;

constexpr std::size_t kNeighbours = 30;

class CpuBackend final : public Backend {
 public:
  [[nodiscard]] std::string_view name() const noexcept override { return "cpu"; }
  Solution solve(const Problem& problem, const SolveOptions& options) override;
};

void report(const SolveOptions& options, const Deadline& deadline, const SearchState& state,
            std::size_t unassigned_fixed, double fraction) {
  if (!options.on_progress) return;
  Progress p;
  p.elapsed_s = deadline.elapsed();
  p.fraction = options.time_limit_s > 0 ? std::min(1.0, p.elapsed_s / options.time_limit_s) : fraction;
  p.best_cost = state.total_cost();
  p.best_routes = state.used_routes();
  std::size_t unassigned = unassigned_fixed;
  for (std::size_t t = 0; t < state.problem().tasks().size(); ++t)
    if (!state.assigned(t) && state.problem().task(t).type != TaskType::Delivery) ++unassigned;
  p.unassigned = unassigned;
  options.on_progress(p);
}

Solution CpuBackend::solve(const Problem& problem, const SolveOptions& options) {
  Deadline deadline(options.time_limit_s, options.stop);
  const VehicleClasses classes(problem);
  SearchState state(problem);

  // ---- 1. pre-check ------------------------------------------------------------------------
  const auto verdict = precheck_tasks(problem, classes);
  std::vector<std::size_t> insertable;
  std::map<std::size_t, UnassignedReason> reasons;  // task -> reason, for the unrouted
  std::size_t hopeless = 0;
  for (std::size_t t = 0; t < problem.tasks().size(); ++t) {
    if (problem.task(t).type == TaskType::Delivery) continue;
    if (verdict[t]) {
      reasons[t] = *verdict[t];
      ++hopeless;
    } else {
      insertable.push_back(t);
    }
  }

  // ---- 2. construction ---------------------------------------------------------------------
  RegretInsertion construction(state, classes, deadline, 3);
  for (const auto& [t, reason] : construction.run(insertable)) reasons[t] = reason;
  const double construction_s = deadline.elapsed();
  report(options, deadline, state, hopeless, 0.5);

  // ---- 3. descent --------------------------------------------------------------------------
  std::mt19937_64 rng(options.seed);
  if (!deadline.expired()) {
    const Neighbours neighbours(problem, kNeighbours);
    LocalSearch search(state, neighbours, classes, options.objective, deadline, rng, insertable);
    search.run([&] { report(options, deadline, state, hopeless, 0.75); });
    for (const auto& [t, reason] : search.left_out()) reasons[t] = reason;
  }
  const double search_s = deadline.elapsed() - construction_s;

  // ---- 4. output ---------------------------------------------------------------------------
  std::vector<Route> routes;
  for (std::size_t v = 0; v < state.vehicle_count(); ++v) {
    const auto& tasks = state.route(v).tasks;
    if (tasks.empty()) continue;
    ScheduleResult result = schedule(problem, v, tasks);
    if (!result.feasible)
      throw Error(ErrorCode::Internal, "cpu backend: route of vehicle " + std::to_string(problem.vehicle(v).id) +
                                           " is infeasible for schedule_route");
    routes.push_back(std::move(result.route));
  }
  std::vector<Unassigned> unassigned;
  for (std::size_t t = 0; t < problem.tasks().size(); ++t) {
    if (state.assigned(t)) continue;
    const Task& task = problem.task(t);
    const std::size_t key = task.type == TaskType::Delivery ? task.sibling : t;
    const auto it = reasons.find(key);
    Unassigned u;
    u.task = t;
    u.id = task.id;
    u.type = task.type;
    u.reason = it != reasons.end() ? it->second : UnassignedReason::NotRouted;
    unassigned.push_back(u);
  }
  Solution solution = make_solution(problem, std::move(routes), std::move(unassigned));
  solution.profile = {{"construction", construction_s}, {"local_search", search_s}};
  solution.backend = "cpu";
  report(options, deadline, state, hopeless, 1.0);
  return solution;
}

}  // namespace

std::unique_ptr<Backend> make_cpu_backend() { return std::make_unique<CpuBackend>(); }

}  // namespace routesolve::cpu
