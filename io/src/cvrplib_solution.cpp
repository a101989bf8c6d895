// CVRPLIB .sol solutions: reading ("Route #k: ..." lines and the Cost line) and writing. The
// numbers are 0-based matrix indices: job id = .sol number + 1 (cvrplib.cpp says why).

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "routesolve/error.hpp"
#include "routesolve/io/benchmark_formats.hpp"
#include "text.hpp"

namespace routesolve::io {

namespace {

using detail::split_tokens;
using detail::TextReader;
using detail::trim;

// "Cost N" in output units, when the file has one.
std::optional<double> read_sol_cost(TextReader& in, std::string_view line) {
  const auto tokens = split_tokens(line);
  if (tokens.size() != 2) in.fail("Cost: expected 'Cost <number>'");
  return in.number_field(tokens[1], "Cost");
}

}  // namespace

Solution parse_cvrplib_solution(std::string_view text, const std::string& source,
                                const Problem& problem) {
  TextReader in(text, source);
  Solution solution;
  const std::size_t dims = problem.dimensions();
  bool has_cost = false;
  std::size_t route_number = 0;
  while (in.next_nonblank_line()) {
    const std::string_view line = trim(in.line());
    if (line.starts_with("Route") || line.starts_with("route")) {
      const std::size_t colon = line.find(':');
      if (colon == std::string_view::npos) in.fail("Route: expected 'Route #k: <customers>'");
      ++route_number;
      const auto numbers = split_tokens(line.substr(colon + 1));
      if (numbers.empty()) continue;  // an empty route uses no vehicle
      const std::size_t v = solution.routes.size();
      if (v >= problem.vehicles().size())
        in.fail("Route: more routes than the " + std::to_string(problem.vehicles().size()) +
                " vehicles of the problem");
      const Vehicle& vehicle = problem.vehicle(v);
      Route route;
      route.vehicle = v;
      route.vehicle_id = vehicle.id;
      route.delivery = Amount(dims);
      route.pickup = Amount(dims);
      if (vehicle.start != kNone) {
        Step start;
        start.type = StepType::Start;
        start.location = vehicle.start;
        start.load = Amount(dims);
        route.steps.push_back(std::move(start));
      }
      for (const std::string_view number : numbers) {
        const std::int64_t k =
            in.int_field(number, "Route #" + std::to_string(route_number) + " customer");
        if (k < 0)
          in.fail("Route #" + std::to_string(route_number) + ": negative customer " +
                  std::string(number));
        const Id id = static_cast<Id>(k) + 1;  // .sol numbers are node numbers - 1
        const std::size_t task = problem.find_task(TaskType::Job, id);
        if (task == kNone)
          in.fail("Route #" + std::to_string(route_number) + ": customer " + std::string(number) +
                  " (job " + std::to_string(id) + ") is not in the problem");
        Step step;
        step.type = StepType::Job;
        step.id = id;
        step.task = task;
        step.location = problem.task(task).location;
        step.load = Amount(dims);
        route.steps.push_back(std::move(step));
      }
      if (vehicle.end != kNone) {
        Step end;
        end.type = StepType::End;
        end.location = vehicle.end;
        end.load = Amount(dims);
        route.steps.push_back(std::move(end));
      }
      solution.routes.push_back(std::move(route));
    } else if (line.starts_with("Cost") || line.starts_with("cost")) {
      if (has_cost) in.fail("Cost: given twice");
      read_sol_cost(in, line);
      has_cost = true;
    }
    // Other lines ("Time 12.3", comments) carry nothing the solution needs.
  }
  if (route_number == 0) in.fail("no 'Route #k:' line", in.line_number());
  solution.summary.routes = solution.routes.size();
  solution.summary.delivery = Amount(dims);
  solution.summary.pickup = Amount(dims);
  return solution;
}

std::optional<CvrplibCost> cvrplib_solution_cost(std::string_view text, const std::string& source) {
  TextReader in(text, source);
  std::optional<CvrplibCost> cost;
  while (in.next_nonblank_line()) {
    const std::string_view line = trim(in.line());
    if (line.starts_with("Cost") || line.starts_with("cost")) {
      if (cost) in.fail("Cost: given twice");
      CvrplibCost c;
      c.value = *read_sol_cost(in, line);
      c.line = in.line_number();
      // Digits after the point, as written (an exponent form counts as exact).
      const std::string_view token = split_tokens(line)[1];
      const std::size_t point = token.find('.');
      if (token.find_first_of("eE") != std::string_view::npos)
        c.decimals = 15;
      else if (point != std::string_view::npos)
        c.decimals = static_cast<int>(token.size() - point - 1);
      cost = c;
    }
  }
  return cost;
}

std::string cvrplib_solution_to_string(const Problem& problem, const Solution& solution) {
  std::ostringstream out;
  std::size_t k = 0;
  for (const Route& route : solution.routes) {
    std::string line;
    for (const Step& step : route.steps) {
      if (step.type != StepType::Job && step.type != StepType::Pickup &&
          step.type != StepType::Delivery)
        continue;
      if (step.id == 0)
        throw Error(ErrorCode::Unsupported,
                    problem.spec().source +
                        ": job id 0 cannot be written in CVRPLIB .sol numbering (id - 1)");
      line += ' ';
      line += std::to_string(step.id - 1);
    }
    if (line.empty()) continue;
    out << "Route #" << ++k << ':' << line << '\n';
  }
  const double scale = problem.cost_scale();
  if (scale == 1.0) {
    out << "Cost " << solution.summary.cost << '\n';
  } else {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.3f",
                  static_cast<double>(solution.summary.cost) / scale);
    out << "Cost " << buffer << '\n';
  }
  return out.str();
}

}  // namespace routesolve::io
