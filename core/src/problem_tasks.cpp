// Problem::create, tasks: jobs first, then each shipment as a pickup followed by its delivery.
// Ids are unique per kind (job, pickup, delivery); amounts are filled to the problem's dimensions.

#include <set>
#include <string>
#include <utility>

#include "problem_build.hpp"

namespace routesolve {

using problem_build::filled;
using problem_build::idx;
using problem_build::sorted_unique;

std::size_t ProblemBuilder::location(const LocationSpec& loc, const std::string& path) const {
  if (!loc.index) check.fail(path, "has no location index");
  if (*loc.index >= min_size)
    check.fail(path, "location index " + std::to_string(*loc.index) +
                         " is out of range (matrices have " + std::to_string(min_size) +
                         " locations)");
  return *loc.index;
}

void ProblemBuilder::add_jobs() {
  std::set<Id> seen;
  for (std::size_t i = 0; i < spec.jobs.size(); ++i) {
    const JobSpec& j = spec.jobs[i];
    const std::string base = idx("jobs", i);
    if (!seen.insert(j.id).second)
      check.fail(base + ".id", "duplicate job id " + std::to_string(j.id));
    Task t;
    t.type = TaskType::Job;
    t.id = j.id;
    t.location = location(j.location, base + ".location");
    t.coords = j.location.coords;
    check.duration(j.setup, base + ".setup");
    check.duration(j.service, base + ".service");
    t.setup = j.setup;
    t.service = j.service;
    check.amount(j.delivery, dims, base + ".delivery");
    check.amount(j.pickup, dims, base + ".pickup");
    t.delivery = filled(j.delivery, dims, 0);
    t.pickup = filled(j.pickup, dims, 0);
    t.skills = sorted_unique(j.skills);
    if (j.priority < 0 || j.priority > 100)
      check.fail(base + ".priority",
                 "must be in 0..100 (found " + std::to_string(j.priority) + ")");
    t.priority = j.priority;
    t.time_windows = check.windows(j.time_windows, base + ".time_windows");
    t.source_index = i;
    t.description = j.description;
    pr.task_by_id_[{static_cast<int>(TaskType::Job), t.id}] = pr.tasks_.size();
    pr.tasks_.push_back(std::move(t));
  }
}

void ProblemBuilder::add_shipments() {
  std::set<Id> seen_pickups, seen_deliveries;
  for (std::size_t i = 0; i < spec.shipments.size(); ++i) {
    const ShipmentSpec& s = spec.shipments[i];
    const std::string base = idx("shipments", i);
    check.amount(s.amount, dims, base + ".amount");
    if (s.priority < 0 || s.priority > 100)
      check.fail(base + ".priority",
                 "must be in 0..100 (found " + std::to_string(s.priority) + ")");
    const std::size_t pickup_index = pr.tasks_.size();
    for (int half = 0; half < 2; ++half) {
      const ShipmentStepSpec& step = half == 0 ? s.pickup : s.delivery;
      const std::string sbase = base + (half == 0 ? ".pickup" : ".delivery");
      if (!(half == 0 ? seen_pickups : seen_deliveries).insert(step.id).second)
        check.fail(sbase + ".id", std::string("duplicate ") + (half == 0 ? "pickup" : "delivery") +
                                      " id " + std::to_string(step.id));
      Task t;
      t.type = half == 0 ? TaskType::Pickup : TaskType::Delivery;
      t.id = step.id;
      t.location = location(step.location, sbase + ".location");
      t.coords = step.location.coords;
      check.duration(step.setup, sbase + ".setup");
      check.duration(step.service, sbase + ".service");
      t.setup = step.setup;
      t.service = step.service;
      t.delivery = half == 1 ? filled(s.amount, dims, 0) : Amount(dims);
      t.pickup = half == 0 ? filled(s.amount, dims, 0) : Amount(dims);
      t.skills = sorted_unique(s.skills);
      t.priority = s.priority;
      t.time_windows = check.windows(step.time_windows, sbase + ".time_windows");
      t.sibling = half == 0 ? pickup_index + 1 : pickup_index;
      t.source_index = i;
      t.description = step.description;
      pr.task_by_id_[{static_cast<int>(t.type), t.id}] = pr.tasks_.size();
      pr.tasks_.push_back(std::move(t));
    }
  }
}

}  // namespace routesolve
