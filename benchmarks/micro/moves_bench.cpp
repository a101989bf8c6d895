// Moves priced per second, on CVRPLIB X instances of 100-1000 customers (X-n101-k25 ... X-n979-k58), one run:
//   Moves/<instance>/cpu-exact          one move at a time: apply it, schedule_route the changed
//                                       routes (what a CPU operator's is_valid() costs)
//   Moves/<instance>/cpu-one-at-a-time  one move at a time through the O(1) pricing functor, one thread
//   Moves/<instance>/cuda-host          the batched host twin, a batch of 8 solutions per call
//   Moves/<instance>/cuda               the device engine, same batch (skipped without a device)
//   Moves/<instance>/cuda-naive         the device engine with pageable per-array copies
//   Moves/<instance>/cuda-host-descent  a whole descent inside the engine (load, rounds of
//                                       pricing + selection + application until no move is
//                                       left, fetch) from 8 perturbed copies of the solution
//   Moves/<instance>/cuda-descent       the same on the device (skipped without a device)
// items_per_second = (customer, neighbour, move type) triples priced per second. The solution
// is the cuda-host search's after 100 iterations (seed 1), copied 8 times.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench_datasets.hpp"
#include "routesolve/cuda/cuda_backend.hpp"
#include "routesolve/io/formats.hpp"
#include "routesolve/cuda/search_backend.hpp"
#include "search/batched_search.hpp"
#include "search/search_engine.hpp"

namespace {

using namespace routesolve;
using namespace routesolve::cuda::batched;
namespace ds = routesolve::cuda::detail::batched;

constexpr unsigned kBatch = 8;
constexpr unsigned kNeighbours = 16;

struct Fixture {
  ProblemPtr problem;
  PackedProblem packed;
  std::vector<RouteSet> solutions;
  PackedBatch batch;
  std::vector<RouteSet> perturbed;  // the solution with n / 10 random feasible relocations, per copy
  PackedBatch perturbed_batch;
};

/// n / 10 random relocations of single tasks, each kept when schedule_route accepts both routes.
RouteSet perturb(const Problem& p, RouteSet rs, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::size_t moves = std::max<std::size_t>(1, p.tasks().size() / 10);
  for (std::size_t i = 0; i < moves * 4 && i < 100000; ++i) {
    const std::size_t a = rng() % rs.size(), b = rng() % rs.size();
    if (rs[a].empty()) continue;
    RouteSet next = rs;
    const auto from = static_cast<std::ptrdiff_t>(rng() % next[a].size());
    const std::int32_t t = next[a][static_cast<std::size_t>(from)];
    next[a].erase(next[a].begin() + from);
    next[b].insert(next[b].begin() + static_cast<std::ptrdiff_t>(rng() % (next[b].size() + 1)), t);
    bool ok = true;
    for (const std::size_t v : {a, b})
      ok = ok && (next[v].empty() || schedule_route(p, v, {next[v].begin(), next[v].end()}).feasible);
    if (ok) rs = std::move(next);
  }
  return rs;
}

Fixture& fixture(const std::string& name) {
  static std::map<std::string, std::unique_ptr<Fixture>> cache;
  auto& slot = cache[name];
  if (slot) return *slot;
  slot = std::make_unique<Fixture>();
  const std::filesystem::path file =
      bench::datasets_dir() / "cvrp" / "x" / (name + ".vrp");
  slot->problem = Problem::create(io::read_problem(file));
  slot->packed = pack_problem(*slot->problem, kNeighbours);
  SolveOptions options;
  options.iterations = 100;
  const Solution s = cuda::make_cuda_host_backend()->solve(*slot->problem, options);
  RouteSet rs(slot->problem->vehicles().size());
  for (const Route& r : s.routes)
    for (const Step& st : r.steps)
      if (st.task != kNone) rs[r.vehicle].push_back(static_cast<std::int32_t>(st.task));
  slot->solutions.assign(kBatch, rs);
  std::vector<const RouteSet*> ptrs;
  for (const auto& x : slot->solutions) ptrs.push_back(&x);
  slot->batch = pack_batch(slot->packed, ptrs);
  std::vector<const RouteSet*> perturbed;
  for (unsigned i = 0; i < kBatch; ++i) slot->perturbed.push_back(perturb(*slot->problem, rs, i + 1));
  for (const auto& x : slot->perturbed) perturbed.push_back(&x);
  slot->perturbed_batch = pack_batch(slot->packed, perturbed);
  return *slot;
}

void engine_bench(benchmark::State& state, const std::string& name, const std::string& kind) {
  if (!std::filesystem::exists(bench::datasets_dir() / "cvrp" / "x" / (name + ".vrp"))) {
    state.SkipWithError("dataset not found");
    return;
  }
  if (kind != "cuda-host" && !cuda::device_available()) {
    state.SkipWithError(("no CUDA device: " + cuda::device_unavailable_reason()).c_str());
    return;
  }
  Fixture& f = fixture(name);
  std::unique_ptr<MoveEngine> engine =
      kind == "cuda-host" ? make_host_engine(2)
                          : make_device_engine(kind == "cuda" ? TransferMode::Pinned : TransferMode::Naive);
  engine->set_problem(f.packed);
  std::vector<Move> best;
  EngineTimes times;
  for (auto _ : state) {
    engine->evaluate(f.batch, best, times);
    benchmark::DoNotOptimize(best.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(times.moves));
  const double n = static_cast<double>(times.calls);
  state.counters["h2d_ms"] = times.h2d / n * 1e3;
  state.counters["kernel_ms"] = times.kernels / n * 1e3;
  state.counters["d2h_ms"] = times.d2h / n * 1e3;
}

void descent_bench(benchmark::State& state, const std::string& name, bool device) {
  if (!std::filesystem::exists(bench::datasets_dir() / "cvrp" / "x" / (name + ".vrp"))) {
    state.SkipWithError("dataset not found");
    return;
  }
  if (device && !cuda::device_available()) {
    state.SkipWithError(("no CUDA device: " + cuda::device_unavailable_reason()).c_str());
    return;
  }
  Fixture& f = fixture(name);
  std::unique_ptr<MoveEngine> engine = device ? make_device_engine(TransferMode::Pinned) : make_host_engine(2);
  engine->set_problem(f.packed);
  EngineTimes times;
  std::vector<std::uint32_t> applied;
  std::vector<std::int64_t> gain;
  PackedBatch out = f.perturbed_batch;
  std::uint64_t moves_applied = 0;
  std::int64_t gained = 0;
  for (auto _ : state) {
    engine->load(f.perturbed_batch, times);
    for (int round = 0; round < 10000; ++round) {
      engine->round(applied, gain, times);
      std::uint32_t any = 0;
      for (std::size_t s = 0; s < applied.size(); ++s) {
        any += applied[s];
        moves_applied += applied[s];
        gained += gain[s];
      }
      if (any == 0) break;
    }
    engine->fetch(out, times);
    benchmark::DoNotOptimize(out.arena.bytes.data());
  }
  const double n = static_cast<double>(state.iterations());
  state.SetItemsProcessed(static_cast<std::int64_t>(times.moves));
  state.counters["rounds"] = static_cast<double>(times.rounds) / n;
  state.counters["applied"] = static_cast<double>(moves_applied) / n;
  state.counters["gain"] = static_cast<double>(gained) / n;
  state.counters["h2d_ms"] = times.h2d / n * 1e3;
  state.counters["kernel_ms"] = times.kernels / n * 1e3;
  state.counters["d2h_ms"] = times.d2h / n * 1e3;
}

void one_at_a_time_bench(benchmark::State& state, const std::string& name, bool exact) {
  if (!std::filesystem::exists(bench::datasets_dir() / "cvrp" / "x" / (name + ".vrp"))) {
    state.SkipWithError("dataset not found");
    return;
  }
  Fixture& f = fixture(name);
  const ProblemView pv = f.packed.view(f.packed.arena.bytes.data());
  const BatchView bv = f.batch.view(f.batch.arena.bytes.data());
  HostPrefix prefix;
  build_prefix_host(pv, bv, f.batch.routes, prefix, 1);
  const auto tasks = static_cast<std::int32_t>(f.packed.tasks);
  std::int64_t moves = 0;
  std::int32_t u = 0;
  for (auto _ : state) {
    // One customer per iteration: its K neighbours x 7 move types.
    for (std::uint32_t k = 0; k < f.packed.neighbours; ++k) {
      const std::int32_t v = pv.neighbour[static_cast<std::size_t>(u) * f.packed.neighbours + k];
      const bool pickup = (pv.task_flags[u] & ds::kTaskPickup) != 0u;  // X instances: none
      for (std::uint32_t type = 0; type < (pickup ? ds::kMoveTypes : ds::kPairRelocate); ++type) {
        if (!exact) {
          benchmark::DoNotOptimize(ds::price_move(pv, bv, prefix.view, 0, u, v, type));
        } else {
          ds::RouteSpec spec[2];
          const std::uint32_t n = ds::make_specs(pv, bv, prefix.view, 0, u, v, type, 0, spec);
          for (std::uint32_t i = 0; i < n; ++i) {
            const auto seq = materialize(bv, spec[i]);
            benchmark::DoNotOptimize(schedule_route(*f.problem, spec[i].veh, {seq.begin(), seq.end()}));
          }
        }
        ++moves;
      }
    }
    u = (u + 1) % tasks;
  }
  state.SetItemsProcessed(moves);
}

const char* const kInstances[] = {"X-n101-k25", "X-n251-k28", "X-n502-k39", "X-n979-k58"};

int register_all() {
  for (const char* inst : kInstances) {
    const std::string name = inst;
    benchmark::RegisterBenchmark(("Moves/" + name + "/cpu-exact").c_str(),
                                 [name](benchmark::State& s) { one_at_a_time_bench(s, name, true); })
        ->UseRealTime();
    benchmark::RegisterBenchmark(("Moves/" + name + "/cpu-one-at-a-time").c_str(),
                                 [name](benchmark::State& s) { one_at_a_time_bench(s, name, false); })
        ->UseRealTime();
    for (const char* kind : {"cuda-host", "cuda", "cuda-naive"}) {
      const std::string k = kind;
      benchmark::RegisterBenchmark(("Moves/" + name + "/" + k).c_str(),
                                   [name, k](benchmark::State& s) { engine_bench(s, name, k); })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
    for (const bool device : {false, true})
      benchmark::RegisterBenchmark(("Moves/" + name + (device ? "/cuda-descent" : "/cuda-host-descent")).c_str(),
                                   [name, device](benchmark::State& s) { descent_bench(s, name, device); })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
  }
  return 0;
}
const int registered = register_all();

}  // namespace

BENCHMARK_MAIN();
