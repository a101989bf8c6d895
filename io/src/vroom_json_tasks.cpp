// VROOM problem JSON, tasks: jobs and shipments (a pickup and a delivery step), with ids unique
// per kind.

#include <string>
#include <unordered_map>

#include "vroom_json_parser.hpp"

namespace routesolve::io::detail {

JobSpec ProblemParser::job(const Json& j, const std::string& path) {
  r_.expect_object(j, path);
  JobSpec job;
  job.id = id(j, path);
  unique(job_ids_, job.id, join_path(path, "id"), "job");
  job.location = required_location(j, path);
  job.setup = integer(j, path, "setup");
  job.service = integer(j, path, "service");
  job.delivery = optional_amount(j, path, "delivery");
  if (r_.member(j, "delivery") == nullptr)
    job.delivery = optional_amount(j, path, "amount");  // legacy
  job.pickup = optional_amount(j, path, "pickup");
  job.skills = skills(j, path);
  job.priority = priority(j, path);
  job.time_windows = time_windows(j, path);
  job.description = optional_string(j, path, "description");
  return job;
}

ShipmentStepSpec ProblemParser::shipment_step(const Json& s, const std::string& path,
                                              std::unordered_map<Id, std::string>& ids,
                                              std::string_view what) {
  r_.expect_object(s, path);
  ShipmentStepSpec step;
  step.id = id(s, path);
  unique(ids, step.id, join_path(path, "id"), what);
  step.location = required_location(s, path);
  step.setup = integer(s, path, "setup");
  step.service = integer(s, path, "service");
  step.time_windows = time_windows(s, path);
  step.description = optional_string(s, path, "description");
  return step;
}

ShipmentSpec ProblemParser::shipment(const Json& s, const std::string& path) {
  r_.expect_object(s, path);
  ShipmentSpec shipment;
  shipment.pickup = shipment_step(r_.required(s, path, "pickup"), join_path(path, "pickup"),
                                  pickup_ids_, "pickup");
  shipment.delivery = shipment_step(r_.required(s, path, "delivery"), join_path(path, "delivery"),
                                    delivery_ids_, "delivery");
  shipment.amount = optional_amount(s, path, "amount");
  shipment.skills = skills(s, path);
  shipment.priority = priority(s, path);
  return shipment;
}

}  // namespace routesolve::io::detail
