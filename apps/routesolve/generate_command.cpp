// `routesolve generate`: a fleet scenario for the migration benchmark.
//   routesolve generate --trucks N --stops M [--network FILE] [--seed S] [--depots D] -o FILE
//                       [--write-network CITY.rsnet] [--capacity-dims 1|2] [--city-streets K]
// Without --network the stops lie on the built-in synthetic city; --write-network writes the
// network the stops lie on as a .rsnet cache (with its contraction hierarchy), ready for
// `routesolve solve FILE --network CITY.rsnet`.

#include <fmt/core.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "cli_common.hpp"
#include "routesolve/contraction_hierarchy.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/road_formats.hpp"
#include "routesolve/scenario/scenario.hpp"

namespace fs = std::filesystem;

namespace routesolve::app {
namespace {

struct GenerateArgs {
  scenario::ScenarioOptions scenario;
  scenario::SyntheticCityOptions city;
  std::string network, output, write_network;
  bool quiet = false;
};

void write_text_atomically(const std::string& file, const std::string& text) {
  io::write_file_atomically(file, text);
}

int run_generate(const GenerateArgs& a) {
  const auto t0 = std::chrono::steady_clock::now();
  if (!a.network.empty() && !fs::exists(a.network))
    throw invalid_input(a.network, "road network file not found");
  const RoadNetwork net =
      a.network.empty() ? scenario::synthetic_city(a.city) : io::read_network(a.network);
  const std::string text = scenario::generate_scenario(net.graph, a.scenario);
  if (a.output.empty() || a.output == "-") {
    fmt::print("{}", text);
  } else {
    write_text_atomically(a.output, text);
  }
  if (!a.write_network.empty()) {
    io::write_network_cache(net, a.write_network);
    const ContractionHierarchy ch = build_contraction_hierarchy(net.graph);
    io::add_cache_section(a.write_network, io::CacheSection{kChCacheSection, ch.to_bytes()});
  }
  if (!a.quiet) {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    fmt::print(
        stderr,
        "generate: {} trucks ({} depot{}), {} stops on {} ({} nodes), seed {} -> {}{} ({:.2f} s)\n",
        a.scenario.trucks, a.scenario.depots, a.scenario.depots == 1 ? "" : "s", a.scenario.stops,
        a.network.empty() ? "the synthetic city" : a.network, net.graph.node_count(),
        a.scenario.seed, a.output.empty() ? "stdout" : a.output,
        a.write_network.empty() ? "" : ", network -> " + a.write_network, seconds);
    if (a.network.empty() && a.write_network.empty())
      fmt::print(stderr,
                 "note: the stops lie on the synthetic city; pass --write-network CITY.rsnet and "
                 "solve with "
                 "--network CITY.rsnet for road travel times\n");
  }
  return 0;
}

}  // namespace

void add_generate_command(CLI::App& app, int* exit_status) {
  auto a = std::make_shared<GenerateArgs>();
  auto* cmd = app.add_subcommand("generate",
                                 "Generate a fleet scenario (VROOM JSON with coordinates) on a "
                                 "road network or the synthetic city");
  cmd->add_option("--trucks", a->scenario.trucks, "Trucks in the fleet")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--stops", a->scenario.stops, "Stops (jobs) to serve")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--depots", a->scenario.depots,
                  "Depots (truck i starts and ends at depot i mod D)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--seed", a->scenario.seed, "Random seed: same arguments, same file")
      ->capture_default_str();
  cmd->add_option("--capacity-dims", a->scenario.capacity_dims,
                  "Capacity dimensions: 1 (kg) or 2 (kg, litres)")
      ->check(CLI::Range(1, 2))
      ->capture_default_str();
  cmd->add_option(
      "--network", a->network,
      "Road network (.osm.pbf, .gr, edge list or .rsnet); default: the built-in synthetic city");
  cmd->add_option("--city-streets", a->city.streets, "Synthetic city: streets per direction")
      ->check(CLI::Range(2, 1000))
      ->capture_default_str();
  cmd->add_option(
      "--write-network", a->write_network,
      "Also write the network the stops lie on as a .rsnet cache (with its contraction hierarchy)");
  cmd->add_option("-o,--output", a->output,
                  "Scenario file to write (VROOM JSON; '-' for standard output)")
      ->required();
  cmd->add_flag("-q,--quiet", a->quiet, "Print nothing on stderr");
  cmd->callback([a, exit_status] { *exit_status = run_generate(*a); });
}

}  // namespace routesolve::app
