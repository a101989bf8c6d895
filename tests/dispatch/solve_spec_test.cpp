// dispatch::solve_spec, the validated solve of every entry point: matrices filled from
// coordinates, the solution validated with its stage figures, plan mode, the notes, the stage an
// error came from; and Backend::supports deciding which backend may take a problem.

#include "routesolve/dispatch/solve_spec.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "routesolve/cpu/cpu_backend.hpp"
#include "routesolve/cuda/search_backend.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "routesolve/solve.hpp"
#include "routesolve/validator.hpp"

using namespace routesolve;

namespace {

/// Four jobs around a depot in Copenhagen, given as coordinates only (no matrices).
constexpr const char* kCoordinates = R"({
  "vehicles": [{"id": 1, "start": [12.56, 55.67], "end": [12.56, 55.67], "capacity": [4]}],
  "jobs": [{"id": 1, "location": [12.57, 55.68], "delivery": [1]},
           {"id": 2, "location": [12.55, 55.69], "delivery": [1]},
           {"id": 3, "location": [12.58, 55.66], "delivery": [1]},
           {"id": 4, "location": [12.54, 55.66], "delivery": [1]}]})";

bool has_stage(const Solution& s, const std::string& name) {
  return std::any_of(s.profile.begin(), s.profile.end(),
                     [&](const StageTime& t) { return t.stage == name; });
}

}  // namespace

TEST(SolveSpec, FillsTheMatricesSolvesAndValidates) {
  std::vector<dispatch::Note> notes;
  dispatch::PrepareOptions how;
  how.source = "fleet.json";
  how.on_note = [&](const dispatch::Note& n) { notes.push_back(n); };
  SolveOptions options;
  options.backend = BackendKind::Cpu;
  options.iterations = 50;
  const dispatch::Outcome out =
      dispatch::solve_spec(io::parse_vroom_problem(kCoordinates, "request"), {}, options, {}, how);
  ASSERT_TRUE(out.solved);
  ASSERT_NE(out.matrices, nullptr)
      << "the matrices were computed: their source is kept for geometry";
  EXPECT_EQ(out.matrices->fill.points.size(), 5u);
  EXPECT_EQ(out.solution.summary.unassigned, 0u);
  EXPECT_TRUE(validate(*out.problem, out.solution).ok());
  EXPECT_TRUE(has_stage(out.solution, "problem"));
  EXPECT_TRUE(has_stage(out.solution, "validate"));
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_FALSE(notes[0].warning);
  EXPECT_EQ(
      notes[0].text.rfind("fleet.json: no travel matrices given; using great-circle distances", 0),
      0u)
      << notes[0].text;
}

TEST(SolveSpec, TheSameSolutionAsTheStepsItRuns) {
  SolveOptions options;
  options.backend = BackendKind::Cpu;
  options.iterations = 50;
  options.seed = 5;
  const dispatch::Outcome out =
      dispatch::solve_spec(io::parse_vroom_problem(kCoordinates, "a"), {}, options);
  const dispatch::Prepared prepared =
      dispatch::prepare_problem(io::parse_vroom_problem(kCoordinates, "b"), {});
  const Solution direct = solve(*prepared.problem, options);
  ASSERT_EQ(out.solution.routes.size(), direct.routes.size());
  for (std::size_t r = 0; r < direct.routes.size(); ++r) {
    ASSERT_EQ(out.solution.routes[r].steps.size(), direct.routes[r].steps.size());
    for (std::size_t k = 0; k < direct.routes[r].steps.size(); ++k)
      EXPECT_EQ(out.solution.routes[r].steps[k].id, direct.routes[r].steps[k].id);
  }
  EXPECT_EQ(out.solution.summary.cost, direct.summary.cost);
}

TEST(SolveSpec, PlanModeReportsTheViolationsInsteadOfRefusing) {
  // A plan over the vehicle's capacity: checked, not solved, and returned with its violations.
  const char* plan = R"({
    "vehicles": [{"id": 1, "start_index": 0, "end_index": 0, "capacity": [1],
                  "steps": [{"type": "start"}, {"type": "job", "id": 1}, {"type": "job", "id": 2}, {"type": "end"}]}],
    "jobs": [{"id": 1, "location_index": 1, "delivery": [1]}, {"id": 2, "location_index": 2, "delivery": [1]}],
    "matrices": {"car": {"durations": [[0, 5, 5], [5, 0, 5], [5, 5, 0]]}}})";
  dispatch::SolveRun run;
  run.check_plan = true;
  const dispatch::Outcome out =
      dispatch::solve_spec(io::parse_vroom_problem(plan, "plan"), {}, {}, run);
  EXPECT_TRUE(out.solution.checked);
  EXPECT_EQ(out.matrices, nullptr) << "the document gave its matrices";
  EXPECT_FALSE(out.solution.summary.violations.empty());
}

TEST(SolveSpec, TheStageSaysWhereAnErrorCameFrom) {
  // A vehicle whose start has no coordinates: the matrix stage refuses it.
  const char* text = R"({"vehicles": [{"id": 1, "start_index": 0}],
                         "jobs": [{"id": 1, "location": [12.57, 55.68]}]})";
  std::string stage;
  dispatch::PrepareOptions how;
  how.stage = &stage;
  try {
    (void)dispatch::solve_spec(io::parse_vroom_problem(text, "request"), {}, {}, {}, how);
    FAIL() << "a location without coordinates was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidInput);
    EXPECT_EQ(stage, "matrices") << e.what();
  }
}

TEST(BackendSupports, TheBatchedBackendsNameWhatTheyDoNotPrice) {
  ProblemSpec spec = io::parse_vroom_problem(R"({
    "vehicles": [{"id": 1, "start_index": 0, "end_index": 0, "max_working_time": 100}],
    "jobs": [{"id": 1, "location_index": 1}],
    "matrices": {"car": {"durations": [[0, 5], [5, 0]]}}})",
                                             "working_time");
  const ProblemPtr problem = Problem::create(std::move(spec));
  EXPECT_EQ(cpu::make_cpu_backend()->supports(*problem), std::nullopt);
  const auto why = cuda::make_cuda_host_backend()->supports(*problem);
  ASSERT_TRUE(why.has_value());
  EXPECT_EQ(*why, "max_working_time (vehicles[0])");
  // solve() asks: an explicit cuda-host fails naming it, auto takes the cpu backend.
  SolveOptions options;
  options.iterations = 20;
  options.backend = BackendKind::CudaHost;
  try {
    (void)solve(*problem, options);
    FAIL() << "cuda-host took a constraint it does not price";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Unsupported);
    EXPECT_NE(std::string(e.what()).find("does not support max_working_time (vehicles[0])"),
              std::string::npos)
        << e.what();
  }
  options.backend = BackendKind::Auto;
  EXPECT_EQ(solve(*problem, options).backend, "cpu");
}
