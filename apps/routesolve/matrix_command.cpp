// `routesolve matrix --network FILE --points P`: travel matrices between points on a road network,
// written as VROOM JSON or the binary format (docs/ROAD_NETWORKS.md). The engine is chosen by
// dispatch (Boost.Graph Dijkstra, or PHAST sweeps on the host twin or the device).

#include <fmt/core.h>

#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli_common.hpp"
#include "routesolve/dispatch/matrices.hpp"
#include "routesolve/distributed/matrix_rows.hpp"
#include "routesolve/distributed/world.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/matrix_formats.hpp"
#include "routesolve/io/points.hpp"
#include "routesolve/timing.hpp"

namespace routesolve::app {
namespace {

/// Writes through a temporary file and a rename, so an interrupted run leaves no half file.
template <class Writer>
void write_atomically(const std::string& file, bool binary, Writer&& write) {
  if (file.empty() || file == "-") {
    write(std::cout);
    std::cout.flush();
    return;
  }
  io::write_atomically(file, [&](std::ostream& f) { write(f); }, {.binary = binary});
}

struct MatrixArgs {
  std::string network, points, output, backend = "cpu", transfer = "batched";
  int device = 0;
  unsigned threads = 1;
  bool binary = false, allow_unreachable = false, quiet = false, profile = false;
  double max_snap = network::kDefaultMaxSnapM;
};

/// Under mpirun: each rank computes its block of source rows with its local engine; the binary
/// output is written by every rank at its rows' offsets (MPI-IO), JSON is gathered on rank 0.
int run_matrix_distributed(const MatrixArgs& a) {
  const bool root = distributed::rank() == 0;
  std::string fallback;
  const int device = chosen_device(a.device, {});
  const BackendKind engine_kind =
      dispatch::resolve_matrix_backend(parse_backend(a.backend), a.network, device, &fallback);
  if (!fallback.empty() && root) fmt::print(stderr, "warning: {}\n", fallback);
  const auto router_ptr = dispatch::load_road_router(a.network);
  const network::RoadRouter& router = *router_ptr;
  const io::Points points = io::read_points(a.points);
  if (points.ids.empty()) throw invalid_input(a.points, "no points");
  const std::size_t n = points.ids.size();
  std::vector<SnapResult> snaps;
  if (points.by_node) {
    snaps.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      if (points.nodes[i] >= router.graph().node_count())
        throw invalid_input("points[" + std::to_string(i) + "]",
                            "node " + std::to_string(points.nodes[i]) + " is not in the network");
      snaps[i].found = true;
      snaps[i].node = points.nodes[i];
    }
  } else {
    snaps = router.snapper().snap(points.coords, a.max_snap);
  }
  dispatch::MatrixOptions options;
  options.backend = parse_backend(a.backend);  // auto goes on on the host after a device fault
  options.device = {.index = device, .transfer = parse_transfer_mode(a.transfer), .indices = {}};
  options.threads = a.threads;
  auto profile = std::make_shared<dispatch::EngineProfile>();
  const network::NodeMatrixFunction engine =
      dispatch::make_node_engine(engine_kind, a.network, router, options, profile);
  const distributed::RowBlock block =
      distributed::row_block(n, distributed::rank(), distributed::size());
  const auto t_rows = Clock::now();
  const NodeMatrices rows = distributed::point_matrix_rows(router, snaps, block, a.threads, engine);
  distributed::idle_barrier();  // ranks finish their rows unevenly; wait without spinning
  const double rows_seconds = distributed::max_all(seconds_since(t_rows));

  std::size_t unsnapped = 0;
  for (const auto& s : snaps) unsnapped += s.found ? 0 : 1;
  constexpr std::size_t kShown = 20;
  std::size_t unreachable = 0;
  std::string named;
  for (std::size_t i = block.begin; i < block.end; ++i) {
    if (!snaps[i].found) continue;
    for (std::size_t j = 0; j < n; ++j) {
      if (!snaps[j].found || rows.durations[(i - block.begin) * n + j] < kUnreachable) continue;
      if (unreachable++ < kShown)
        named += fmt::format("{}: no road path from '{}' to '{}'\n", a.points, points.ids[i],
                             points.ids[j]);
    }
  }
  unreachable =
      static_cast<std::size_t>(distributed::sum_all(static_cast<std::int64_t>(unreachable)));
  const auto lists = distributed::gather(named);
  const std::size_t snapped = n - unsnapped;
  const std::size_t total_unreachable = unreachable + (n * n - n) - (snapped * snapped - snapped);
  if (root && (!a.quiet || !a.allow_unreachable)) {
    if (unsnapped > 0)
      fmt::print(stderr, "{}: {} point(s) with no drivable road within {} m\n", a.points, unsnapped,
                 a.max_snap);
    std::size_t shown = 0;
    for (const auto& l : lists)
      for (std::size_t at = 0; at < l.size() && shown < kShown; ++shown) {
        const std::size_t end = l.find('\n', at);
        fmt::print(stderr, "{}", l.substr(at, end + 1 - at));
        at = end + 1;
      }
    if (unreachable > kShown)
      fmt::print(stderr, "... and {} more pairs without a road path\n", unreachable - kShown);
  }
  if (total_unreachable > 0 && !a.allow_unreachable) {
    if (root)
      fmt::print(stderr,
                 "error: {} unreachable pair(s) among {} points; nothing written (pass "
                 "--allow-unreachable to write "
                 "them as {} in JSON, {} in binary)\n",
                 total_unreachable, n, io::kJsonUnreachable, io::kBinaryUnreachable);
    return 1;
  }
  const auto t_write = Clock::now();
  if (a.binary && !a.output.empty() && a.output != "-") {
    distributed::write_binary_rows(a.output, rows, n, block);
  } else {
    const NodeMatrices all = distributed::gather_rows(rows, n);
    if (root)
      write_atomically(a.output, a.binary, [&](std::ostream& out) {
        if (a.binary)
          io::write_binary_matrices(out, all);
        else
          io::write_json_matrices(out, all);
      });
  }
  const double write_seconds = distributed::max_all(seconds_since(t_write));
  if (root && !a.quiet)
    fmt::print(stderr,
               "matrix: {} points ({} snapped), {} unreachable pairs; {} ranks x {} threads, "
               "{:.3f} s rows, "
               "{:.3f} s write ({})\n",
               n, snapped, total_unreachable, distributed::size(), a.threads, rows_seconds,
               write_seconds, to_string(engine_kind));
  return 0;
}

int run_matrix(const MatrixArgs& a) {
  if (distributed::distributed()) return run_matrix_distributed(a);
  std::string fallback;
  const BackendKind engine_kind =
      dispatch::resolve_matrix_backend(parse_backend(a.backend), a.network, a.device, &fallback);
  if (!fallback.empty()) fmt::print(stderr, "warning: {}\n", fallback);
  const std::string backend(to_string(engine_kind));
  const auto t_load = Clock::now();
  const auto router_ptr = dispatch::load_road_router(a.network);
  const double load_seconds = seconds_since(t_load);
  const network::RoadRouter& router = *router_ptr;
  const io::Points points = io::read_points(a.points);
  if (points.ids.empty()) throw invalid_input(a.points, "no points");

  dispatch::MatrixOptions options;
  options.backend = parse_backend(a.backend);  // auto goes on on the host after a device fault
  options.device = {.index = a.device, .transfer = parse_transfer_mode(a.transfer), .indices = {}};
  options.threads = a.threads;
  auto profile = std::make_shared<dispatch::EngineProfile>();
  const network::NodeMatrixFunction engine =
      dispatch::make_node_engine(engine_kind, a.network, router, options, profile);
  network::PointMatrices pm =
      points.by_node
          ? network::node_point_matrices(router, points.nodes, a.threads, engine)
          : network::point_matrices(router, points.coords, a.max_snap, a.threads, engine);
  if (engine) {
    pm.stats.settled_nodes = profile->work;
    pm.stats.seconds = profile->seconds;
    pm.stats.threads = a.threads;
  }
  const std::size_t n = points.ids.size();

  // Unreachable pairs are named; without --allow-unreachable nothing is written.
  std::size_t unsnapped = 0, unreachable = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!pm.snaps[i].found) {
      ++unsnapped;
      if (!a.quiet || !a.allow_unreachable)
        fmt::print(stderr, "{}: point '{}' ({}, {}): no drivable road within {} m\n", a.points,
                   points.ids[i], points.coords[i].lon, points.coords[i].lat, a.max_snap);
    }
  }
  constexpr std::size_t kShown = 20;
  for (std::size_t i = 0; i < n; ++i) {
    if (!pm.snaps[i].found) continue;
    for (std::size_t j = 0; j < n; ++j) {
      if (!pm.snaps[j].found || pm.matrices.durations[i * n + j] < kUnreachable) continue;
      if (unreachable++ < kShown && (!a.quiet || !a.allow_unreachable))
        fmt::print(stderr, "{}: no road path from '{}' to '{}'\n", a.points, points.ids[i],
                   points.ids[j]);
    }
  }
  // Pairs involving a point that did not snap count too.
  const std::size_t snapped = n - unsnapped;
  const std::size_t total_unreachable = unreachable + (n * n - n) - (snapped * snapped - snapped);
  if (unreachable > kShown && (!a.quiet || !a.allow_unreachable))
    fmt::print(stderr, "... and {} more pairs without a road path\n", unreachable - kShown);
  if (total_unreachable > 0 && !a.allow_unreachable) {
    fmt::print(stderr,
               "error: {} unreachable pair(s) among {} points; nothing written (VROOM cannot read "
               "'no path': "
               "pass --allow-unreachable to write them as {} in JSON, {} in binary)\n",
               total_unreachable, n, io::kJsonUnreachable, io::kBinaryUnreachable);
    return 1;
  }

  const auto t_write = Clock::now();
  write_atomically(a.output, a.binary, [&](std::ostream& out) {
    if (a.binary)
      io::write_binary_matrices(out, pm.matrices);
    else
      io::write_json_matrices(out, pm.matrices);
  });
  const double write_seconds = seconds_since(t_write);

  if (!a.quiet) {
    const double rate =
        pm.stats.seconds > 0 ? static_cast<double>(pm.stats.settled_nodes) / pm.stats.seconds : 0.0;
    fmt::print(stderr,
               "matrix: {} points ({} snapped), {} unreachable pairs; {} threads, {:.3f} s, {:.3g} "
               "{}/s ({})\n",
               n, snapped, total_unreachable, pm.stats.threads, pm.stats.seconds, rate,
               backend == "cpu" ? "settled nodes" : "relaxations", backend);
  }
  if (a.profile) {
    Solution s;
    s.backend = backend;
    if (engine) fmt::print(stderr, "matrix profile: {}\n", profile->summary);
    const double ch_load =
        engine && !profile->stages.empty() ? profile->stages.front().seconds : 0.0;
    s.profile = {{"network_load", load_seconds},
                 {"ch_load", ch_load},
                 {"snap", pm.snap_seconds},
                 {"matrix", pm.stats.seconds},
                 {"write", write_seconds}};
    print_profile(s);
  }
  return 0;
}

}  // namespace

void add_matrix_command(CLI::App& app, int* exit_status) {
  auto args = std::make_shared<MatrixArgs>();
  MatrixArgs& m = *args;
  auto* matrix = app.add_subcommand(
      "matrix", "Travel matrices (seconds, metres) between points on a road network");
  matrix->add_option("--network", m.network, "Road network or .rsnet cache")->required();
  matrix
      ->add_option("--points", m.points,
                   "CSV 'id,lon,lat' or 'id,node', or a JSON array of [lon, lat]")
      ->required();
  matrix->add_option("-o,--output", m.output, "Output file (default: standard output)");
  matrix->add_option("--backend,--matrix-engine", m.backend, "Matrix engine")
      ->check(CLI::IsMember(backend_names()))
      ->capture_default_str();
  matrix
      ->add_option("--transfer", m.transfer,
                   "cuda backend: batched (pinned, overlapped) or naive transfers")
      ->check(CLI::IsMember({"batched", "naive"}))
      ->capture_default_str();
  matrix->add_option("--device", m.device, "cuda backend: the CUDA device index")
      ->check(CLI::Range(0, 1023))
      ->capture_default_str();
  matrix->add_option("--threads", m.threads, "Worker threads (0: all hardware threads)")
      ->check(CLI::Range(0u, 1024u))
      ->capture_default_str();
  matrix->add_flag("--binary", m.binary, "Write the compact binary format (docs/ROAD_NETWORKS.md)");
  matrix
      ->add_option("--max-snap", m.max_snap, "Largest distance in metres from a point to its road")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  matrix->add_flag("--allow-unreachable", m.allow_unreachable,
                   "Write unreachable pairs as 2147483647 (JSON) / -1 (binary) instead of failing");
  matrix->add_flag("--profile", m.profile, "Print the time spent per stage on stderr");
  matrix->add_flag("-q,--quiet", m.quiet, "No summary on stderr");
  matrix->callback([args, exit_status] { *exit_status = run_matrix(*args); });
}

}  // namespace routesolve::app
