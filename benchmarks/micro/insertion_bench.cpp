// Insertion pricing per second: the search driver's hot operation on each engine, one run:
//   Insertion/<instance>/chains:B/cpu         the segment engine (the cpu backend's): positions
//                                             one after the other, bounded by the best so far
//   Insertion/<instance>/chains:B/cuda-host   the batched engine's host twin, one thread
//   Insertion/<instance>/chains:B/cuda        the device engine, pinned transfers (skipped
//                                             without a device)
//   Insertion/<instance>/chains:B/cuda-naive  the device engine, one pageable copy per array
// A call prices one request per chain (B chains in lockstep, each its own solution: the
// instance's cuda-host solution after 100 iterations with a tenth of its tasks taken out), every
// tour holding one of the task's 24 nearest tasks a candidate, as the recreate asks. Between
// calls every chain's best position is taken and given back (two tour changes per chain, what
// the device engine has to upload again). Only the pricing calls are timed.
// items_per_second = rows (positions, or pickup positions of a shipment) priced per second;
// counters: requests per call, ms per call, tours uploaded per call, and for the device h2d /
// kernel / d2h ms per call and the transfer share of the device time.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench_datasets.hpp"
#include "insertion/insertion_engines.hpp"
#include "routesolve/cuda/cuda_backend.hpp"
#include "routesolve/cuda/search_backend.hpp"
#include "routesolve/io/formats.hpp"
#include "routesolve/search/neighbours.hpp"
#include "routesolve/search/working_solution.hpp"

namespace {

using namespace routesolve;

struct Fixture {
  ProblemPtr problem;
  std::unique_ptr<search::SegmentModel> model;
  std::unique_ptr<search::Neighbours> near;
  std::vector<std::size_t> insertable;
  search::TourPlan plan;
};

std::filesystem::path instance_file(const std::string& name) {
  return bench::datasets_dir() / "cvrp" / "x" / (name + ".vrp");
}

Fixture& fixture(const std::string& name) {
  static std::map<std::string, std::unique_ptr<Fixture>> cache;
  auto& slot = cache[name];
  if (slot) return *slot;
  slot = std::make_unique<Fixture>();
  slot->problem = Problem::create(io::read_problem(instance_file(name)));
  slot->model = std::make_unique<search::SegmentModel>(*slot->problem);
  slot->near = std::make_unique<search::Neighbours>(*slot->problem, 24);
  for (std::size_t t = 0; t < slot->problem->tasks().size(); ++t)
    if (slot->problem->task(t).type != TaskType::Delivery) slot->insertable.push_back(t);
  SolveOptions options;
  options.iterations = 100;
  const Solution s = cuda::make_cuda_host_backend()->solve(*slot->problem, options);
  slot->plan.assign(slot->problem->vehicles().size(), {});
  for (const Route& r : s.routes)
    for (const Step& st : r.steps)
      if (st.task != kNone) slot->plan[r.vehicle].push_back(st.task);
  return *slot;
}

void insertion_bench(benchmark::State& state, const std::string& name, const std::string& kind,
                     unsigned chains) {
  if (!std::filesystem::exists(instance_file(name))) {
    state.SkipWithError("dataset not found");
    return;
  }
  const bool device = kind == "cuda" || kind == "cuda-naive";
  if (device && !cuda::device_available()) {
    state.SkipWithError(("no CUDA device: " + cuda::device_unavailable_reason()).c_str());
    return;
  }
  Fixture& f = fixture(name);
  std::unique_ptr<search::InsertionEngine> engine;
  if (kind == "cpu")
    engine = search::make_segment_engine();
  else if (kind == "cuda-host")
    engine = cuda::insertion::make_host_engine(1);
  else
    engine = cuda::insertion::make_device_engine(
        DeviceOptions{0, kind == "cuda" ? TransferMode::Pinned : TransferMode::Naive, {}});
  // B solutions, each missing a tenth of its tasks (its own random tenth).
  std::vector<search::WorkingSolution> solutions;
  std::vector<std::vector<std::size_t>> out;
  solutions.reserve(chains);
  for (unsigned c = 0; c < chains; ++c) {
    solutions.emplace_back(*f.model, f.insertable);
    solutions.back().load(f.plan);
    std::mt19937_64 rng(c + 1);
    std::vector<std::size_t> removed;
    for (std::size_t t : f.insertable)
      if (rng() % 10 == 0) removed.push_back(t);
    solutions.back().remove(removed);
    out.push_back(solutions.back().unassigned_tasks());
  }
  std::vector<std::vector<std::size_t>> candidates(chains);
  std::vector<search::InsertionRequest> requests(chains);
  std::vector<search::InsertionChoice> choices(chains);
  std::uint64_t rows = 0, calls = 0, round = 0;
  for (auto _ : state) {
    for (unsigned c = 0; c < chains; ++c) {
      const search::WorkingSolution& s = solutions[c];
      const std::size_t task = out[c][round % out[c].size()];
      candidates[c].clear();
      for (std::size_t w : f.near->of(task))
        if (s.assigned(w) && std::find(candidates[c].begin(), candidates[c].end(), s.route_of(w)) ==
                                 candidates[c].end())
          candidates[c].push_back(s.route_of(w));
      requests[c] = search::InsertionRequest{&s, task, candidates[c], round * 7919 + c,
                                             search::blink_threshold(0.01)};
      for (std::size_t v : candidates[c]) rows += s.tour(v).size() + 1;
    }
    const auto t0 = std::chrono::steady_clock::now();
    engine->price(requests, choices);
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    benchmark::DoNotOptimize(choices.data());
    for (unsigned c = 0; c < chains; ++c) {  // take the position and give it back: two tour changes
      if (!choices[c].found()) continue;
      solutions[c].insert(requests[c].task, choices[c].vehicle, choices[c].i);
      solutions[c].remove({requests[c].task});
    }
    ++calls;
    ++round;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(rows));
  const double n = static_cast<double>(calls);
  state.counters["requests"] = chains;
  if (auto* batched = dynamic_cast<cuda::insertion::BatchedEngine*>(engine.get())) {
    const cuda::insertion::InsertionStats& st = batched->stats();
    state.counters["uploads_per_call"] = static_cast<double>(st.tours_uploaded) / n;
    if (device) {
      const double gpu = st.h2d + st.kernels + st.d2h;
      state.counters["h2d_ms"] = st.h2d / n * 1e3;
      state.counters["kernel_ms"] = st.kernels / n * 1e3;
      state.counters["d2h_ms"] = st.d2h / n * 1e3;
      state.counters["transfer_share"] = gpu > 0 ? (st.h2d + st.d2h) / gpu : 0.0;
    }
  }
}

const char* const kInstances[] = {"X-n101-k25", "X-n502-k39", "X-n979-k58"};

int register_all() {
  for (const char* inst : kInstances)
    for (const unsigned chains : {1u, 8u, 64u, 512u})
      for (const char* kind : {"cpu", "cuda-host", "cuda", "cuda-naive"}) {
        const std::string name = inst, k = kind;
        benchmark::RegisterBenchmark(
            ("Insertion/" + name + "/chains:" + std::to_string(chains) + "/" + k).c_str(),
            [name, k, chains](benchmark::State& s) { insertion_bench(s, name, k, chains); })
            ->UseManualTime()
            ->Unit(benchmark::kMicrosecond);
      }
  return 0;
}
const int registered = register_all();

}  // namespace

BENCHMARK_MAIN();
