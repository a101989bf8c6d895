// Travel-matrix backends side by side (Google Benchmark), on the same stops as bench_network:
//   ChBuild/<Region>                         contraction hierarchy construction (once per network)
//   Matrix/<Region>/cpu/<n>/threads:2        Boost.Graph Dijkstra per source (CPU reference)
//   Matrix/<Region>/cuda-host/<n>/threads:2  PHAST/RPHAST sweeps, host twin
//   Matrix/<Region>/cuda/<n>/<transfer>      the same on the GPU (skipped without a device)
// n x n matrices between n random snapped stops (seed 20261129), n = 100, 500, 1000, 2000, on
// Liechtenstein and Baltimore. Counters: seconds per matrix; relaxations_per_s (sweep arcs x
// sources over the sweep time for PHAST; settled nodes per second for Boost); speedup_vs_boost
// (Boost's time for the same matrix over this one's). Every PHAST matrix is checked against
// Boost's, entry by entry: the reference is the cpu row's when it ran, else computed on the
// spot, so a filter on the cuda rows alone still compares them; a mismatch fails that row and
// the program exits 1. Datasets: $ROUTESOLVE_BENCH_DATASETS (what run-all exports), else
// $ROUTESOLVE_DATASETS, else the configured folder.
//
//   bench_matrix_backends --benchmark_filter='Matrix/Liechtenstein/.*/1000/'
//   bench_matrix_backends --benchmark_filter='Matrix/Liechtenstein/cuda-host/1000'

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench_datasets.hpp"
#include "bench_support.hpp"
#include "routesolve/contraction_hierarchy.hpp"
#include "routesolve/cuda/cuda_backend.hpp"
#include "routesolve/cuda/matrix_engine.hpp"
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

const std::vector<Region> kRegions = {{"Liechtenstein", "liechtenstein-latest.osm.pbf"},
                                      {"Baltimore", "baltimore.osm.pbf"}};
const std::vector<std::size_t> kSizes = {100, 500, 1000, 2000};
constexpr unsigned kThreads = 2;

fs::path region_file(const Region& r) { return datasets_dir() / "roads" / "osm" / r.file; }

struct Prepared {
  std::unique_ptr<network::RoadRouter> router;
  ContractionHierarchy ch;
  ChBuildStats ch_stats;
};

/// Each network is imported, routed (snapping + Boost graph) and contracted once.
Prepared& prepared(const Region& r) {
  static std::map<std::string, std::unique_ptr<Prepared>> cache;
  auto& slot = cache[r.name];
  if (!slot) {
    slot = std::make_unique<Prepared>();
    slot->router = std::make_unique<network::RoadRouter>(io::read_osm_pbf(region_file(r)));
    slot->ch = build_contraction_hierarchy(slot->router->graph(), {}, &slot->ch_stats);
  }
  return *slot;
}

using bench::random_stops;

/// Boost's matrix and time per (region, n), the reference of the PHAST runs.
struct Reference {
  NodeMatrices matrices;
  double seconds = 0.0;
};
std::map<std::string, Reference>& references() {
  static std::map<std::string, Reference> refs;
  return refs;
}

/// PHAST runs whose matrix differed from Boost.Graph's: main exits 1 when there is one.
int g_mismatches = 0;

/// Boost's matrix of (region, n): the one its own row measured, else computed now (so that every
/// PHAST row is compared, whatever the filter ran before it).
const Reference& reference(const Region& r, std::size_t n, const Prepared& p,
                           const std::vector<NodeId>& stops) {
  auto& slot = references()[r.name + "/" + std::to_string(n)];
  if (slot.matrices.rows == 0 && !stops.empty()) {
    network::MatrixStats stats;
    slot.matrices = p.router->engine().many_to_many(stops, stops, kThreads, &stats);
    slot.seconds = stats.seconds;
  }
  return slot;
}

void set_graph_counters(benchmark::State& state, const Prepared& p) {
  state.counters["nodes"] = static_cast<double>(p.router->graph().node_count());
  state.counters["arcs"] = static_cast<double>(p.router->graph().arc_count());
}

void bench_ch_build(benchmark::State& state, const Region& r) {
  Prepared& p = prepared(r);
  ChBuildStats stats;
  for (auto _ : state) {
    const ContractionHierarchy ch = build_contraction_hierarchy(p.router->graph(), {}, &stats);
    benchmark::DoNotOptimize(ch.up_head.data());
  }
  state.counters["shortcuts"] = static_cast<double>(stats.shortcuts);
  state.counters["levels"] = static_cast<double>(stats.levels);
  state.counters["up_arcs"] = static_cast<double>(p.ch.up_arc_count());
  set_graph_counters(state, p);
}

void bench_boost(benchmark::State& state, const Region& r, std::size_t n) {
  Prepared& p = prepared(r);
  const std::vector<NodeId> stops = random_stops(*p.router, n);
  double seconds = 0.0;
  std::uint64_t settled = 0;
  NodeMatrices m;
  for (auto _ : state) {
    network::MatrixStats stats;
    m = p.router->engine().many_to_many(stops, stops, kThreads, &stats);
    seconds += stats.seconds;
    settled += stats.settled_nodes;
  }
  const double per = seconds / static_cast<double>(state.iterations());
  references()[r.name + "/" + std::to_string(n)] = Reference{std::move(m), per};
  state.counters["seconds"] = per;
  state.counters["relaxations_per_s"] = seconds > 0 ? static_cast<double>(settled) / seconds : 0.0;
  set_graph_counters(state, p);
}

void bench_phast(benchmark::State& state, const Region& r, std::size_t n,
                 cuda::PhastOptions options) {
  if (options.device == cuda::MatrixDevice::Cuda && !cuda::device_available()) {
    state.SkipWithError(("no CUDA device: " + cuda::device_unavailable_reason()).c_str());
    return;
  }
  Prepared& p = prepared(r);
  const std::vector<NodeId> stops = random_stops(*p.router, n);
  cuda::PhastMatrixEngine engine(p.router->graph(), p.ch, options);
  NodeMatrices m = engine.compute(stops, stops);  // warm-up: selection, first allocations
  const Reference& ref = reference(r, n, p, stops);
  if (m.durations != ref.matrices.durations || m.distances != ref.matrices.distances) {
    ++g_mismatches;
    std::fprintf(stderr, "MISMATCH: %s %zu stops: the PHAST matrix differs from Boost.Graph's\n",
                 r.name.c_str(), n);
    state.SkipWithError("PHAST matrix differs from Boost.Graph's");
    return;
  }
  state.counters["boost_checked"] = 1;
  double seconds = 0.0, sweep = 0.0;
  std::uint64_t relaxations = 0;
  cuda::MatrixProfile profile;
  for (auto _ : state) {
    m = engine.compute(stops, stops, &profile);
    benchmark::DoNotOptimize(m.durations.data());
    seconds += profile.total;
    sweep += profile.sweep;
    relaxations += profile.relaxations;
  }
  const double per = seconds / static_cast<double>(state.iterations());
  state.counters["seconds"] = per;
  state.counters["relaxations_per_s"] = sweep > 0 ? static_cast<double>(relaxations) / sweep : 0.0;
  state.counters["selected_nodes"] = static_cast<double>(profile.selected_nodes);
  state.counters["selected_arcs"] = static_cast<double>(profile.selected_arcs);
  if (per > 0 && ref.seconds > 0) state.counters["speedup_vs_boost"] = ref.seconds / per;
  state.SetLabel(cuda::format_profile(profile));
  set_graph_counters(state, p);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  for (const Region& r : kRegions) {
    if (!fs::exists(region_file(r))) continue;  // skipped: dataset not present
    benchmark::RegisterBenchmark(("ChBuild/" + r.name).c_str(), bench_ch_build, r)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(1);
    for (const std::size_t n : kSizes) {
      // Stage/network/backend/size/variant, as in bench_network: filter with e.g.
      // --benchmark_filter=Matrix/Liechtenstein/cuda-host/1000
      const std::string region = "Matrix/" + r.name + "/";
      std::string size = "/";  // appended, not "/" + to_string(n): GCC 12 -Wrestrict false positive
      size += std::to_string(n);
      auto* boost = benchmark::RegisterBenchmark((region + "cpu" + size + "/threads:2").c_str(),
                                                 bench_boost, r, n)
                        ->Unit(benchmark::kMillisecond)
                        ->UseRealTime();
      if (n >= 1000) boost->Iterations(1);
      cuda::PhastOptions host;
      host.device = cuda::MatrixDevice::Host;
      host.threads = kThreads;
      benchmark::RegisterBenchmark((region + "cuda-host" + size + "/threads:2").c_str(),
                                   bench_phast, r, n, host)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
      for (const auto mode : {TransferMode::Pinned, TransferMode::Naive}) {
        cuda::PhastOptions gpu;
        gpu.device = cuda::MatrixDevice::Cuda;
        gpu.transfer = mode;
        const std::string name =
            region + "cuda" + size + "/" + (mode == TransferMode::Pinned ? "batched" : "naive");
        benchmark::RegisterBenchmark(name.c_str(), bench_phast, r, n, gpu)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
      }
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (g_mismatches > 0) {
    std::fprintf(stderr, "bench_matrix_backends: %d PHAST matrices differ from Boost.Graph's\n",
                 g_mismatches);
    return 1;
  }
  return 0;
}
