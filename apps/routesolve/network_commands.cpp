// The road-network subcommands:
//   routesolve network build INPUT -o OUT.rsnet   import once, write the binary cache (with the
//                                                 contraction hierarchy of the PHAST engines)
//   routesolve network info FILE                  what a network (or cache) holds

#include <fmt/core.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "cli_common.hpp"
#include "routesolve/contraction_hierarchy.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/road_formats.hpp"
#include "routesolve/timing.hpp"

namespace fs = std::filesystem;

namespace routesolve::app {
namespace {

// ---- network build / info
// ----------------------------------------------------------------------------

void print_report(const RoadNetwork& net) {
  const NetworkReport& r = net.report;
  const auto pct = [](std::size_t part, std::size_t whole) {
    return whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
  };
  fmt::print("source:      {}\n", net.source);
  fmt::print("read:        {} nodes, {} arcs\n", r.nodes_read, r.arcs_read);
  fmt::print(
      "kept:        {} nodes ({:.1f}%), {} arcs ({:.1f}%): the largest strongly connected "
      "component\n",
      r.nodes_kept, pct(r.nodes_kept, r.nodes_read), r.arcs_kept, pct(r.arcs_kept, r.arcs_read));
  fmt::print("dropped:     {} nodes, {} arcs ({} components)\n", r.nodes_dropped,
             r.arcs_read >= r.arcs_kept ? r.arcs_read - r.arcs_kept : 0, r.components);
  fmt::print("coordinates: {}\n",
             net.graph.has_coordinates() ? "yes" : "no (points must be given as road nodes)");
  fmt::print("import:      {:.3f} s\n", r.import_seconds);
}

int run_network_build(const std::string& input, const std::string& output, bool quiet) {
  const RoadNetwork net = io::read_network(input);
  const auto t0 = Clock::now();
  io::write_network_cache(net, output);
  const double write_seconds = seconds_since(t0);
  const auto t1 = Clock::now();
  const RoadNetwork back = io::read_network_cache(output);  // proves the file reads back
  const double load_seconds = seconds_since(t1);
  if (back.graph.node_count() != net.graph.node_count() ||
      back.graph.arc_count() != net.graph.arc_count())
    throw Error(ErrorCode::Internal, output + ": the cache did not read back the same network");
  // The contraction hierarchy of the cuda / cuda-host matrix backends, stored beside the graph.
  ChBuildStats ch_stats;
  const ContractionHierarchy ch = build_contraction_hierarchy(back.graph, {}, &ch_stats);
  io::add_cache_section(output, io::CacheSection{kChCacheSection, ch.to_bytes()});
  if (!quiet) {
    print_report(net);
    fmt::print("cache:       {} ({} bytes), written in {:.3f} s, reads back in {:.3f} s\n", output,
               fs::file_size(output), write_seconds, load_seconds);
    fmt::print("hierarchy:   {} shortcuts, {} levels, built in {:.3f} s (section '{}')\n",
               ch_stats.shortcuts, ch_stats.levels, ch_stats.seconds, kChCacheSection);
  }
  return 0;
}

int run_network_info(const std::string& file) {
  const auto t0 = Clock::now();
  const RoadNetwork net = io::read_network(file);
  const double load_seconds = seconds_since(t0);
  print_report(net);
  const RoadGraph& g = net.graph;
  if (g.has_coordinates() && g.node_count() > 0) {
    double min_lon = 180, max_lon = -180, min_lat = 90, max_lat = -90;
    for (const Coordinates& c : g.coords) {
      min_lon = std::min(min_lon, c.lon), max_lon = std::max(max_lon, c.lon);
      min_lat = std::min(min_lat, c.lat), max_lat = std::max(max_lat, c.lat);
    }
    fmt::print("bbox:        lon [{:.6f}, {:.6f}], lat [{:.6f}, {:.6f}]\n", min_lon, max_lon,
               min_lat, max_lat);
  }
  std::uint64_t total_ds = 0, total_m = 0;
  for (std::size_t a = 0; a < g.arc_count(); ++a) total_ds += g.duration[a], total_m += g.length[a];
  fmt::print("arcs total:  {:.1f} km, {:.1f} h of driving\n", static_cast<double>(total_m) / 1000.0,
             static_cast<double>(total_ds) / 36000.0);
  fmt::print("loaded in:   {:.3f} s{}\n", load_seconds,
             io::is_network_cache(file) ? " (cache)" : "");
  return 0;
}

}  // namespace

void add_network_commands(CLI::App& app, int* exit_status) {
  struct State {
    std::string input, output;
    bool quiet = false;
  };
  auto s = std::make_shared<State>();

  auto* network = app.add_subcommand(
      "network", "Road networks: build the binary cache, show what a network holds");
  network->require_subcommand(1);
  auto* build =
      network->add_subcommand("build", "Import a road network and write its binary cache (.rsnet)");
  build->add_option("INPUT", s->input, "OSM .osm.pbf, DIMACS .gr, edge list or PACE .gr(.xz)")
      ->required();
  build->add_option("-o,--output", s->output, "Cache file to write (.rsnet)")->required();
  build->add_flag("-q,--quiet", s->quiet, "Print nothing");
  build->callback(
      [s, exit_status] { *exit_status = run_network_build(s->input, s->output, s->quiet); });

  auto* info = network->add_subcommand("info", "Print what a road network or cache holds");
  info->add_option("FILE", s->input, "Road network or .rsnet cache")->required();
  info->callback([s, exit_status] { *exit_status = run_network_info(s->input); });
}

}  // namespace routesolve::app
