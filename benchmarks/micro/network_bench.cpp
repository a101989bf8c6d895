// Road networks and CPU travel matrices (Boost.Graph Dijkstra per source), Google Benchmark:
//   Import/<Region>                          OSM .pbf import (largest SCC, car profile)
//   CacheLoad/<Region>                       the same network from its .rsnet cache
//   Matrix/<Region>/cpu/<n>/threads:<t>      n x n matrix between n random snapped stops
// Regions come from ../shared/datasets/roads/osm (or $ROUTESOLVE_BENCH_DATASETS, as run-all
// exports, or $ROUTESOLVE_DATASETS); missing files are skipped. Stops are uniform random points in
// the network's bounding box (fixed seed), kept when a road lies within 500 m, as dispatch stops
// would be. The matrix is the many-to-many query only: the Boost graph is built once per network,
// as a long-running service would keep it. Counters: seconds per matrix, settled nodes per second
// (summed over threads), nodes, arcs.
//
//   bench_network --benchmark_filter='Matrix/Liechtenstein/cpu/1000/threads:2'

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "bench_datasets.hpp"
#include "bench_support.hpp"
#include "routesolve/io/road_formats.hpp"
#include "routesolve/network/dijkstra_matrix.hpp"
#include "routesolve/network/road_router.hpp"

namespace fs = std::filesystem;
using namespace routesolve;

namespace {

using bench::datasets_dir;

struct Region {
  std::string name;
  std::string file;
};

const std::vector<Region> kRegions = {{"Monaco", "monaco.osm.pbf"},
                                      {"Rome", "rome.osm.pbf"},
                                      {"NYC", "nyc.osm.pbf"},
                                      {"Baltimore", "baltimore.osm.pbf"},
                                      {"Liechtenstein", "liechtenstein-latest.osm.pbf"}};
const std::vector<std::string> kMatrixRegions = {"Liechtenstein", "Baltimore"};
const std::vector<std::size_t> kMatrixSizes = {100, 500, 1000, 2000};
const std::vector<unsigned> kThreads = {1, 2};

fs::path region_file(const Region& r) { return datasets_dir() / "roads" / "osm" / r.file; }

/// Each network is imported once, its router (snapping index + Boost graph) built once.
const network::RoadRouter& router_for(const Region& r) {
  static std::map<std::string, std::unique_ptr<network::RoadRouter>> routers;
  auto& slot = routers[r.name];
  if (!slot) slot = std::make_unique<network::RoadRouter>(io::read_osm_pbf(region_file(r)));
  return *slot;
}

using bench::random_stops;

void set_network_counters(benchmark::State& state, const RoadNetwork& net) {
  state.counters["nodes"] = static_cast<double>(net.graph.node_count());
  state.counters["arcs"] = static_cast<double>(net.graph.arc_count());
}

void bench_import(benchmark::State& state, const Region& r) {
  RoadNetwork net;
  for (auto _ : state) {
    net = io::read_osm_pbf(region_file(r));
    benchmark::DoNotOptimize(net.graph.head.data());
  }
  set_network_counters(state, net);
}

void bench_cache_load(benchmark::State& state, const Region& r) {
  const fs::path cache = fs::temp_directory_path() / ("routesolve_bench_" + r.name + ".rsnet");
  const RoadNetwork imported = io::read_osm_pbf(region_file(r));
  io::write_network_cache(imported, cache);
  RoadNetwork net;
  for (auto _ : state) {
    net = io::read_network_cache(cache);
    benchmark::DoNotOptimize(net.graph.head.data());
  }
  set_network_counters(state, net);
  state.counters["import_s"] = imported.report.import_seconds;
  std::error_code ec;
  fs::remove(cache, ec);
}

void bench_matrix(benchmark::State& state, const Region& r, std::size_t n, unsigned threads) {
  const network::RoadRouter& router = router_for(r);
  const std::vector<NodeId> stops = random_stops(router, n);
  std::uint64_t settled = 0;
  double seconds = 0.0;
  for (auto _ : state) {
    network::MatrixStats stats;
    const NodeMatrices m = router.engine().many_to_many(stops, stops, threads, &stats);
    benchmark::DoNotOptimize(m.durations.data());
    settled += stats.settled_nodes;
    seconds += stats.seconds;
  }
  const double iterations = static_cast<double>(state.iterations());
  state.counters["seconds"] = seconds / iterations;
  state.counters["settled_nodes_per_s"] =
      seconds > 0 ? static_cast<double>(settled) / seconds : 0.0;
  set_network_counters(state, router.network());
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

  for (const Region& r : kRegions) {
    if (!fs::exists(region_file(r))) continue;  // skipped: dataset not present
    // Fixed iteration counts: the work runs on worker threads (libosmium, matrix threads), so the
    // main thread's CPU time cannot decide how often to repeat; "Time" is wall-clock time.
    benchmark::RegisterBenchmark(("Import/" + r.name).c_str(), bench_import, r)
        ->Unit(benchmark::kMillisecond)
        ->Iterations(3);
    benchmark::RegisterBenchmark(("CacheLoad/" + r.name).c_str(), bench_cache_load, r)
        ->Unit(benchmark::kMillisecond)
        ->Iterations(20);
  }
  for (const Region& r : kRegions) {
    if (!fs::exists(region_file(r))) continue;
    bool wanted = false;
    for (const auto& name : kMatrixRegions) wanted = wanted || name == r.name;
    if (!wanted) continue;
    for (const std::size_t n : kMatrixSizes)
      for (const unsigned t : kThreads) {
        const std::string name =
            "Matrix/" + r.name + "/cpu/" + std::to_string(n) + "/threads:" + std::to_string(t);
        benchmark::RegisterBenchmark(name.c_str(), bench_matrix, r, n, t)
            ->Unit(benchmark::kMillisecond)
            ->Iterations(n <= 100   ? 5
                         : n <= 500 ? 2
                                    : 1);  // 1000 and 2000: seconds each, one run
      }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
