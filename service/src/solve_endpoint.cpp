// POST / : VROOM's solve endpoint. The body is read by io's VROOM reader, the matrices come from
// the network the request names (or the default one, or great-circle without a network), the
// solve is dispatch's, the answer io's VROOM writer; "options": {"g": true} adds each route's
// geometry as an encoded polyline, as VROOM does.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <new>
#include <string>

#include <nlohmann/json.hpp>

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

/// Google's encoded polyline (precision 5, latitude first), what VROOM writes for "g".
void encode_value(std::string& out, std::int64_t value) {
  std::uint64_t v = value < 0 ? ~(static_cast<std::uint64_t>(value) << 1) : static_cast<std::uint64_t>(value) << 1;
  while (v >= 0x20) {
    out += static_cast<char>((0x20 | (v & 0x1f)) + 63);
    v >>= 5;
  }
  out += static_cast<char>(v + 63);
}

std::string encode_polyline(const std::vector<Coordinates>& line) {
  std::string out;
  std::int64_t lat0 = 0, lon0 = 0;
  for (const Coordinates& c : line) {
    const auto lat = static_cast<std::int64_t>(std::llround(c.lat * 1e5));
    const auto lon = static_cast<std::int64_t>(std::llround(c.lon * 1e5));
    encode_value(out, lat - lat0);
    encode_value(out, lon - lon0);
    lat0 = lat;
    lon0 = lon;
  }
  return out;
}

/// The request's "options" (VROOM's server reads them from the body): g (geometry) and l (time
/// limit, seconds; "time_limit" is accepted too). Other keys are left alone.
struct SolveRequestOptions {
  bool geometry = false;
  double time_limit_s = 0.0;  ///< 0: the fixed amount of work `routesolve solve` does by default
};

SolveRequestOptions read_options(const std::string& body) {
  SolveRequestOptions o;
  if (body.find("\"options\"") == std::string::npos) return o;
  const nlohmann::json doc = nlohmann::json::parse(body, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("options")) return o;  // the reader names the fault
  const nlohmann::json& options = doc["options"];
  if (!options.is_object()) throw invalid_input("options", "expected an object");
  if (options.contains("g")) {
    if (!options["g"].is_boolean()) throw invalid_input("options.g", "expected true or false");
    o.geometry = options["g"].get<bool>();
  }
  for (const char* key : {"l", "time_limit"}) {
    if (!options.contains(key)) continue;
    const nlohmann::json& l = options[key];
    if (!l.is_number() || l.get<double>() < 0 || !std::isfinite(l.get<double>()))
      throw invalid_input(std::string("options.") + key, "expected a non-negative number of seconds");
    o.time_limit_s = l.get<double>();
  }
  return o;
}

/// Adds "geometry" to every route of the VROOM answer.
std::string with_geometry(const std::string& answer, const Solution& solution, const network::MatrixProvider& provider,
                          const network::MatrixFill& fill) {
  nlohmann::ordered_json doc = nlohmann::ordered_json::parse(answer);
  auto& routes = doc["routes"];
  for (std::size_t r = 0; r < solution.routes.size() && r < routes.size(); ++r) {
    std::vector<Coordinates> line;
    std::size_t previous = kNone;
    for (const Step& s : solution.routes[r].steps) {
      if (s.location == kNone) continue;
      if (previous == kNone) {
        line.push_back(fill.points[s.location]);
      } else if (previous != s.location) {
        const std::vector<Coordinates> leg = provider.leg(fill.matrices, fill.points, previous, s.location);
        line.insert(line.end(), leg.begin() + (leg.empty() ? 0 : 1), leg.end());
      }
      previous = s.location;
    }
    routes[r]["geometry"] = encode_polyline(line);
  }
  return doc.dump();
}

}  // namespace

Response solve_endpoint(const Context& context, const Request& request, const std::atomic<bool>& stop) {
  const auto t0 = Clock::now();
  try {
    const SolveRequestOptions request_options = read_options(request.body);
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
    } else if (request_options.geometry) {
      throw invalid_input("options.g", "geometry needs locations given as coordinates, not travel matrices");
    }
    const ProblemPtr problem = Problem::create(std::move(spec));

    SolveOptions options;
    options.backend = parse_backend(context.options.backend);
    options.device.index = context.options.device;
    options.threads = context.options.solve_threads == 0 ? 1 : context.options.solve_threads;
    options.stop = &stop;
    if (request_options.time_limit_s > 0) {
      options.time_limit_s = context.options.max_time_limit_s > 0
                                 ? std::min(request_options.time_limit_s, context.options.max_time_limit_s)
                                 : request_options.time_limit_s;
      options.time_used_s = seconds_since(t0) + 0.01;
    }
    Solution solution = solve(*problem, options);
    const ValidationReport report = validate(*problem, solution);
    if (!report.ok())
      throw Error(ErrorCode::Internal, "the solver's solution failed validation:\n" + report.to_text());
    context.metrics.count_solve(solution.backend, !solution.fallback.empty());
    std::string body = io::vroom_solution_to_string(*problem, solution);
    if (request_options.geometry) body = with_geometry(body, solution, *provider, fill);
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
