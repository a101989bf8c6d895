#include "routesolve/search/precheck.hpp"

#include "routesolve/search/insertion.hpp"
#include "routesolve/search/search_state.hpp"

namespace routesolve::search {

std::vector<std::optional<UnassignedReason>> precheck_tasks(const Problem& problem,
                                                            const VehicleClasses& classes) {
  const std::size_t nt = problem.tasks().size();
  std::vector<std::optional<UnassignedReason>> verdict(nt);
  for (std::size_t t = 0; t < nt; ++t) {
    const Task& task = problem.task(t);
    if (task.type == TaskType::Delivery || task.type == TaskType::Reload)
      continue;  // with its pickup; optional
    std::vector<std::size_t> seq{t};
    if (task.sibling != kNone) seq.push_back(task.sibling);
    bool any_compatible = false;
    bool feasible = false;
    FailureTally tally;
    for (std::size_t c = 0; c < classes.count() && !feasible; ++c) {
      const std::size_t v = classes.members(c).front();
      bool compatible = problem.compatible(v, t);
      if (task.sibling != kNone) compatible = compatible && problem.compatible(v, task.sibling);
      if (!compatible) continue;
      any_compatible = true;
      const ScheduleResult result = schedule(problem, v, seq);
      if (result.feasible)
        feasible = true;
      else
        tally.add(result.violation.value_or(UnassignedReason::TimeWindow));
    }
    if (!any_compatible)
      verdict[t] = UnassignedReason::NoCompatibleVehicle;
    else if (!feasible)
      verdict[t] = tally.dominant();
    if (task.sibling != kNone) verdict[task.sibling] = verdict[t];
  }
  return verdict;
}

}  // namespace routesolve::search
