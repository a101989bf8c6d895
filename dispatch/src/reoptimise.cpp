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
#include "routesolve/search/solve.hpp"
#include "routesolve/solve.hpp"

namespace routesolve {
namespace {

VehicleStepType step_type(TaskType t) {
  return t == TaskType::Job      ? VehicleStepType::Job
         : t == TaskType::Pickup ? VehicleStepType::Pickup
                                 : VehicleStepType::Delivery;
}

/// The rest's warm plan: each vehicle's unfrozen plan tasks in plan order, cut from the end until
/// the route is feasible on the rest (a shipment leaves whole); the checkpoint the search resumes.
std::shared_ptr<SolveCheckpoint> warm_start(const Problem& problem, const StepSplit& split,
                                            const Problem& rest,
                                            const std::vector<std::vector<std::size_t>>& later,
                                            const ReoptimiseOptions& ro, const SolveOptions& so) {
  const std::vector<std::vector<std::size_t>> mapped = rest_routes(problem, split, rest, later);
  auto cp = std::make_shared<SolveCheckpoint>();
  cp->fingerprint = problem_fingerprint(rest);
  cp->seed = so.seed;
  cp->threads = std::max(1u, so.threads);
  cp->objective = so.objective;
  cp->time_limit_s = so.time_limit_s;
  cp->routes.resize(rest.vehicles().size());
  std::vector<char> placed(rest.tasks().size(), 0);
  for (std::size_t v = 0; v < later.size() && v < rest.vehicles().size(); ++v) {
    std::vector<std::size_t> tasks = mapped[v];
    // Shipments whole: a half whose partner is not on this list goes.
    std::erase_if(tasks, [&](std::size_t rt) {
      const std::size_t sib = rest.task(rt).sibling;
      return sib != kNone && std::find(tasks.begin(), tasks.end(), sib) == tasks.end();
    });
    while (!tasks.empty() && !schedule_route(rest, v, tasks).feasible) {
      const std::size_t last = tasks.back();
      std::erase_if(tasks,
                    [&](std::size_t rt) { return rt == last || rt == rest.task(last).sibling; });
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
    // The warm start resumes on the cpu backend, whose engine sets no chain count of its own.
    const auto work = static_cast<double>(search::fixed_work(so, search::Engine{}));
    cp->iterations = static_cast<std::uint64_t>(fraction * work);
  }
  return cp;
}

/// Where the problem's `done` list ends on each plan route (the step index of its last listed
/// task, kNone when it lists none there) and which vehicles have a plan route. Throws
/// Error(InvalidInput) naming done[k] for a task on no route of the plan.
struct DoneState {
  std::vector<std::size_t> last_done;
  std::vector<char> routed;
};

DoneState done_state(const Problem& problem, const Solution& plan) {
  DoneState out;
  out.last_done.assign(problem.vehicles().size(), kNone);
  out.routed.assign(problem.vehicles().size(), 0);
  std::vector<char> listed(problem.tasks().size(), 0), seen(problem.tasks().size(), 0);
  for (const TaskRef& ref : problem.spec().done) listed[problem.find_task(ref.type, ref.id)] = 1;
  for (const Route& r : plan.routes) {
    if (r.vehicle >= problem.vehicles().size()) continue;
    out.routed[r.vehicle] = 1;
    for (std::size_t k = 0; k < r.steps.size(); ++k) {
      const std::size_t t = r.steps[k].task;
      if (r.steps[k].type == StepType::Break || r.steps[k].type == StepType::Start || t == kNone)
        continue;
      seen[t] = 1;
      if (listed[t]) out.last_done[r.vehicle] = k;
    }
  }
  const auto& done = problem.spec().done;
  for (std::size_t k = 0; k < done.size(); ++k)
    if (!seen[problem.find_task(done[k].type, done[k].id)])
      throw invalid_input("done[" + std::to_string(k) + "]", std::string(to_string(done[k].type)) +
                                                                 " " + std::to_string(done[k].id) +
                                                                 " is on no route of the plan");
  return out;
}

/// What a vehicle whose position is given has done: tasks and breaks, its last place, and the
/// plan's travel and distance up to there.
struct History {
  std::size_t tasks = 0;
  std::vector<Id> breaks;
  std::size_t last = kNone;
  Duration travel = 0;
  Distance distance = 0;

  void take(const Problem& problem, const Step& st, std::vector<char>& removed) {
    travel = st.duration;
    distance = st.distance;
    if (st.type == StepType::Break) {
      breaks.push_back(st.id);
      return;
    }
    removed[st.task] = 1;
    last = problem.task(st.task).location;
    ++tasks;
  }
};

/// Vehicle v goes on from where it is (its current_location, else the last place it served) no
/// earlier than now, its breaks taken and its limits less what it used; its current_load takes
/// room for the whole route.
void move_on(const Problem& problem, std::size_t v, const History& history, Duration now,
             VehicleSpec& vs) {
  const VehicleSpec& given = problem.spec().vehicles[v];
  const std::string base = "vehicles[" + std::to_string(v) + "]";
  if (given.current_location) {
    vs.start = given.current_location;
  } else if (history.last != kNone) {
    vs.start = LocationSpec{history.last, std::nullopt};
  }
  const Duration begin = std::max(vs.time_window.start, now);
  if (begin > vs.time_window.end)
    throw invalid_input(base + (given.current_location ? ".current_location" : ".current_load"),
                        "the vehicle's shift (time_window) ends at " +
                            std::to_string(vs.time_window.end) + ", before now (" +
                            std::to_string(now) + ")");
  if (vs.max_working_time)
    *vs.max_working_time -= std::min(*vs.max_working_time, begin - vs.time_window.start);
  vs.time_window.start = begin;
  for (Id b : history.breaks)
    std::erase_if(vs.breaks, [&](const BreakSpec& x) { return x.id == b; });
  if (history.tasks > 0) {
    vs.costs.fixed = 0;  // the vehicle is used anyway
    if (vs.max_tasks) *vs.max_tasks -= std::min(*vs.max_tasks, history.tasks);
  }
  if (vs.max_travel_time) *vs.max_travel_time -= std::min(*vs.max_travel_time, history.travel);
  if (vs.max_distance) *vs.max_distance -= std::min(*vs.max_distance, history.distance);
  if (given.current_load && !vs.capacity.empty())
    for (std::size_t d = 0; d < vs.capacity.size() && d < given.current_load->size(); ++d)
      vs.capacity[d] -= (*given.current_load)[d];
}

/// The tasks done by vehicles whose position is given leave the problem. A shipment picked up and
/// not yet delivered there cannot (its load rides with the vehicle): Error(InvalidInput).
void remove_done(const Problem& problem, const std::vector<char>& removed, ProblemSpec& spec) {
  std::vector<char> drop_job(spec.jobs.size(), 0), drop_shipment(spec.shipments.size(), 0);
  for (std::size_t t = 0; t < problem.routable_tasks(); ++t) {
    if (!removed[t]) continue;
    const Task& task = problem.task(t);
    if (task.type == TaskType::Job) {
      drop_job[task.source_index] = 1;
    } else if (task.type == TaskType::Pickup) {
      if (!removed[task.sibling])
        throw invalid_input(
            "done", "pickup " + std::to_string(task.id) +
                        " is done and its delivery not, by a vehicle whose current_location or "
                        "current_load is given: not supported (give no position for that vehicle: "
                        "its plan steps then stand for it)");
      drop_shipment[task.source_index] = 1;
    }
  }
  std::size_t j = 0, s = 0;
  std::erase_if(spec.jobs, [&](const JobSpec&) { return drop_job[j++] != 0; });
  std::erase_if(spec.shipments, [&](const ShipmentSpec&) { return drop_shipment[s++] != 0; });
}

}  // namespace

Reoptimised reoptimise(const Problem& problem, const Solution& plan, const ReoptimiseOptions& ro,
                       const SolveOptions& so) {
  if (problem.has_steps())
    throw Error(ErrorCode::InvalidInput,
                "reoptimise: the problem already has vehicle steps; the plan gives them");
  Reoptimised out;
  const ProblemSpec& given = problem.spec();
  ProblemSpec spec = given;
  spec.done.clear();
  for (VehicleSpec& vs : spec.vehicles) {
    vs.current_location.reset();
    vs.current_load.reset();
  }
  const DoneState state = done_state(problem, plan);
  const Duration frozen_until = ro.now + ro.frozen_horizon;
  std::vector<std::vector<std::size_t>> later(problem.vehicles().size());  // unfrozen plan tasks
  std::vector<std::size_t> planned_on(problem.tasks().size(), kNone);
  std::vector<char> removed(problem.tasks().size(),
                            0);  // done by a vehicle whose position is given
  bool positioned_any = false;
  for (const Route& r : plan.routes) {
    if (r.vehicle >= problem.vehicles().size()) continue;
    const Vehicle& veh = problem.vehicle(r.vehicle);
    const VehicleSpec& gv = given.vehicles[r.vehicle];
    VehicleSpec& vs = spec.vehicles[r.vehicle];
    const bool positioned = gv.current_location || gv.current_load;
    positioned_any = positioned_any || positioned;
    const std::size_t last_done = state.last_done[r.vehicle];
    History history;
    bool frozen = true;
    std::size_t breaks = 0;
    for (std::size_t k = 0; k < r.steps.size(); ++k) {
      const Step& st = r.steps[k];
      if (st.type == StepType::Start || st.type == StepType::End) continue;
      if (st.type != StepType::Break && st.task == kNone) {
        ++out.cancelled;
        continue;
      }
      // Done: up to the last task the problem lists as done; without a list, for a vehicle whose
      // position is given, what the plan reached before now.
      const bool done = (last_done != kNone && k <= last_done) ||
                        (given.done.empty() && positioned && st.arrival < ro.now);
      if (positioned &&
          done) {  // history: out of the problem, the vehicle goes on from its position
        history.take(problem, st, removed);
        if (st.type == StepType::Break) ++breaks;
        continue;
      }
      frozen = frozen && (done || st.arrival < frozen_until);
      if (st.type == StepType::Break) {
        // Only the vehicle's next break in order can be frozen.
        if (frozen && breaks < veh.breaks.size() && veh.breaks[breaks].id == st.id) {
          vs.steps.push_back({VehicleStepType::Break, st.id, {}, {}, {}, true});  // frozen: fixed
          ++breaks;
          ++out.frozen_steps;
        } else {
          frozen = false;
        }
        continue;
      }
      planned_on[st.task] = r.vehicle;
      if (frozen) {
        vs.steps.push_back({step_type(problem.task(st.task).type), st.id, {}, {}, {}, true});
        ++out.frozen_steps;
      } else {
        later[r.vehicle].push_back(st.task);
      }
    }
    // Breaks alone are not frozen: a vehicle with no frozen task has not set out on its route,
    // and a route without tasks is no route (its breaks would vanish with it when the search
    // gives the vehicle nothing), so its breaks are placed again with the rest.
    if (std::none_of(vs.steps.begin(), vs.steps.end(),
                     [](const VehicleStepSpec& x) { return x.type != VehicleStepType::Break; })) {
      out.frozen_steps -= vs.steps.size();
      vs.steps.clear();
    }
    if (positioned) move_on(problem, r.vehicle, history, ro.now, vs);
    out.done += history.tasks;
  }
  for (std::size_t v = 0; v < problem.vehicles().size();
       ++v)  // positioned vehicles without a route
    if (!state.routed[v] &&
        (given.vehicles[v].current_location || given.vehicles[v].current_load)) {
      positioned_any = true;
      move_on(problem, v, History{}, ro.now, spec.vehicles[v]);
    }
  remove_done(problem, removed, spec);
  // A delivery frozen without its pickup cannot be (a prefix keeps the pickup); a pickup frozen
  // alone leaves the delivery to the same vehicle (fixed_steps.hpp).
  const ProblemPtr fixed = Problem::create(std::move(spec));
  // The plan's tasks in the new problem's indices (the same ones unless tasks were removed).
  auto to_fixed = [&](std::size_t t) {
    return fixed->find_task(problem.task(t).type, problem.task(t).id);
  };
  std::vector<std::size_t> fixed_planned_on(fixed->tasks().size(), kNone);
  for (std::size_t t = 0; t < planned_on.size(); ++t)
    if (planned_on[t] != kNone && !removed[t]) fixed_planned_on[to_fixed(t)] = planned_on[t];
  for (auto& tasks : later)
    for (std::size_t& t : tasks) t = to_fixed(t);
  const StepSplit split = split_steps(*fixed);
  const ProblemPtr rest = Problem::create(split.rest);
  SolveOptions options = so;
  // The warm start resumes the search from a plan: the cpu backend's (auto picks it).
  const bool warm = ro.warm && (so.backend == BackendKind::Cpu || so.backend == BackendKind::Auto);
  if (warm) options.resume = warm_start(*fixed, split, *rest, later, ro, so);
  options.timeline = Timeline::Earliest;  // only the rest's order is used
  out.solution =
      join_steps(*fixed, split, *rest, solve(*rest, options), chosen_timeline(*fixed, so));
  for (const Route& r : out.solution.routes)
    for (const Step& st : r.steps)
      if (st.task != kNone && fixed_planned_on[st.task] != kNone &&
          fixed_planned_on[st.task] != r.vehicle && fixed->task(st.task).type != TaskType::Delivery)
        ++out.moved;
  for (const Unassigned& u : out.solution.unassigned)
    if (fixed_planned_on[u.task] != kNone && fixed->task(u.task).type != TaskType::Delivery)
      ++out.moved;
  if (positioned_any) out.problem = fixed;
  return out;
}

}  // namespace routesolve
