// Tests of the independent validator: the hand-computed valid solution (validator_fixture.hpp),
// figure-free checking, the report text, and robustness on garbage. One broken copy per violation
// kind is in validator_violations_test.cpp; the randomized cross-check against schedule_route /
// make_solution (two independent implementations of the same rules) in
// validator_crosscheck_test.cpp.

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "validator_fixture.hpp"

namespace routesolve {
namespace {

using namespace validator_fixture;

// ---- valid solutions ---------------------------------------------------------------------------

TEST_F(ValidatorTest, HandComputedSolutionIsValid) {
  const ValidationReport report = validate(*problem, solution);
  EXPECT_TRUE(report.ok()) << report.to_text();
  EXPECT_TRUE(validate(*problem, solution, figures_off()).ok());
}

TEST_F(ValidatorTest, FiguresOffAcceptsFeasibleOrderWithZeroFigures) {
  for (Route& r : solution.routes) {
    for (Step& s : r.steps) {
      s.arrival = s.setup = s.service = s.waiting_time = s.duration = s.distance = 0;
      s.load = Amount{};
    }
    r.cost = r.setup = r.service = r.duration = r.waiting_time = r.distance = 0;
    r.delivery = r.pickup = Amount{};
  }
  solution.summary = Summary{};
  const ValidationReport report = validate(*problem, solution, figures_off());
  EXPECT_TRUE(report.ok()) << report.to_text();
  // With figures checked, the same solution is wrong in many places.
  EXPECT_FALSE(validate(*problem, solution).ok());
}

TEST_F(ValidatorTest, FiguresOffStillChecksFeasibility) {
  // 102's window closes at 20 but the earliest arrival there is 30.
  auto p = variant([](ProblemSpec& s) { s.jobs[1].time_windows = {TimeWindow{0, 20}}; });
  const ValidationReport report = validate(*p, solution, figures_off());
  EXPECT_VIOLATION(report, ViolationKind::TimeWindow, "routes[0].steps[3]");
}

TEST_F(ValidatorTest, UnassignedNotRequiredWhenOptionOff) {
  solution.unassigned.clear();
  solution.summary.unassigned = 0;
  ValidateOptions o;
  o.require_all_tasks_accounted = false;
  EXPECT_TRUE(validate(*problem, solution, o).ok());
}

TEST_F(ValidatorTest, ReportListsEveryViolationAsText) {
  solution.routes[0].steps[1].location = 3;   // wrong location
  solution.routes[0].steps[2].duration = 99;  // duration mismatch
  solution.summary.routes = 7;                // summary mismatch
  const ValidationReport report = validate(*problem, solution);
  EXPECT_GE(report.violations.size(), 3u);
  const std::string text = report.to_text();
  EXPECT_NE(text.find("routes[0].steps[1]: wrong location: "), std::string::npos) << text;
  EXPECT_NE(text.find("routes[0].steps[2]: duration mismatch: "), std::string::npos) << text;
  EXPECT_NE(text.find("summary: summary mismatch: routes: expected 2, found 7"), std::string::npos)
      << text;
  EXPECT_EQ(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')),
            report.violations.size());
}

TEST(ViolationKindTest, EveryKindHasADistinctName) {
  std::vector<std::string> names;
  for (int k = 0; k <= static_cast<int>(ViolationKind::WrongLocation); ++k)
    names.emplace_back(to_string(static_cast<ViolationKind>(k)));
  std::vector<std::string> sorted = names;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::unique(sorted.begin(), sorted.end()), sorted.end());
  for (const auto& n : names) EXPECT_FALSE(n.empty());
}

// ---- robustness --------------------------------------------------------------------------------

TEST_F(ValidatorTest, GarbageSolutionsAreReportedNeverThrown) {
  std::mt19937_64 rng(12345);
  auto pick = [&](std::uint64_t n) { return static_cast<std::size_t>(rng() % n); };
  const std::vector<std::size_t> indices = {0, 1, 2, 5, 6, 7, 100, kNone};
  const std::vector<std::int64_t> values = {0,
                                            1,
                                            -1,
                                            40,
                                            1000,
                                            kMaxTime,
                                            kUnreachable,
                                            std::numeric_limits<std::int64_t>::max(),
                                            std::numeric_limits<std::int64_t>::min()};
  for (int iter = 0; iter < 2000; ++iter) {
    Solution s = fixture_solution(*problem);
    const int changes = 1 + static_cast<int>(pick(4));
    for (int c = 0; c < changes; ++c) {
      Route& r = s.routes[pick(s.routes.size())];
      switch (pick(9)) {
        case 0:
          r.vehicle = indices[pick(indices.size())];
          break;
        case 1:
          if (!r.steps.empty())
            r.steps.erase(r.steps.begin() + static_cast<long>(pick(r.steps.size())));
          break;
        case 2:
          if (!r.steps.empty()) r.steps[pick(r.steps.size())].task = indices[pick(indices.size())];
          break;
        case 3:
          if (!r.steps.empty()) r.steps[pick(r.steps.size())].type = static_cast<StepType>(pick(6));
          break;
        case 4:
          if (!r.steps.empty())
            r.steps[pick(r.steps.size())].location = indices[pick(indices.size())];
          break;
        case 5:
          if (!r.steps.empty()) r.steps[pick(r.steps.size())].arrival = values[pick(values.size())];
          break;
        case 6:
          if (!r.steps.empty())
            r.steps[pick(r.steps.size())].waiting_time = values[pick(values.size())];
          break;
        case 7:
          if (!r.steps.empty()) r.steps[pick(r.steps.size())].load = Amount{1, 2, 3};
          break;
        case 8:
          s.unassigned.push_back(Unassigned{indices[pick(indices.size())], rng(), TaskType::Pickup,
                                            UnassignedReason::NotRouted});
          break;
      }
    }
    ValidationReport report;
    EXPECT_NO_THROW(report = validate(*problem, s));
    EXPECT_NO_THROW(report = validate(*problem, s, figures_off()));
  }
}

TEST_F(ValidatorTest, UnknownStepType) {
  solution.routes[0].steps[2].type = static_cast<StepType>(17);
  const ValidationReport report = validate(*problem, solution, figures_off());
  EXPECT_VIOLATION(report, ViolationKind::BadStepOrder, "routes[0].steps[2]");
}

TEST_F(ValidatorTest, EmptySolutionReportsEveryTaskMissing) {
  const ValidationReport report = validate(*problem, Solution{});
  EXPECT_EQ(report.violations.size(), problem->tasks().size());
  EXPECT_TRUE(only_kind(report, ViolationKind::MissingTask));
}

}  // namespace
}  // namespace routesolve
