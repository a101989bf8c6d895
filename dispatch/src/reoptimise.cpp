// Re-optimisation of a day under way (routesolve/reoptimise.hpp): frozen steps as given steps,
// the rest solved from a warm start built from the plan.

#include "routesolve/reoptimise.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "routesolve/checkpoint.hpp"
#include "routesolve/error.hpp"
#include "routesolve/fixed_steps.hpp"
#include "routesolve/solve.hpp"

namespace routesolve {
namespace {

VehicleStepType step_type(TaskType t) {
  return t == TaskType::Job ? VehicleStepType::Job : t == TaskType::Pickup ? VehicleStepType::Pickup : VehicleStepType::Delivery;
}

/// The rest's warm plan: each vehicle's unfrozen plan tasks in plan order, cut from the end until
/// the route is feasible on the rest (a shipment leaves whole); the checkpoint the search resumes.
std::shared_ptr<SolveCheckpoint> warm_start(const Problem& problem, const StepSplit& split, const Problem& rest,
                                            const std::vector<std::vector<std::size_t>>& later,
                                            const ReoptimiseOptions& ro, const SolveOptions& so) {
  std::vector<std::size_t> to_rest(problem.tasks().size(), kNone);
  for (std::size_t rt = 0; rt < rest.tasks().size(); ++rt) {
    const Task& t = rest.task(rt);
    if (t.type == TaskType::Job) {
      to_rest[split.jobs_origin[t.source_index]] = rt;
    } else {
      const std::size_t pickup = split.shipments_origin[t.source_index];
      to_rest[t.type == TaskType::Pickup ? pickup : problem.task(pickup).sibling] = rt;
    }
  }
  auto cp = std::make_shared<SolveCheckpoint>();
  cp->fingerprint = problem_fingerprint(rest);
  cp->seed = so.seed;
  cp->threads = std::max(1u, so.threads);
  cp->objective = so.objective;
  cp->time_limit_s = so.time_limit_s;
  cp->routes.resize(rest.vehicles().size());
  std::vector<char> placed(rest.tasks().size(), 0);
  for (std::size_t v = 0; v < later.size() && v < rest.vehicles().size(); ++v) {
    std::vector<std::size_t> tasks;
    for (std::size_t t : later[v])
      if (to_rest[t] != kNone) tasks.push_back(to_rest[t]);
    // Shipments whole: a half whose partner is not on this list goes.
    std::erase_if(tasks, [&](std::size_t rt) {
      const std::size_t sib = rest.task(rt).sibling;
      return sib != kNone && std::find(tasks.begin(), tasks.end(), sib) == tasks.end();
    });
    while (!tasks.empty() && !schedule_route(rest, v, tasks).feasible) {
      const std::size_t last = tasks.back();
      std::erase_if(tasks, [&](std::size_t rt) { return rt == last || rt == rest.task(last).sibling; });
    }
    for (std::size_t rt : tasks) placed[rt] = 1;
    cp->routes[v] = std::move(tasks);
  }
  for (std::size_t rt = 0; rt < rest.tasks().size(); ++rt)
    if (!placed[rt] && rest.task(rt).type != TaskType::Delivery) cp->unassigned.push_back(rt);
  // Late in the cooling: the plan counts as the work already done.
  const double fraction = std::clamp(ro.warm_fraction, 0.0, 0.99);
  if (so.time_limit_s > 0) {
    cp->elapsed_s = fraction * so.time_limit_s;
  } else {
    const double per_chain = static_cast<double>(so.iterations > 0 ? so.iterations : 1000);
    const double chains = static_cast<double>(std::max(1u, so.chains > 0 ? so.chains : so.threads));
    cp->iterations = static_cast<std::uint64_t>(fraction * per_chain * chains);
  }
  return cp;
}

}  // namespace

Reoptimised reoptimise(const Problem& problem, const Solution& plan, const ReoptimiseOptions& ro,
                       const SolveOptions& so) {
  if (problem.has_steps())
    throw Error(ErrorCode::InvalidInput, "reoptimise: the problem already has vehicle steps; the plan gives them");
  Reoptimised out;
  ProblemSpec spec = problem.spec();
  const Duration frozen_until = ro.now + ro.frozen_horizon;
  std::vector<std::vector<std::size_t>> later(problem.vehicles().size());  // unfrozen plan tasks
  std::vector<std::size_t> planned_on(problem.tasks().size(), kNone);
  for (const Route& r : plan.routes) {
    if (r.vehicle >= problem.vehicles().size()) continue;
    const Vehicle& veh = problem.vehicle(r.vehicle);
    VehicleSpec& vs = spec.vehicles[r.vehicle];
    bool frozen = true;
    std::size_t breaks = 0;
    for (const Step& st : r.steps) {
      if (st.type == StepType::Start || st.type == StepType::End) continue;
      if (st.type != StepType::Break && st.task == kNone) {
        ++out.cancelled;
        continue;
      }
      frozen = frozen && st.arrival < frozen_until;
      if (st.type == StepType::Break) {
        // Only the vehicle's next break in order can be frozen.
        if (frozen && breaks < veh.breaks.size() && veh.breaks[breaks].id == st.id) {
          vs.steps.push_back({VehicleStepType::Break, st.id, {}, {}, {}});
          ++breaks;
          ++out.frozen_steps;
        } else {
          frozen = false;
        }
        continue;
      }
      planned_on[st.task] = r.vehicle;
      if (frozen) {
        vs.steps.push_back({step_type(problem.task(st.task).type), st.id, {}, {}, {}});
        ++out.frozen_steps;
      } else {
        later[r.vehicle].push_back(st.task);
      }
    }
  }
  // A delivery frozen without its pickup cannot be (a prefix keeps the pickup); a pickup frozen
  // alone leaves the delivery to the same vehicle (fixed_steps.hpp).
  const ProblemPtr fixed = Problem::create(std::move(spec));
  const StepSplit split = split_steps(*fixed);
  const ProblemPtr rest = Problem::create(split.rest);
  SolveOptions options = so;
  // The warm start resumes the search from a plan: the cpu backend's (auto picks it).
  const bool warm = ro.warm && (so.backend == BackendKind::Cpu || so.backend == BackendKind::Auto);
  if (warm) options.resume = warm_start(*fixed, split, *rest, later, ro, so);
  out.solution = join_steps(*fixed, split, *rest, solve(*rest, options));
  for (const Route& r : out.solution.routes)
    for (const Step& st : r.steps)
      if (st.task != kNone && planned_on[st.task] != kNone && planned_on[st.task] != r.vehicle &&
          problem.task(st.task).type != TaskType::Delivery)
        ++out.moved;
  for (const Unassigned& u : out.solution.unassigned)
    if (planned_on[u.task] != kNone && problem.task(u.task).type != TaskType::Delivery) ++out.moved;
  return out;
}

}  // namespace routesolve
