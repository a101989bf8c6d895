// POST / : VROOM's solve endpoint. The body is read by io's VROOM reader, the matrices come from
// the network the request names (or the default one, or great-circle without a network), the
// solve is dispatch's, the answer io's VROOM writer; "options": {"g": true} adds each route's
// geometry as an encoded polyline, as VROOM does.

#include <algorithm>
#include <memory>
#include <new>
#include <sstream>
#include <string>

#include "endpoints.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "routesolve/io/writers.hpp"
#include "routesolve/solve.hpp"
#include "routesolve/timing.hpp"
#include "routesolve/validator.hpp"

namespace routesolve::service {
namespace {

/// VROOM's error codes: 1 internal, 2 input, 3 routing.
constexpr int kInternal = 1, kInput = 2, kRouting = 3;

}  // namespace

Response solve_endpoint(const Context& context, const Request& request, const std::atomic<bool>& stop) {
  const auto t0 = Clock::now();
  try {
    auto it = request.query.find("network");
    const std::string file = context.networks.file_of(it == request.query.end() ? "" : it->second);
    ProblemSpec spec = io::parse_vroom_problem(request.body, "request");

    std::unique_ptr<network::MatrixProvider> provider;
    network::MatrixFill fill;
    if (spec.matrices.empty()) {
      if (!file.empty() && !context.networks.ready())
        return vroom_error(503, kInternal, "the road networks are still loading (GET /health says when ready)");
      provider = file.empty() ? std::make_unique<network::GreatCircleProvider>() : context.networks.provider(file);
      try {
        network::fill_matrices(spec, *provider, &fill);
      } catch (const Error& e) {
        if (e.code() != ErrorCode::InvalidInput) throw;
        return vroom_error(400, kRouting, e.what());
      }
    } else if (spec.geometry) {
      throw invalid_input("options.g", "geometry needs locations given as coordinates, not travel matrices");
    }
    const bool geometry = spec.geometry;
    const double requested_s = spec.time_limit_s;
    const ProblemPtr problem = Problem::create(std::move(spec));

    SolveOptions options;
    options.backend = parse_backend(context.options.backend);
    options.device.index = context.options.device;
    options.threads = context.options.solve_threads == 0 ? 1 : context.options.solve_threads;
    options.stop = &stop;
    if (requested_s > 0) {
      options.time_limit_s =
          context.options.max_time_limit_s > 0 ? std::min(requested_s, context.options.max_time_limit_s) : requested_s;
      options.time_used_s = seconds_since(t0) + 0.01;
    }
    Solution solution = solve(*problem, options);
    const ValidationReport report = validate(*problem, solution);
    if (!report.ok())
      throw Error(ErrorCode::Internal, "the solver's solution failed validation:\n" + report.to_text());
    context.metrics.count_solve(solution.backend, !solution.fallback.empty());
    std::ostringstream out;
    if (geometry) {
      const io::LegLines legs = io::road_legs(solution, *provider, fill);
      io::write_vroom_solution(out, *problem, solution, &legs);
    } else {
      io::write_vroom_solution(out, *problem, solution);
    }
    std::string body = std::move(out).str();
    context.metrics.solve_seconds.observe(seconds_since(t0));
    return {200, "application/json", std::move(body)};
  } catch (const Error& e) {
    switch (e.code()) {
      case ErrorCode::InvalidInput:
      case ErrorCode::Infeasible:
      case ErrorCode::Unsupported: return vroom_error(400, kInput, e.what());
      case ErrorCode::OutOfMemory: return vroom_error(507, kInternal, std::string("out of memory: ") + e.what());
      default: return vroom_error(500, kInternal, e.what());
    }
  } catch (const std::bad_alloc&) {
    return vroom_error(507, kInternal, "out of memory");
  } catch (const std::exception& e) {
    return vroom_error(500, kInternal, e.what());
  }
}

}  // namespace routesolve::service
