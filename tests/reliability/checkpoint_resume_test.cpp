// Checkpoint / resume through the library: SolveOptions::on_checkpoint and
// SolveOptions::resume on the CPU backend, the refusals of the other backends, and the stop
// flag honoured during a long construction.

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <vector>

#include "checkpoint_score.hpp"
#include "routesolve/checkpoint.hpp"
#include "routesolve/error.hpp"
#include "routesolve/solve.hpp"
#include "routesolve/validator.hpp"
#include "test_problems.hpp"

using namespace routesolve;
using routesolve::test::score_of;

namespace {

/// n jobs of demand 1..3 around a depot, vehicles of capacity 12 (enough of them).
std::shared_ptr<const Problem> cvrp(std::size_t n, std::uint64_t seed) {
  ProblemSpec spec = test::points_spec(test::random_points(n + 1, seed));
  for (std::size_t i = 1; i <= n; ++i)
    spec.jobs.push_back(test::make_job(i, i, 1 + static_cast<std::int64_t>(i % 3)));
  for (std::size_t v = 0; v < n / 4 + 2; ++v)
    spec.vehicles.push_back(test::make_vehicle(v + 1, 0, 12));
  return Problem::create(std::move(spec));
}

}  // namespace

TEST(CheckpointResume, CheckpointsComeRegularlyAndAResumeIsNoWorse) {
  const auto problem = cvrp(120, 5);
  std::vector<SolveCheckpoint> states;
  SolveOptions options;
  options.backend = BackendKind::Cpu;
  options.time_limit_s = 0.8;
  options.threads = 2;
  options.seed = 9;
  options.checkpoint_every_s = 0.1;
  options.on_checkpoint = [&](const SolveCheckpoint& c) { states.push_back(c); };
  const Solution full = solve(*problem, options);
  ASSERT_TRUE(validate(*problem, full).ok());
  ASSERT_GE(states.size(), 3u);
  EXPECT_EQ(states.front().iterations, 0u);  // the construction's plan
  for (std::size_t i = 0; i < states.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_NO_THROW(check_checkpoint(*problem, states[i]));
    EXPECT_EQ(states[i].seed, 9u);
    EXPECT_EQ(states[i].threads, 2u);
    EXPECT_DOUBLE_EQ(states[i].time_limit_s, 0.8);
    if (i > 0) {
      EXPECT_GE(states[i].elapsed_s, states[i - 1].elapsed_s);
      EXPECT_GE(states[i].iterations, states[i - 1].iterations);
      EXPECT_FALSE(
          better(states[i - 1].score, states[i].score, Objective::Cost));  // the best only improves
    }
  }
  // The best plan's score is what the solution of that plan scores.
  EXPECT_FALSE(better(states.back().score, score_of(*problem, full), Objective::Cost));

  // Resume from a middle checkpoint: the time left is the limit minus what it had spent.
  const SolveCheckpoint& middle = states[states.size() / 2];
  SolveOptions again;
  again.backend = BackendKind::Auto;  // auto means cpu when resuming
  again.time_limit_s = 0.8;
  again.threads = 2;
  again.seed = 9;
  again.resume = std::make_shared<SolveCheckpoint>(middle);
  again.checkpoint_every_s = 0.1;
  std::vector<SolveCheckpoint> resumed_states;
  again.on_checkpoint = [&](const SolveCheckpoint& c) { resumed_states.push_back(c); };
  const Solution resumed = solve(*problem, again);
  ASSERT_TRUE(validate(*problem, resumed).ok());
  EXPECT_EQ(resumed.backend, "cpu");
  EXPECT_FALSE(better(middle.score, score_of(*problem, resumed), Objective::Cost));
  // The time already spent counts against the limit: the resumed run's clock starts there, and
  // its work continues the checkpoint's (no wall-clock bound asserted: the box may be loaded).
  for (const SolveCheckpoint& c : resumed_states) {
    EXPECT_GE(c.elapsed_s, middle.elapsed_s);
    EXPECT_GE(c.iterations, middle.iterations);
  }
  again.on_checkpoint = {};

  // Nothing left of the budget: the checkpoint's plan, at once.
  SolveCheckpoint spent = states.back();
  spent.elapsed_s = 5.0;
  again.resume = std::make_shared<SolveCheckpoint>(spent);
  const Solution at_once = solve(*problem, again);
  ASSERT_TRUE(validate(*problem, at_once).ok());
  EXPECT_FALSE(better(spent.score, score_of(*problem, at_once), Objective::Cost));
  EXPECT_EQ(at_once.iterations, 0u) << "a spent budget runs no more search";

  // A fixed amount of work (time_limit 0) resumes too.
  SolveOptions fixed;
  fixed.backend = BackendKind::Cpu;
  fixed.resume = std::make_shared<SolveCheckpoint>(states.front());
  const Solution finished = solve(*problem, fixed);
  ASSERT_TRUE(validate(*problem, finished).ok());
  EXPECT_FALSE(better(states.front().score, score_of(*problem, finished), Objective::Cost));
}

TEST(CheckpointResume, BatchedBackendsRefuseClearly) {
  const auto problem = cvrp(20, 1);
  SolveOptions options;
  options.backend = BackendKind::CudaHost;
  options.on_checkpoint = [](const SolveCheckpoint&) {};
  try {
    solve(*problem, options);
    FAIL() << "cuda-host accepted a checkpoint sink";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Unsupported);
    EXPECT_NE(std::string(e.what()).find("cpu backend only"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cuda-host"), std::string::npos) << e.what();
  }
}

TEST(CheckpointResume, AResumeStateOfAnotherProblemIsRefused) {
  const auto problem = cvrp(20, 1);
  SolveCheckpoint state;
  SolveOptions first;
  first.backend = BackendKind::Cpu;
  first.on_checkpoint = [&](const SolveCheckpoint& c) { state = c; };
  solve(*problem, first);
  state.source = "other.ckpt";
  SolveOptions options;
  options.backend = BackendKind::Cpu;
  options.resume = std::make_shared<SolveCheckpoint>(state);
  EXPECT_NO_THROW(solve(*problem, options));
  try {
    solve(*cvrp(20, 2), options);
    FAIL() << "resumed another problem";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidInput);
    EXPECT_NE(std::string(e.what()).find("other.ckpt: fingerprint"), std::string::npos) << e.what();
  }
}

TEST(ConstructionStop, StopFlagIsHonouredDuringALongConstruction) {
  // The flag is set before the solve, so the construction meets it at its first look: how soon it
  // stops is counted in work (tasks routed), not in seconds, so a loaded machine cannot make this
  // flaky. How long the 10,000-task case takes after a real SIGINT is measured by hand
  // (docs/RELIABILITY.md).
  const auto problem = cvrp(3000, 7);
  std::atomic<bool> stop{true};
  SolveOptions options;
  options.backend = BackendKind::Cpu;
  options.stop = &stop;
  const Solution solution = solve(*problem, options);
  ASSERT_TRUE(validate(*problem, solution).ok());
  // Interrupted in the construction: the tasks it did not reach are unassigned, not_routed.
  std::size_t routed = 0;
  for (const Route& r : solution.routes)
    for (const Step& step : r.steps) routed += step.task != kNone ? 1 : 0;
  EXPECT_LT(routed, problem->tasks().size() / 2) << "the construction went on after the stop flag";
  ASSERT_FALSE(solution.unassigned.empty());
  for (const Unassigned& u : solution.unassigned) EXPECT_EQ(u.reason, UnassignedReason::NotRouted);
}

TEST(CheckpointResume, ExactSearchPathCheckpointsAndResumesToo) {
  // More capacity dimensions than the segment model covers: the exact search of the backend.
  ProblemSpec spec = test::points_spec(test::random_points(41, 11));
  for (std::size_t i = 1; i <= 40; ++i) {
    JobSpec j = test::make_job(i, i);
    j.delivery = Amount(std::vector<std::int64_t>(9, 1 + static_cast<std::int64_t>(i % 3)));
    j.pickup = Amount(std::vector<std::int64_t>(9, 0));
    spec.jobs.push_back(j);
  }
  for (Id v = 1; v <= 12; ++v) {
    VehicleSpec vehicle = test::make_vehicle(v, 0, 12);
    vehicle.capacity = Amount(std::vector<std::int64_t>(9, 12));
    spec.vehicles.push_back(vehicle);
  }
  const auto problem = Problem::create(std::move(spec));
  std::vector<SolveCheckpoint> states;
  SolveOptions options;
  options.backend = BackendKind::Cpu;
  options.iterations = 2;             // 2 x kExactStepsPerIteration steps
  options.checkpoint_every_s = 1e-6;  // after every step
  options.on_checkpoint = [&](const SolveCheckpoint& c) { states.push_back(c); };
  const Solution full = solve(*problem, options);
  ASSERT_TRUE(validate(*problem, full).ok());
  ASSERT_GE(states.size(), 2u);  // the construction's plan, then the steps
  EXPECT_EQ(states.back().iterations, full.iterations);
  for (const SolveCheckpoint& state : states) {
    EXPECT_NO_THROW(check_checkpoint(*problem, state));
    SolveOptions again;
    again.backend = BackendKind::Cpu;
    again.iterations = options.iterations;
    again.resume = std::make_shared<SolveCheckpoint>(state);
    const Solution resumed = solve(*problem, again);
    ASSERT_TRUE(validate(*problem, resumed).ok());
    EXPECT_FALSE(better(state.score, score_of(*problem, resumed), Objective::Cost));
  }
}
