#include "routesolve/capi/embedding.hpp"

#include <nlohmann/json.hpp>

#include "routesolve/contraction_hierarchy.hpp"
#include "routesolve/dispatch/matrices.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/matrix_formats.hpp"
#include "routesolve/io/road_formats.hpp"
#include "routesolve/io/vroom_json.hpp"

namespace routesolve::capi {

namespace {

dispatch::MatrixOptions matrix_options(const EmbedOptions& o) {
  dispatch::MatrixOptions m;
  m.network = o.network;
  m.backend = parse_backend(o.matrix_engine.empty() ? o.backend : o.matrix_engine);
  m.device.index = o.device;
  m.threads = o.threads == 0 ? 1 : o.threads;
  return m;
}

}  // namespace

SolveOptions solve_options(const EmbedOptions& o) {
  SolveOptions s;
  s.backend = parse_backend(o.backend);
  s.device.index = o.device;
  if (o.time_limit_s < 0) throw invalid_input("time_limit", "must not be negative");
  s.time_limit_s = o.time_limit_s;
  s.iterations = o.iterations;
  s.seed = o.seed;
  s.threads = o.threads == 0 ? 1 : o.threads;
  s.chains = o.chains;
  s.objective = parse_objective(o.objective);
  if (!o.timeline.empty()) {
    s.timeline = timeline_from_string(o.timeline);
    if (!s.timeline)
      throw invalid_input("timeline",
                          "expected \"vroom\" or \"earliest\", got \"" + o.timeline + "\"");
  }
  return s;
}

std::shared_ptr<const Problem> problem_from_spec(ProblemSpec spec, const EmbedOptions& o) {
  return dispatch::prepare_problem(std::move(spec), matrix_options(o)).problem;
}

std::shared_ptr<const Problem> problem_from_json(std::string_view text, const std::string& source,
                                                 const EmbedOptions& o) {
  ProblemSpec spec = io::parse_vroom_problem(text, source);
  spec.plan = o.check;
  return problem_from_spec(std::move(spec), o);
}

dispatch::Outcome solve_json(std::string_view text, const std::string& source,
                             const EmbedOptions& o, SolveOptions options, dispatch::SolveRun run) {
  run.check_plan = o.check;
  return dispatch::solve_spec(io::parse_vroom_problem(text, source), matrix_options(o),
                              std::move(options), run);
}

Solution solve_or_check(std::shared_ptr<const Problem> problem, const SolveOptions& options,
                        bool check) {
  dispatch::Prepared prepared;
  prepared.problem = std::move(problem);
  dispatch::SolveRun run;
  run.check_plan = check;  // the same solution `routesolve solve --check` writes
  return dispatch::solve_prepared(prepared, options, run).solution;
}

std::string report_to_json(const ValidationReport& report) {
  nlohmann::json out;
  out["ok"] = report.ok();
  out["violations"] = nlohmann::json::array();
  for (const Violation& v : report.violations) {
    out["violations"].push_back(
        {{"where", v.where}, {"kind", std::string(to_string(v.kind))}, {"message", v.message}});
  }
  return out.dump();
}

std::vector<Coordinates> points_from_json(std::string_view text, const std::string& source) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw invalid_input(source, std::string("not valid JSON: ") + e.what());
  }
  if (!doc.is_array()) throw invalid_input(source, "expected a JSON array of [lon, lat]");
  std::vector<Coordinates> points;
  points.reserve(doc.size());
  for (std::size_t i = 0; i < doc.size(); ++i) {
    const auto& p = doc[i];
    if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number())
      throw invalid_input(source + "[" + std::to_string(i) + "]", "expected [lon, lat]");
    const Coordinates c{p[0].get<double>(), p[1].get<double>()};
    if (c.lon < -180 || c.lon > 180 || c.lat < -90 || c.lat > 90)
      throw invalid_input(source + "[" + std::to_string(i) + "]",
                          "longitude or latitude out of range");
    points.push_back(c);
  }
  return points;
}

network::ProvidedMatrices travel_matrices(std::span<const Coordinates> points,
                                          const EmbedOptions& o) {
  const auto provider = dispatch::make_matrix_provider(matrix_options(o));
  return provider->compute(points, network::MatrixScale{});
}

std::string matrices_to_json(const network::ProvidedMatrices& m) {
  auto rows = [](const Matrix& x) {
    nlohmann::json out = nlohmann::json::array();
    for (std::size_t i = 0; i < x.size(); ++i) {
      nlohmann::json row = nlohmann::json::array();
      for (std::size_t j = 0; j < x.size(); ++j) {
        const std::int64_t v = x(i, j);
        row.push_back(v >= kUnreachable ? io::kJsonUnreachable : v);
      }
      out.push_back(std::move(row));
    }
    return out;
  };
  nlohmann::json car;
  car["durations"] = rows(m.durations);
  car["distances"] = rows(m.distances);
  nlohmann::json out;
  out["matrices"]["car"] = std::move(car);
  return out.dump();
}

NetworkInfo build_network_cache(const std::string& input, const std::string& output) {
  const RoadNetwork net = io::read_network(input);
  io::write_network_cache(net, output);
  const RoadNetwork back = io::read_network_cache(output);
  if (back.graph.node_count() != net.graph.node_count() ||
      back.graph.arc_count() != net.graph.arc_count())
    throw Error(ErrorCode::Internal, output + ": the cache did not read back the same network");
  const ContractionHierarchy ch = build_contraction_hierarchy(back.graph, {}, nullptr);
  io::add_cache_section(output, io::CacheSection{kChCacheSection, ch.to_bytes()});
  return load_network(output);
}

NetworkInfo load_network(const std::string& file) {
  const auto router = dispatch::load_road_router(file);
  NetworkInfo info;
  info.path = file;
  info.nodes = router->graph().node_count();
  info.arcs = router->graph().arc_count();
  info.coordinates = router->has_coordinates();
  return info;
}

}  // namespace routesolve::capi
