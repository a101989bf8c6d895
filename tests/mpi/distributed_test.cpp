// The distributed layer in a world of one process (no mpirun): row blocks, the binary blocks
// against io's writer, crash isolation, the hand-out order, route groups, subproblems and the
// decomposed solve.

#include <gtest/gtest.h>

#include <csignal>
#include <numeric>
#include <set>
#include <sstream>
#include <stdexcept>

#include "routesolve/distributed/decompose.hpp"
#include "routesolve/distributed/matrix_rows.hpp"
#include "routesolve/distributed/work_queue.hpp"
#include "routesolve/distributed/world.hpp"
#include "routesolve/io/formats.hpp"
#include "routesolve/io/matrix_formats.hpp"
#include "routesolve/solve.hpp"
#include "routesolve/validator.hpp"
#include "test_support.hpp"

namespace routesolve::distributed {
namespace {

TEST(Distributed, WorldOfOneOutsideMpirun) {
  EXPECT_EQ(rank(), 0);
  EXPECT_EQ(size(), 1);
  EXPECT_FALSE(distributed());
  std::string bytes = "abc";
  broadcast(bytes);
  EXPECT_EQ(bytes, "abc");
  EXPECT_EQ(gather("xyz"), std::vector<std::string>{"xyz"});
  EXPECT_EQ(sum_all(41), 41);
}

TEST(Distributed, RowBlocksCoverEveryRowOnceInRankOrder) {
  for (std::size_t n : {0u, 1u, 7u, 100u, 4001u})
    for (int ranks : {1, 2, 3, 8}) {
      std::size_t next = 0;
      for (int r = 0; r < ranks; ++r) {
        const RowBlock b = row_block(n, r, ranks);
        EXPECT_EQ(b.begin, next);
        EXPECT_LE(b.rows(), n / static_cast<std::size_t>(ranks) + 1);
        next = b.end;
      }
      EXPECT_EQ(next, n);
    }
}

TEST(Distributed, BinaryBlocksAssembleToTheSingleWriterBytes) {
  const std::size_t n = 5;
  NodeMatrices m;
  m.rows = m.cols = n;
  for (std::size_t i = 0; i < n * n; ++i) {
    m.durations.push_back(i % 7 == 3 ? kUnreachable
                                     : static_cast<std::int64_t>(i * 13 + 4));  // deciseconds
    m.distances.push_back(i % 7 == 3 ? kUnreachable : static_cast<std::int64_t>(i * 101));
  }
  std::ostringstream whole;
  io::write_binary_matrices(whole, m);
  const std::string expected = whole.str();
  for (int ranks : {1, 2, 3}) {
    std::string file(expected.size(), '\0');
    for (int r = 0; r < ranks; ++r) {
      const RowBlock b = row_block(n, r, ranks);
      NodeMatrices rows;
      rows.rows = b.rows();
      rows.cols = n;
      rows.durations.assign(m.durations.begin() + static_cast<long>(b.begin * n),
                            m.durations.begin() + static_cast<long>(b.end * n));
      rows.distances.assign(m.distances.begin() + static_cast<long>(b.begin * n),
                            m.distances.begin() + static_cast<long>(b.end * n));
      const BinaryBlock bb = encode_binary_block(rows, n, b, true);
      if (!bb.header.empty()) file.replace(0, bb.header.size(), bb.header);
      file.replace(bb.durations_offset, bb.run, bb.durations());
      file.replace(bb.distances_offset, bb.run, bb.distances());
    }
    EXPECT_EQ(file, expected) << ranks << " ranks";
  }
}

TEST(Distributed, IsolatedRunReturnsTheAnswerTheErrorOrTheCrash) {
  const ItemResult ok = run_isolated([] { return std::string("42 routes"); });
  EXPECT_TRUE(ok.ok);
  EXPECT_EQ(ok.text, "42 routes");
  const ItemResult thrown =
      run_isolated([]() -> std::string { throw std::runtime_error("file.vrp: bad line 3"); });
  EXPECT_FALSE(thrown.ok);
  EXPECT_EQ(thrown.text, "file.vrp: bad line 3");
  const ItemResult crashed = run_isolated([]() -> std::string {
    std::raise(SIGSEGV);
    return "not reached";
  });
  EXPECT_FALSE(crashed.ok);
  // "signal 11"; under AddressSanitizer, which turns the SEGV into an abort, "signal 6".
  EXPECT_EQ(crashed.text.rfind("crashed: signal ", 0), 0u) << crashed.text;
}

TEST(Distributed, LargestFirstAndEveryItemOnce) {
  EXPECT_EQ(largest_first({5, 90, 5, 7}), (std::vector<std::size_t>{1, 3, 0, 2}));
  std::vector<std::size_t> seen;
  const std::size_t ran = run_work_queue(
      {2, 0, 1},
      [](std::size_t i) {
        return ItemResult{i != 1, std::to_string(i * 10)};
      },
      [&](std::size_t i, const ItemResult& r) {
        seen.push_back(i);
        EXPECT_EQ(r.ok, i != 1);
        EXPECT_EQ(r.text, std::to_string(i * 10));
      },
      [] { return false; });
  EXPECT_EQ(ran, 3u);
  EXPECT_EQ(seen, (std::vector<std::size_t>{2, 0, 1}));
}

ProblemPtr x_instance(const char* name) {
  return Problem::create(io::read_problem(test::datasets_dir() / "cvrp/x" / name));
}

TEST(Distributed, GroupsPartitionTheRoutesAndSubproblemsKeepTheirScore) {
  ROUTESOLVE_REQUIRE_DATASET("cvrp/x/X-n101-k25.vrp");
  const ProblemPtr p = x_instance("X-n101-k25.vrp");
  SolveOptions o;
  o.backend = BackendKind::Cpu;
  o.iterations = 200;
  const Solution s = solve(*p, o);
  const Plan plan = plan_of(*p, s);
  const CheckpointScore whole = plan_score(*p, plan);
  EXPECT_EQ(whole.cost, s.summary.cost);
  for (unsigned round = 0; round < 4; ++round) {
    const auto groups = group_routes(*p, plan, 4, round);
    std::multiset<std::size_t> vehicles;
    Cost cost = 0;
    for (const auto& g : groups) {
      vehicles.insert(g.begin(), g.end());
      const Subproblem sp = make_subproblem(*p, plan, g, {});
      Plan sub_plan(sp.vehicle_of.size());
      std::vector<std::size_t> sub_of(p->tasks().size(), kNone);
      for (std::size_t st = 0; st < sp.task_of.size(); ++st) sub_of[sp.task_of[st]] = st;
      for (std::size_t sv = 0; sv < sp.vehicle_of.size(); ++sv)
        for (std::size_t t : plan[sp.vehicle_of[sv]]) sub_plan[sv].push_back(sub_of[t]);
      cost += plan_score(*sp.problem, sub_plan).cost;
    }
    EXPECT_EQ(vehicles.size(), p->vehicles().size()) << "round " << round;
    EXPECT_EQ(std::set<std::size_t>(vehicles.begin(), vehicles.end()).size(), p->vehicles().size());
    EXPECT_EQ(cost, whole.cost) << "the groups' costs add up to the plan's, round " << round;
  }
}

TEST(Distributed, DecomposedSolveIsValidAndNoWorseThanItsFirstSearch) {
  ROUTESOLVE_REQUIRE_DATASET("cvrp/x/X-n101-k25.vrp");
  const ProblemPtr p = x_instance("X-n101-k25.vrp");
  SolveOptions o;
  o.backend = BackendKind::Cpu;
  o.iterations = 300;
  o.seed = 3;
  const Solution plain = solve(*p, o);  // the first search of a world of one
  DecomposeOptions d;
  d.rounds = 2;
  d.tasks_per_group = 40;
  const Solution a = decompose_solve(*p, o, d);
  EXPECT_TRUE(validate(*p, a).ok()) << validate(*p, a).to_text();
  EXPECT_LE(a.summary.cost, plain.summary.cost);
  EXPECT_LE(a.summary.unassigned, plain.summary.unassigned);
  const Solution b = decompose_solve(*p, o, d);
  EXPECT_EQ(plan_of(*p, a), plan_of(*p, b)) << "same seed, same ranks, same budget: same plan";
}

}  // namespace
}  // namespace routesolve::distributed
