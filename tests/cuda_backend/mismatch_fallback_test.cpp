// Mismatches are loud: a move engine whose result does not check out (a double that reports one
// priced delta wrong) is counted in the stats and the solution, never applied, and with a
// fallback engine the rest of the search runs on the host engine; the solution validates.

#include <gtest/gtest.h>

#include <memory>

#include "batched_fixture.hpp"
#include "faulty_device.hpp"
#include "routesolve/validator.hpp"
#include "search/search_backend.hpp"

using namespace routesolve;
using namespace routesolve::cuda::search;
using test::Faults;
using test::FaultyEngine;

namespace {

struct SearchRun {
  Solution solution;
  SearchStats stats;
  std::uint64_t flipped = 0;
  int fallbacks_made = 0;
};

SearchRun search_with(const Problem& p, Faults faults, ApplyMode mode, bool with_fallback) {
  SearchRun run;
  SolveOptions options;
  options.seed = 7;
  BatchedSearchOptions search;
  search.max_rounds = 4;
  search.batch = 4;
  search.apply = mode;
  if (with_fallback)
    search.fallback_engine = [&run] {
      ++run.fallbacks_made;
      return make_host_engine(1);
    };
  FaultyEngine engine(faults);
  run.solution = batched_search(p, options, engine, search, &run.stats);
  run.flipped = engine.flipped;
  return run;
}

}  // namespace

TEST(Mismatches, ACorrectEngineHasNoneAndNeverFallsBack) {
  const auto p = random_instance(21, 30, InstanceKind{false, true});
  for (const ApplyMode mode : {ApplyMode::Engine, ApplyMode::Host}) {
    const SearchRun run = search_with(*p, {}, mode, true);
    EXPECT_EQ(run.stats.mismatched, 0u);
    EXPECT_TRUE(run.stats.fallback.empty()) << run.stats.fallback;
    EXPECT_EQ(run.fallbacks_made, 0);
    EXPECT_TRUE(validate(*p, run.solution).ok());
  }
}

TEST(Mismatches, AWrongGainInTheEngineIsCountedAndSwitchesToTheHostEngine) {
  const auto p = random_instance(22, 30, InstanceKind{false, true});
  const SearchRun run = search_with(*p, {.gain = true}, ApplyMode::Engine, true);
  ASSERT_GT(run.flipped, 0u);
  EXPECT_GE(run.stats.mismatched, 1u);
  EXPECT_EQ(run.fallbacks_made, 1);  // once, for the rest of the search
  EXPECT_NE(run.stats.fallback.find("faulty twin move engine did not match the host check"), std::string::npos)
      << run.stats.fallback;
  EXPECT_GE(run.flipped, run.stats.mismatched);  // a solution with several wrong gains is one mismatch
  const ValidationReport report = validate(*p, run.solution);
  EXPECT_TRUE(report.ok()) << report.to_text();
}

TEST(Mismatches, AWrongPricedDeltaOnTheHostPathIsCountedAndNeverApplied) {
  const auto p = random_instance(23, 30, InstanceKind{false, true});
  const SearchRun kept = search_with(*p, {.delta = true}, ApplyMode::Host, false);
  ASSERT_GT(kept.flipped, 0u);
  EXPECT_GE(kept.stats.mismatched, 1u);  // caught before it was applied (a clashing one is skipped)
  EXPECT_LE(kept.stats.mismatched, kept.flipped);
  EXPECT_TRUE(kept.stats.fallback.empty());
  EXPECT_TRUE(validate(*p, kept.solution).ok());

  const SearchRun switched = search_with(*p, {.delta = true}, ApplyMode::Host, true);
  EXPECT_GE(switched.stats.mismatched, 1u);
  EXPECT_EQ(switched.fallbacks_made, 1);
  EXPECT_FALSE(switched.stats.fallback.empty());
  EXPECT_TRUE(validate(*p, switched.solution).ok());
}

TEST(Mismatches, TheSolutionSaysHowManyAndWhyItFellBack) {
  const auto p = random_instance(24, 30, InstanceKind{false, true});
  SolveOptions options;
  options.seed = 3;
  BatchedSearchOptions search;
  search.fallback_engine = [] { return make_host_engine(1); };
  FaultyEngine engine({.gain = true});
  const Solution s = solve_batched(*p, options, engine, "cuda", search);
  EXPECT_GE(s.mismatches, 1u);
  EXPECT_EQ(s.backend, "cuda-host");  // what really finished the search
  EXPECT_NE(s.fallback.find("continued on the host engine"), std::string::npos) << s.fallback;
  EXPECT_TRUE(validate(*p, s).ok());

  // Without a fallback engine the mismatches are still counted, and the backend is unchanged.
  FaultyEngine again({.gain = true});
  const Solution counted = solve_batched(*p, options, again, "cuda");
  EXPECT_GE(counted.mismatches, 1u);
  EXPECT_EQ(counted.backend, "cuda");
  EXPECT_TRUE(counted.fallback.empty());
  EXPECT_TRUE(validate(*p, counted).ok());

  auto host = make_host_engine(1);
  const Solution clean = solve_batched(*p, options, *host, "cuda-host");
  EXPECT_EQ(clean.mismatches, 0u);
  EXPECT_TRUE(clean.fallback.empty());
}
