// Concurrent use of the library: solve() from many threads at once gives each caller
// exactly what a sequential run with the same seed and threads gives (byte-identical VROOM JSON,
// computing_times aside), and the shared read-only network structures answer concurrent queries
// (RoadRouter / DijkstraMatrixEngine, a ContractionHierarchy shared by several PhastMatrixEngines).
// The TSan build runs this binary (docs/RELIABILITY.md).

#include <gtest/gtest.h>

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "routesolve/contraction_hierarchy.hpp"
#include "routesolve/cuda/matrix_engine.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "routesolve/network/matrix_provider.hpp"
#include "routesolve/network/road_router.hpp"
#include "routesolve/scenario/scenario.hpp"
#include "routesolve/search/worker_pool.hpp"
#include "routesolve/solve.hpp"
#include "routesolve/validator.hpp"

namespace routesolve {
namespace {

// Under TSan, every solve runs one thread of its own: the GNU OpenMP runtime that the threaded
// paths use is not instrumented, so TSan cannot see its barriers and reports false races inside
// a solve. What TSan checks here is the contract of this file: solves and queries running at the
// same time share nothing mutable.
#if defined(__SANITIZE_THREAD__)
constexpr bool kTsan = true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
constexpr bool kTsan = true;
#else
constexpr bool kTsan = false;
#endif
#else
constexpr bool kTsan = false;
#endif

unsigned threads_for(std::size_t i) { return kTsan ? 1u : 1u + static_cast<unsigned>(i % 2); }

// Small streets so that TSan runs stay short.
const RoadNetwork& city() {
  static const RoadNetwork network =
      scenario::synthetic_city({.streets = 16, .spacing_m = 200.0, .arterial_every = 4});
  return network;
}

ProblemPtr scenario_problem(std::size_t trucks, std::size_t stops, std::uint64_t seed,
                            std::size_t dims) {
  scenario::ScenarioOptions o;
  o.trucks = trucks;
  o.stops = stops;
  o.seed = seed;
  o.capacity_dims = dims;
  ProblemSpec spec = io::parse_vroom_problem(scenario::generate_scenario(city().graph, o),
                                             "scenario-" + std::to_string(seed));
  network::fill_matrices(spec, network::GreatCircleProvider{});
  return Problem::create(std::move(spec));
}

/// VROOM JSON of a solution without computing_times (the only field that depends on the clock).
std::string canonical_json(const Problem& problem, const Solution& solution) {
  nlohmann::ordered_json j =
      nlohmann::ordered_json::parse(io::vroom_solution_to_string(problem, solution));
  if (j.contains("summary")) j["summary"].erase("computing_times");
  return j.dump();
}

struct Case {
  ProblemPtr problem;
  SolveOptions options;
};

std::vector<Case> eight_cases() {
  std::vector<Case> cases;
  for (std::size_t i = 0; i < 8; ++i) {
    Case c;
    c.problem = scenario_problem(3 + i % 3, 24 + 4 * i, 100 + i, 1 + i % 2);
    c.options.backend = i % 2 == 0 ? BackendKind::Cpu : BackendKind::CudaHost;
    // time_limit 0: a fixed amount of work (construction + descent). A wall-clock limit stops the
    // search at a moment that depends on the machine's load, so only untimed runs can be compared
    // byte for byte; timed concurrent runs are checked for validity below.
    c.options.time_limit_s = 0.0;
    c.options.seed = 7 + 13 * i;
    c.options.threads = threads_for(i);
    cases.push_back(std::move(c));
  }
  return cases;
}

TEST(Concurrency, EightConcurrentSolvesEqualSequentialRuns) {
  const auto cases = eight_cases();
  std::vector<std::string> sequential;
  for (const Case& c : cases)
    sequential.push_back(canonical_json(*c.problem, solve(*c.problem, c.options)));

  std::vector<std::string> concurrent(cases.size());
  std::vector<std::string> errors(cases.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    threads.emplace_back([&, i] {
      try {
        concurrent[i] =
            canonical_json(*cases[i].problem, solve(*cases[i].problem, cases[i].options));
      } catch (const std::exception& e) {
        errors[i] = e.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE("case " + std::to_string(i) + " backend " +
                 std::string(to_string(cases[i].options.backend)));
    EXPECT_EQ(errors[i], "");
    EXPECT_EQ(concurrent[i], sequential[i]);
  }
}

/// The routes of `chains` search chains on each thread count in `threads` (one thread per chain,
/// or fewer threads running the chains in lockstep), each solution validated.
std::vector<std::string> chain_results(const Problem& problem,
                                       std::initializer_list<unsigned> threads, unsigned chains,
                                       std::size_t iterations, std::uint64_t seed) {
  std::vector<std::string> results;
  for (const unsigned t : threads) {
    SolveOptions options;
    options.backend = BackendKind::Cpu;
    options.threads = t;
    options.chains = chains;
    options.iterations = iterations;
    options.seed = seed;
    const Solution s = solve(problem, options);
    EXPECT_TRUE(validate(problem, s).ok()) << t << " threads";
    results.push_back(canonical_json(problem, s));
  }
  return results;
}

TEST(Concurrency, SearchChainsOnThreadsAndOnAWorkerPoolGiveOneResult) {
  // Chains one per thread (regions of one shared solution in the cost phase) and the same
  // chains in lockstep on a worker pool of 2 or 1 threads: the same routes, and under TSan no
  // race between the chains' threads (they share the problem, the model and the engine).
  const ProblemPtr problem = scenario_problem(14, 140, 42, 1);
  const std::vector<std::string> results = chain_results(*problem, {4u, 2u, 1u}, 4, 200, 5);
  EXPECT_EQ(results[1], results[0]);
  EXPECT_EQ(results[2], results[0]);
}

TEST(Concurrency, LongerEpochsOfLargerInstancesKeepThreadsAndAWorkerPoolInAgreement) {
  // Above 256 tasks an epoch is a step per 4 tasks (150 here, so 400 steps end inside the third
  // epoch): chains on threads and the same chains in lockstep on one thread still meet at the
  // same steps, so they give the same routes.
  const ProblemPtr problem = scenario_problem(40, 600, 43, 1);
  const std::vector<std::string> results = chain_results(*problem, {2u, 1u}, 2, 400, 9);
  EXPECT_EQ(results[1], results[0]);
}

TEST(Concurrency, WorkerPoolRunsEveryItemOncePerCallAndReturnsWhenAllAreDone) {
  // The pool's barrier polls before it sleeps; calls in quick succession (as chains' epochs and
  // lockstep rounds make them) must still see every item of a call done before the call returns,
  // and the next call's items must see what the caller wrote in between (under TSan: no race).
  for (const unsigned workers : {2u, 3u}) {
    search::WorkerPool pool(workers);
    constexpr std::size_t kItems = 7;
    std::vector<std::size_t> done(kItems, 0);  // each item's count, written only by its thread
    std::size_t call = 0;                      // written by the caller between calls
    std::vector<std::size_t> seen(kItems, 0);
    for (std::size_t c = 1; c <= 20000; ++c) {
      call = c;
      pool.run(kItems, [&](std::size_t i) {
        ++done[i];
        seen[i] = call;
      });
      for (std::size_t i = 0; i < kItems; ++i) {
        ASSERT_EQ(done[i], c) << "workers " << workers << ", item " << i;
        ASSERT_EQ(seen[i], c) << "workers " << workers << ", item " << i;
      }
    }
  }
}

TEST(Concurrency, SameProblemSharedByEightThreadsWithTimeLimits) {
  // One immutable Problem shared by every caller, short time limits: each result is valid.
  const ProblemPtr problem = scenario_problem(4, 40, 5, 2);
  std::vector<Solution> results(8);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < results.size(); ++i) {
    threads.emplace_back([&, i] {
      SolveOptions o;
      o.backend = i % 2 == 0 ? BackendKind::Cpu : BackendKind::CudaHost;
      o.time_limit_s = 0.2;
      o.seed = i + 1;
      results[i] = solve(*problem, o);
    });
  }
  for (auto& t : threads) t.join();
  for (std::size_t i = 0; i < results.size(); ++i) {
    const ValidationReport report = validate(*problem, results[i]);
    EXPECT_TRUE(report.ok()) << "run " << i << ":\n" << report.to_text();
    EXPECT_EQ(results[i].routes.size() + results[i].unassigned.size() > 0, true);
  }
}

TEST(Concurrency, SharedRoadRouterAnswersConcurrentQueries) {
  // RoadRouter and its DijkstraMatrixEngine are documented as const-safe for concurrent queries.
  const network::RoadRouter router(city());
  std::vector<Coordinates> points;
  const auto& coords = router.graph().coords;
  for (std::size_t k = 0; k < 24; ++k) points.push_back(coords[(k * 37) % coords.size()]);
  const auto expected = network::point_matrices(router, points, 1000.0, 1);
  std::vector<network::PointMatrices> got(8);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < got.size(); ++i)
    threads.emplace_back(
        [&, i] { got[i] = network::point_matrices(router, points, 1000.0, threads_for(i)); });
  for (auto& t : threads) t.join();
  for (const auto& g : got) {
    EXPECT_EQ(g.matrices.durations, expected.matrices.durations);
    EXPECT_EQ(g.matrices.distances, expected.matrices.distances);
  }
}

TEST(Concurrency, PhastEnginesShareOneHierarchy) {
  // compute() of one engine is not thread-safe (documented): each thread owns an engine, and all
  // of them share the read-only graph and contraction hierarchy.
  const RoadGraph& graph = city().graph;
  const ContractionHierarchy ch = build_contraction_hierarchy(graph);
  std::vector<NodeId> sources, targets;
  for (NodeId v = 0; v < graph.node_count(); v += 7) sources.push_back(v);
  for (NodeId v = 3; v < graph.node_count(); v += 11) targets.push_back(v);
  cuda::PhastMatrixEngine reference(graph, ch, {.threads = 1});
  const NodeMatrices expected = reference.compute(sources, targets);
  std::vector<NodeMatrices> got(8);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < got.size(); ++i) {
    threads.emplace_back([&, i] {
      cuda::PhastMatrixEngine engine(graph, ch, {.threads = 1});
      got[i] = engine.compute(sources, targets);
    });
  }
  for (auto& t : threads) t.join();
  for (const auto& g : got) {
    EXPECT_EQ(g.durations, expected.durations);
    EXPECT_EQ(g.distances, expected.distances);
  }
}

}  // namespace
}  // namespace routesolve
