// The annealing's temperatures for short budgets: with fewer iterations per task than
// Parameters::short_budget_per_task, the cost phase is scaled by the projected iterations per
// task over that figure (down to the floor), measured over the first 1% of the budget. The same
// projection moves the every-step descent earlier (Parameters::early_descent_per_task) and warms
// the end of the schedule (Parameters::hot_end_per_task). A recreate that reaches the step's
// acceptance threshold stops there (Parameters::early_reject) and the search takes the same
// steps as with every recreate finished, where travel costs satisfy the triangle inequality.
// A search whose best has not moved over a share of the budget restarts its cycle early
// (Parameters::stagnation), and never sooner.

#include <cstdlib>
#include <memory>
#include <utility>
#include <vector>

#include "operators/operator_fixture.hpp"
#include "routesolve/search/annealing_search.hpp"

namespace routesolve::test::operators {
namespace {

/// An annealing search from a random solution of the fixture (temperatures 10 -> 0.1).
class SearchRun {
 public:
  SearchRun(const Fixture& f, AnnealingSearch::Parameters parameters,
            Objective objective = Objective::Cost)
      : engine_(make_segment_engine()),
        search_(*f.model, *f.near, *f.classes, f.insertable, objective, 7, temperatures(parameters),
                *engine_) {
    std::mt19937_64 rng(3);
    search_.start(f.random_solution(rng).plan());
  }
  /// `n` cost steps spread over the whole budget.
  void steps(std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
      search_.step(static_cast<double>(i) / static_cast<double>(n));
  }
  /// Step i of n (the share of the budget used: i / n).
  void step(std::size_t i, std::size_t n) {
    search_.step(static_cast<double>(i) / static_cast<double>(n));
  }
  [[nodiscard]] const AnnealingSearch& search() const noexcept { return search_; }

 private:
  static AnnealingSearch::Parameters temperatures(AnnealingSearch::Parameters p) {
    p.start_temperature = 10.0;
    p.end_temperature = 0.1;
    return p;
  }
  std::unique_ptr<InsertionEngine> engine_;
  AnnealingSearch search_;
};

/// The temperature factor after `steps` cost steps spread over the whole budget.
double scale_after(const Fixture& f, std::size_t steps, double per_task, std::size_t chains) {
  AnnealingSearch::Parameters parameters;
  parameters.short_budget_per_task = per_task;
  parameters.short_budget_floor = 0.1;
  parameters.chains_per_solution = chains;
  SearchRun run(f, parameters);
  EXPECT_DOUBLE_EQ(run.search().temperature_scale(), per_task > 0.0 ? 0.1 : 1.0)
      << "the floor until the pace is known";
  run.steps(steps);
  return run.search().temperature_scale();
}

TEST(AnnealingTest, ShortBudgetsScaleTheTemperaturesByTheIterationsPerTask) {
  const Fixture f(4, false);
  const double tasks = static_cast<double>(f.insertable.size());
  // 1,000 steps over the budget: 1000 / tasks iterations per task.
  EXPECT_NEAR(scale_after(f, 1000, 100.0, 1), 1000.0 / tasks / 100.0, 1e-9);
  EXPECT_NEAR(scale_after(f, 1000, 100.0, 2), 2.0 * 1000.0 / tasks / 100.0, 1e-9)
      << "chains adding up";
  EXPECT_DOUBLE_EQ(scale_after(f, 1000, 1.0, 1), 1.0) << "enough iterations: the full temperature";
  EXPECT_DOUBLE_EQ(scale_after(f, 1000, 1e6, 1), 0.1) << "never below the floor";
  EXPECT_DOUBLE_EQ(scale_after(f, 1000, 0.0, 1), 1.0) << "off";
}

/// The end temperature's factor after `steps` cost steps spread over the whole budget.
double end_scale_after(const Fixture& f, std::size_t steps, double hot_end_per_task,
                       double hot_end_max) {
  AnnealingSearch::Parameters parameters;
  parameters.hot_end_per_task = hot_end_per_task;
  parameters.hot_end_max = hot_end_max;
  SearchRun run(f, parameters);
  EXPECT_DOUBLE_EQ(run.search().end_temperature_scale(), 1.0)
      << "the planned end until the pace is known";
  run.steps(steps);
  EXPECT_DOUBLE_EQ(run.search().temperature_scale(), 1.0) << "the start temperature is not touched";
  return run.search().end_temperature_scale();
}

TEST(AnnealingTest, ShortBudgetsWithAWarmEndRaiseTheEndTemperatureByTheMissingIterations) {
  const Fixture f(4, false);
  const double per_task =
      1000.0 / static_cast<double>(f.insertable.size());  // 1,000 steps over the budget
  EXPECT_NEAR(end_scale_after(f, 1000, 4.0 * per_task, 10.0), 4.0, 1e-9);
  EXPECT_DOUBLE_EQ(end_scale_after(f, 1000, 40.0 * per_task, 10.0), 10.0) << "at most hot_end_max";
  EXPECT_DOUBLE_EQ(end_scale_after(f, 1000, 0.5 * per_task, 10.0), 1.0)
      << "enough iterations: the planned end";
  EXPECT_DOUBLE_EQ(end_scale_after(f, 1000, 0.0, 10.0), 1.0) << "off";
}

/// The share of the budget from which every step descends, after `steps` cost steps.
double every_step_from_after(const Fixture& f, std::size_t steps, double early_per_task) {
  AnnealingSearch::Parameters parameters;
  parameters.descent_every_step_from = 0.9;
  parameters.early_descent_per_task = early_per_task;
  parameters.early_descent_from = 0.5;
  SearchRun run(f, parameters);
  EXPECT_DOUBLE_EQ(run.search().every_step_from(), 0.9) << "the late start until the pace is known";
  run.steps(steps);
  return run.search().every_step_from();
}

TEST(AnnealingTest, TheEveryStepDescentStartsEarlyWhenThePaceAllowsIt) {
  const Fixture f(4, false);
  const double per_task =
      200.0 / static_cast<double>(f.insertable.size());  // 200 steps over the budget
  EXPECT_DOUBLE_EQ(every_step_from_after(f, 200, 0.5 * per_task), 0.5) << "room for both";
  EXPECT_DOUBLE_EQ(every_step_from_after(f, 200, 2.0 * per_task), 0.9)
      << "too few steps: the annealing keeps them";
  EXPECT_DOUBLE_EQ(every_step_from_after(f, 200, 0.0), 0.9) << "off";
}

/// The fixture's instance with Manhattan travel between integer points: insertions never lower
/// the cost (the triangle inequality holds exactly, no rounding).
std::shared_ptr<const Problem> manhattan_instance(std::uint64_t seed, bool tight) {
  ProblemSpec spec = random_instance(seed, tight)->spec();
  Matrix& durations = spec.matrices.at("car").durations;
  const std::size_t n = durations.size();
  std::mt19937_64 rng(seed + 11);
  std::vector<std::pair<std::int64_t, std::int64_t>> points(n);
  for (auto& p : points)
    p = {static_cast<std::int64_t>(rng() % 100), static_cast<std::int64_t>(rng() % 100)};
  Matrix m(n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      m(i, j) = std::abs(points[i].first - points[j].first) +
                std::abs(points[i].second - points[j].second);
  spec.matrices["car"] = ProfileMatrices{m, m, std::nullopt};
  return Problem::create(spec);
}

TEST(AnnealingTest, ARecreateStoppedAtTheThresholdTakesTheSameSteps) {
  for (const bool tight : {false, true}) {
    for (const Objective objective : {Objective::Cost, Objective::VehiclesThenCost}) {
      const Fixture f(manhattan_instance(5, tight));
      AnnealingSearch::Parameters with, without;
      without.early_reject = false;
      SearchRun a(f, with, objective), b(f, without, objective);
      constexpr std::size_t kSteps = 1500;
      for (std::size_t i = 0; i < kSteps; ++i) {
        a.step(i, kSteps);
        b.step(i, kSteps);
        ASSERT_EQ(a.search().current_plan(), b.search().current_plan())
            << "step " << i << (tight ? ", tight" : "");
      }
      EXPECT_EQ(a.search().best_plan(), b.search().best_plan());
      EXPECT_EQ(a.search().best_score(), b.search().best_score());
      EXPECT_GT(a.search().early_rejects(), kSteps / 10)
          << "recreates stopped early" << (tight ? ", tight" : "");
      EXPECT_EQ(b.search().early_rejects(), 0U);
    }
  }
}

TEST(AnnealingTest, AStagnantSearchRestartsOnlyLongAfterItsLastNewBest) {
  const Fixture f(4, false);
  constexpr std::size_t kSteps = 2000;
  constexpr double kStagnation = 0.2;
  // Off; on; on where the pace (2,000 steps over the budget) is below the one asked for.
  for (const int mode : {0, 1, 2}) {
    const bool on = mode == 1;
    AnnealingSearch::Parameters parameters;
    parameters.cycle_per_task = 1e9;  // no cycle ends by its iterations
    parameters.restart_temperature = 0.3;
    parameters.stagnation = mode == 0 ? 0.0 : kStagnation;
    parameters.stagnation_per_task = mode == 2 ? 1e9 : 1.0;
    SearchRun run(f, parameters);
    double last_best = 0.0, last_restart = 0.0;
    Score best = run.search().best_score();
    for (std::size_t i = 0; i < kSteps; ++i) {
      const double phase = static_cast<double>(i) / static_cast<double>(kSteps);
      const std::size_t cycles = run.search().cycles();
      run.step(i, kSteps);
      if (run.search().cycles() != cycles) {
        ASSERT_TRUE(on) << "a restart in mode " << mode << " at step " << i;
        EXPECT_GE(phase - last_best, kStagnation - 1e-12) << "step " << i;
        EXPECT_GE(phase - last_restart, kStagnation - 1e-12) << "step " << i;
        EXPECT_LE(phase, 1.0 - 0.5 * kStagnation + 1e-12) << "step " << i;
        last_restart = phase;
        last_best = phase;
      }
      ASSERT_FALSE(better(best, run.search().best_score(), Objective::Cost))
          << "the best never gets worse";
      if (run.search().best_score() != best) {
        best = run.search().best_score();
        last_best = phase;
      }
    }
    if (on) {
      EXPECT_GE(run.search().cycles(), 1U) << "the small instance's search stagnates";
    }
  }
}

}  // namespace
}  // namespace routesolve::test::operators
