// POST / : VROOM's solve endpoint. The body is read by io's VROOM reader, the matrices come from
// the network the request names (or the default one, or great-circle without a network), the
// validated solve is dispatch's (dispatch::solve_spec), the answer io's VROOM writer; "options":
// {"g": true} adds each route's geometry as an encoded polyline, as VROOM does.

#include <algorithm>
#include <new>
#include <sstream>
#include <string>

#include "endpoints.hpp"
#include "routesolve/dispatch/solve_spec.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "routesolve/io/writers.hpp"
#include "routesolve/timing.hpp"

namespace routesolve::service {
namespace {

/// VROOM's error codes: 1 internal, 2 input, 3 routing.
constexpr int kInternal = 1, kInput = 2, kRouting = 3;

}  // namespace

Response solve_endpoint(const Context& context, const Request& request,
                        const std::atomic<bool>& stop) {
  const auto t0 = Clock::now();
  try {
    auto it = request.query.find("network");
    const std::string file = context.networks.file_of(it == request.query.end() ? "" : it->second);
    ProblemSpec spec = io::parse_vroom_problem(request.body, "request");

    dispatch::PrepareOptions how;
    std::string stage;
    how.stage = &stage;
    if (spec.matrices.empty()) {
      if (!file.empty() && !context.networks.ready())
        return vroom_error(503, kInternal,
                           "the road networks are still loading (GET /health says when ready)");
      if (!file.empty()) how.provider = context.networks.provider(file);  // else great-circle
    } else if (spec.geometry) {
      throw invalid_input("options.g",
                          "geometry needs locations given as coordinates, not travel matrices");
    }
    SolveOptions options;
    options.backend = parse_backend(context.options.backend);
    options.device.index = context.options.device;
    options.threads = context.options.solve_threads == 0 ? 1 : context.options.solve_threads;
    options.stop = &stop;
    if (spec.time_limit_s > 0)
      options.time_limit_s = context.options.max_time_limit_s > 0
                                 ? std::min(spec.time_limit_s, context.options.max_time_limit_s)
                                 : spec.time_limit_s;
    dispatch::SolveRun run;
    run.started = t0;
    dispatch::Outcome out;
    try {
      out = dispatch::solve_spec(std::move(spec), dispatch::MatrixOptions{}, std::move(options),
                                 run, how);
    } catch (const Error& e) {
      // A stop the provider cannot place or reach is VROOM's routing error.
      if (e.code() != ErrorCode::InvalidInput || stage != "matrices") throw;
      return vroom_error(400, kRouting, e.what());
    }
    context.metrics.count_solve(out.solution.backend, !out.solution.fallback.empty());
    std::ostringstream answer;
    if (out.geometry) {
      const io::LegLines legs =
          io::road_legs(out.solution, *out.matrices->provider, out.matrices->fill);
      io::write_vroom_solution(answer, *out.problem, out.solution, &legs);
    } else {
      io::write_vroom_solution(answer, *out.problem, out.solution);
    }
    std::string body = std::move(answer).str();
    context.metrics.solve_seconds.observe(seconds_since(t0));
    return {200, "application/json", std::move(body)};
  } catch (const Error& e) {
    switch (e.code()) {
      case ErrorCode::InvalidInput:
      case ErrorCode::Infeasible:
      case ErrorCode::Unsupported:
        return vroom_error(400, kInput, e.what());
      case ErrorCode::OutOfMemory:
        return vroom_error(507, kInternal, std::string("out of memory: ") + e.what());
      default:
        return vroom_error(500, kInternal, e.what());
    }
  } catch (const std::bad_alloc&) {
    return vroom_error(507, kInternal, "out of memory");
  } catch (const std::exception& e) {
    return vroom_error(500, kInternal, e.what());
  }
}

}  // namespace routesolve::service
