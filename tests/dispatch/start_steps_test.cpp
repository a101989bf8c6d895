// Vehicle steps in solving mode: VROOM's starting solution, which the search improves; steps
// marked fixed (and those before them) kept as the start of the route; invalid steps refused
// with their JSON path. Locations 0..6 on a line, 10 s per unit, the vehicle at 0.

#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "grid_instance.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"
#include "routesolve/solve.hpp"
#include "routesolve/validator.hpp"

namespace routesolve {
namespace {

std::string line_problem(const std::string& steps, const std::string& capacity = "[10]") {
  std::string rows;
  for (int i = 0; i < 7; ++i) {
    rows += i ? ", [" : "[";
    for (int j = 0; j < 7; ++j) rows += (j ? ", " : "") + std::to_string(10 * std::abs(i - j));
    rows += "]";
  }
  std::string jobs;
  for (int i = 1; i <= 6; ++i)
    jobs += (i > 1 ? ", " : "") + std::string(R"({"id": )") + std::to_string(i) +
            R"(, "location_index": )" + std::to_string(i) + R"(, "delivery": [1]})";
  return R"({"vehicles": [{"id": 1, "start_index": 0, "end_index": 0, "capacity": )" + capacity +
         R"(, "steps": )" + steps + R"(}], "jobs": [)" + jobs +
         R"(], "matrices": {"car": {"durations": [)" + rows + "]}}}";
}

std::string job_steps(const std::vector<int>& ids, std::size_t fixed_up_to = 0) {
  std::string s = "[";
  for (std::size_t k = 0; k < ids.size(); ++k)
    s += (k ? ", " : "") + std::string(R"({"type": "job", "id": )") + std::to_string(ids[k]) +
         (k + 1 == fixed_up_to ? R"(, "fixed": true})" : "}");
  return s + "]";
}

struct Solved {
  std::vector<Id> order;
  double cost = 0;
};

Solved solved(const std::string& json) {
  const ProblemPtr p = Problem::create(io::parse_vroom_problem(json, "fleet.json"));
  SolveOptions o;
  o.iterations = 300;
  o.backend = BackendKind::Cpu;
  const Solution s = solve(*p, o);
  const ValidationReport report = validate(*p, s);
  EXPECT_TRUE(report.ok()) << report.to_text();
  EXPECT_TRUE(s.unassigned.empty());
  Solved out;
  out.cost = static_cast<double>(s.summary.cost) / p->cost_scale();
  for (const Route& r : s.routes)
    for (const Step& st : r.steps)
      if (st.type == StepType::Job) out.order.push_back(st.id);
  return out;
}

// The zigzag 6, 1, 5, 2, 4, 3 costs 60 + 50 + 40 + 30 + 20 + 10 + 30 = 240; the search starts from
// it and finds an order that goes out to 6 and back without turning in between (120).
TEST(StartSteps, TheSearchImprovesADeliberatelyBadOrder) {
  const Solved s = solved(line_problem(job_steps({6, 1, 5, 2, 4, 3})));
  EXPECT_EQ(s.cost, 120);
  EXPECT_NE(s.order, (std::vector<Id>{6, 1, 5, 2, 4, 3}));
}

// routesolve's extension: the last step fixed keeps them all, in the given order.
TEST(StartSteps, FixedStepsStayAsGiven) {
  const Solved s = solved(line_problem(job_steps({6, 1, 5, 2, 4, 3}, 6)));
  EXPECT_EQ(s.order, (std::vector<Id>{6, 1, 5, 2, 4, 3}));
  EXPECT_EQ(s.cost, 240);
}

// A fixed prefix (6, 1) and a starting solution after it: the prefix stays, the rest is
// reordered to the best after it, 60 + 50 + (5 - 1) x 10 + 50 = 200 (the zigzag's 240).
TEST(StartSteps, AFixedPrefixThenAStartingSolution) {
  const Solved s = solved(line_problem(job_steps({6, 1, 5, 2, 4, 3}, 2)));
  ASSERT_EQ(s.order.size(), 6u);
  EXPECT_EQ(s.order[0], 6u);
  EXPECT_EQ(s.order[1], 1u);
  EXPECT_EQ(s.cost, 200);
}

// A starting solution of some tasks: the construction inserts the others.
TEST(StartSteps, TasksNotInTheStepsAreInserted) {
  const Solved s = solved(line_problem(job_steps({6, 1})));
  EXPECT_EQ(s.order.size(), 6u);
  EXPECT_EQ(s.cost, 120);
}

/// 25 jobs on a grid (windows, some two; service), 3 vehicles with a shift and a break with a
/// window (max_load on some): the instances where the search's relaxed model may cost tasks.
ProblemSpec windows_and_breaks(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  ProblemSpec spec;
  Matrix m = test::manhattan_grid(rng, 25);
  for (std::size_t a = 0; a < m.size(); ++a)
    for (std::size_t b = 0; b < m.size(); ++b) m(a, b) = 10 * static_cast<std::int64_t>(m(a, b));
  spec.matrices["car"].durations = m;
  for (std::size_t i = 1; i <= 25; ++i) {
    JobSpec j;
    j.id = i;
    j.location.index = i;
    j.service = 30;
    j.delivery = Amount{1};
    const Duration open = static_cast<Duration>(rng() % 1500);
    j.time_windows = {{open, open + 200}};
    if (rng() % 2 == 0) j.time_windows.push_back({open + 600, open + 900});
    spec.jobs.push_back(j);
  }
  for (Id k = 1; k <= 3; ++k) {
    VehicleSpec v;
    v.id = k;
    v.start = LocationSpec{0, std::nullopt};
    v.end = v.start;
    v.capacity = Amount{10};
    v.time_window = {0, 2600};
    BreakSpec b;
    b.id = 10 * k;
    b.service = 120;
    b.time_windows = {{500, 900}};
    if (k == 2) b.max_load = Amount{6};
    BreakSpec late = b;
    late.id = 10 * k + 1;
    late.time_windows = {{1500, 1900}};
    late.max_load.reset();
    v.breaks = {b, late};
    spec.vehicles.push_back(v);
  }
  return spec;
}

// As in VROOM, whose search only descends from the starting solution, the result is never worse
// than it: a short search from a good solution keeps it at least.
TEST(StartSteps, TheResultIsNoWorseThanTheStartingSolution) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const ProblemSpec spec = windows_and_breaks(seed);
    const ProblemPtr plain = Problem::create(spec);
    SolveOptions o;
    o.backend = BackendKind::Cpu;
    o.iterations = 300;
    const Solution first = solve(*plain, o);
    ProblemSpec again = spec;
    for (const Route& r : first.routes)
      for (const Step& st : r.steps)
        if (st.type == StepType::Job)
          again.vehicles[r.vehicle].steps.push_back(
              {VehicleStepType::Job, st.id, {}, {}, {}, false});
    const ProblemPtr started = Problem::create(again);
    o.iterations = 1;
    o.seed = 7 + seed;
    const Solution next = solve(*started, o);
    EXPECT_TRUE(validate(*started, next).ok()) << "seed " << seed;
    ASSERT_LE(next.unassigned.size(), first.unassigned.size()) << "seed " << seed;
    if (next.unassigned.size() == first.unassigned.size()) {
      EXPECT_LE(next.summary.cost, first.summary.cost) << "seed " << seed;
    }
  }
}

std::string refusal(const std::string& json) {
  try {
    const ProblemPtr p = Problem::create(io::parse_vroom_problem(json, "fleet.json"));
    (void)solve(*p, SolveOptions{});
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidInput) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "did not throw";
  return {};
}

// As VROOM refuses a starting route over capacity ("Route over capacity for vehicle 1."), with
// the step that makes it so.
TEST(StartSteps, InvalidStepsAreRefusedWithTheirPath) {
  EXPECT_NE(refusal(line_problem(job_steps({1, 2, 3}), "[2]"))
                .find("vehicles[0].steps[2]: the vehicle's steps up to this one cannot be "
                      "scheduled (capacity)"),
            std::string::npos);
  EXPECT_NE(refusal(line_problem(job_steps({1, 2, 3}, 3), "[2]"))
                .find("vehicles[0].steps[2]: the vehicle's steps up to this one cannot be "
                      "scheduled (capacity)"),
            std::string::npos);
}

}  // namespace
}  // namespace routesolve
