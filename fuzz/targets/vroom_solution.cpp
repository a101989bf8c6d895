// libFuzzer target: VROOM JSON solutions -> parse_vroom_solution against a fixed problem, then
// the independent validator (routesolve validate reads untrusted solutions the same way).

#include "fuzz_support.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/validator.hpp"

namespace {
// Two vehicles, three jobs, one shipment, time windows, capacities in two dimensions, a break.
constexpr std::string_view kProblem = R"({
 "vehicles": [
  {"id": 1, "start_index": 0, "end_index": 0, "capacity": [10, 4], "skills": [1],
   "time_window": [0, 10000], "breaks": [{"id": 7, "time_windows": [[100, 5000]], "service": 60}],
   "max_tasks": 4},
  {"id": 2, "start_index": 1, "capacity": [6, 6], "time_window": [0, 8000], "max_travel_time": 3000}
 ],
 "jobs": [
  {"id": 10, "location_index": 2, "service": 30, "delivery": [2, 1], "time_windows": [[0, 4000]]},
  {"id": 11, "location_index": 3, "service": 30, "pickup": [1, 1], "skills": [1]},
  {"id": 12, "location_index": 4, "delivery": [3, 0], "priority": 10}
 ],
 "shipments": [
  {"amount": [1, 2], "pickup": {"id": 20, "location_index": 1}, "delivery": {"id": 20, "location_index": 3}}
 ],
 "matrices": {"car": {
  "durations": [[0,100,200,300,400],[100,0,150,250,350],[200,150,0,120,220],[300,250,120,0,130],[400,350,220,130,0]],
  "distances": [[0,900,1800,2700,3600],[900,0,1300,2200,3100],[1800,1300,0,1000,2000],[2700,2200,1000,0,1100],[3600,3100,2000,1100,0]]
 }}
})";

const routesolve::Problem& problem() {
  static const routesolve::ProblemPtr p = routesolve::Problem::create(
      routesolve::io::parse_vroom_problem(kProblem, "fuzz-problem.json"));
  return *p;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace routesolve;
  const Problem& p = problem();
  try {
    const Solution solution = io::parse_vroom_solution(fuzz::as_text(data, size), "fuzz.json", p);
    const ValidationReport report = validate(p, solution);
    (void)report.to_text();
  } catch (const Error&) {
  }
  return 0;
}
