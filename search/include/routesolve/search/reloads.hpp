#pragma once
// Multi-trip vehicles in the search: their reloads are tasks of the tour (Problem: one reload
// task per possible reload, owned by its vehicle), priced by the segment layer like any visit
// (a reload's load segment ends one trip and begins the next, hd/segment.hpp). The recreate and
// the descents move them like tasks; this pass decides how many there are:
//  - a reload is taken out when the tour stays feasible and no dearer without it;
//  - an unassigned task goes into a multi-trip tour as it is where it fits (a reload placed
//    before may have made room), else with a new reload where one makes room: the cheapest (reload
//    gap, task gap) pair of a multi-trip tour, priced in O(1) per pair from the tour's prefix and
//    suffix segments (O(n^2) per tour).

#include <cstddef>
#include <vector>

#include "routesolve/search/working_solution.hpp"

namespace routesolve::search {

class ReloadRepair {
 public:
  explicit ReloadRepair(const Problem& problem);
  /// True when some vehicle has reloads (otherwise run() does nothing).
  [[nodiscard]] bool active() const noexcept { return !vehicles_.empty(); }
  /// Takes useless reloads out, then places unassigned tasks with new reloads where they make
  /// room (at most `max_tasks` tasks tried). Only tours in the solution's region change.
  void run(WorkingSolution& solution, std::size_t max_tasks = 64) const;

 private:
  bool drop_useless(WorkingSolution& s, std::size_t v) const;
  bool place(WorkingSolution& s, std::size_t task) const;
  std::vector<std::size_t> vehicles_;  // the multi-trip vehicles
};

}  // namespace routesolve::search
