// Validator, summary: the solution's summary against the sum of its routes' figures.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "validator_detail.hpp"

namespace routesolve::validation {

void Validator::check_summary() {
  const Summary& sum = s_.summary;
  const std::string w = "summary";
  Cost cost = 0;
  Duration setup = 0, service = 0, duration = 0, waiting = 0;
  Distance distance = 0;
  long long priority = 0;
  const std::size_t dims = p_.dimensions();
  Load delivery(dims, 0), pickup(dims, 0);
  for (const Route& route : s_.routes) {
    cost = sat_add(cost, route.cost);
    setup = sat_add(setup, route.setup);
    service = sat_add(service, route.service);
    duration = sat_add(duration, route.duration);
    waiting = sat_add(waiting, route.waiting_time);
    distance = sat_add(distance, route.distance);
    priority += route.priority;
    add_into(delivery, route.delivery, +1);
    add_into(pickup, route.pickup, +1);
  }
  if (p_.spec().balance > 0.0) {
    // The balance term: the objective's cost is the routes' plus the longest route's share.
    const Cost balance = p_.balance_cost(longest_);
    expect_equal(ViolationKind::SummaryMismatch, w,
                 "cost (sum over routes + balance for the longest route " + str(longest_) + ")",
                 sat_add(cost, balance), sum.cost);
  } else {
    expect_equal(ViolationKind::SummaryMismatch, w, "cost (sum over routes)", cost, sum.cost);
  }
  expect_equal(ViolationKind::SummaryMismatch, w, "routes",
               static_cast<std::int64_t>(s_.routes.size()), static_cast<std::int64_t>(sum.routes));
  expect_equal(ViolationKind::SummaryMismatch, w, "unassigned",
               static_cast<std::int64_t>(s_.unassigned.size()),
               static_cast<std::int64_t>(sum.unassigned));
  expect_equal(ViolationKind::SummaryMismatch, w, "setup (sum over routes)", setup, sum.setup);
  expect_equal(ViolationKind::SummaryMismatch, w, "service (sum over routes)", service,
               sum.service);
  expect_equal(ViolationKind::SummaryMismatch, w, "duration (sum over routes)", duration,
               sum.duration);
  expect_equal(ViolationKind::SummaryMismatch, w, "waiting_time (sum over routes)", waiting,
               sum.waiting_time);
  expect_equal(ViolationKind::SummaryMismatch, w, "distance (sum over routes)", distance,
               sum.distance);
  expect_equal(ViolationKind::SummaryMismatch, w, "priority (sum over routes)", priority,
               sum.priority);
  if (!sum.delivery.empty() && !same(delivery, sum.delivery))
    report(
        ViolationKind::SummaryMismatch, w,
        "delivery (sum over routes): expected " + str(delivery) + ", found " + str(sum.delivery));
  if (!sum.pickup.empty() && !same(pickup, sum.pickup))
    report(ViolationKind::SummaryMismatch, w,
           "pickup (sum over routes): expected " + str(pickup) + ", found " + str(sum.pickup));
}

}  // namespace routesolve::validation
