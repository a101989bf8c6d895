// The shared segment arithmetic (routesolve/hd/segment.hpp) against a sequential walk: random
// visit sequences, merged in any grouping (left to right, right to left, random split trees),
// give the profile of walking the sequence visit by visit.

#include "routesolve/hd/segment.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace routesolve::test {
namespace {

struct Visit {
  std::int64_t delivery = 0, pickup = 0;
  bool job = true;
};

/// Random visits of one dimension: jobs, and shipment halves (pickup or delivery only).
std::vector<Visit> random_visits(std::mt19937_64& rng, std::size_t n) {
  std::vector<Visit> out(n);
  for (Visit& v : out) {
    switch (rng() % 3) {
      case 0:
        v = Visit{static_cast<std::int64_t>(rng() % 7), static_cast<std::int64_t>(rng() % 7), true};
        break;
      case 1:
        v = Visit{0, static_cast<std::int64_t>(1 + rng() % 5), false};
        break;
      default:
        v = Visit{static_cast<std::int64_t>(1 + rng() % 5), 0, false};
        break;
    }
  }
  return out;
}

/// Merges segs[from, to) by a random split tree.
template <typename Seg, typename Merge>
Seg merge_tree(const std::vector<Seg>& segs, std::size_t from, std::size_t to, std::mt19937_64& rng,
               Merge merge) {
  if (to - from == 1) return segs[from];
  const std::size_t mid = from + 1 + rng() % (to - from - 1);
  const Seg left = merge_tree(segs, from, mid, rng, merge);
  return merge(left, merge_tree(segs, mid, to, rng, merge), mid);
}

void expect_same(const LoadProfile& a, const LoadProfile& b) {
  EXPECT_EQ(a.carried, b.carried);
  EXPECT_EQ(a.net, b.net);
  EXPECT_EQ(a.peak, b.peak);
}

TEST(SegmentTest, LoadMergeInAnyGroupingMatchesTheWalk) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    const std::size_t n = 1 + rng() % 12;
    const std::vector<Visit> visits = random_visits(rng, n);
    // The walk: job deliveries on board at the start, then each visit drops and picks up.
    std::int64_t load = 0;
    for (const Visit& v : visits) load += v.job ? v.delivery : 0;
    const std::int64_t start = load;
    std::int64_t highest = load;
    for (const Visit& v : visits) {
      load += v.pickup - v.delivery;
      highest = std::max(highest, load);
    }

    std::vector<LoadProfile> segs;
    for (const Visit& v : visits) segs.push_back(visit_load(v.delivery, v.pickup, v.job));
    LoadProfile left;  // the empty sequence, then visit by visit
    for (const LoadProfile& s : segs) left = merge(left, s);
    LoadProfile right;
    for (std::size_t i = segs.size(); i-- > 0;) right = merge(segs[i], right);
    const LoadProfile tree = merge_tree(
        segs, 0, segs.size(), rng,
        [](const LoadProfile& a, const LoadProfile& b, std::size_t) { return merge(a, b); });

    expect_same(left, right);
    expect_same(left, tree);
    EXPECT_EQ(left.carried, start);
    EXPECT_EQ(route_peak(left), highest);
    EXPECT_EQ(load_after(start, left), load);
  }
}

TEST(SegmentTest, LoadSegmentMergesEveryDimensionAlone) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 500; ++trial) {
    const std::size_t dims = 1 + rng() % kMaxDims;
    const std::size_t n = 1 + rng() % 8;
    std::vector<std::vector<Visit>> per_dim;
    for (std::size_t d = 0; d < dims; ++d) per_dim.push_back(random_visits(rng, n));
    std::vector<LoadSegment> segs(n, empty_load());
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t d = 0; d < dims; ++d)
        segs[i].set(d, visit_load(per_dim[d][i].delivery, per_dim[d][i].pickup, per_dim[d][i].job));
    const LoadSegment all = merge_tree(
        segs, 0, n, rng, [dims](const LoadSegment& a, const LoadSegment& b, std::size_t) {
          return merge(a, b, dims);
        });
    std::int64_t capacity[kMaxDims] = {};
    for (std::size_t d = 0; d < dims; ++d) {
      LoadProfile one;
      for (std::size_t i = 0; i < n; ++i) one = merge(one, segs[i].dim(d));
      expect_same(all.dim(d), one);
      capacity[d] =
          route_peak(one) - static_cast<std::int64_t>(rng() % 2);  // at or just under the peak
    }
    std::int64_t excess = 0;
    for (std::size_t d = 0; d < dims; ++d)
      excess += std::max<std::int64_t>(0, route_peak(all.dim(d)) - capacity[d]);
    EXPECT_EQ(load_excess(all, capacity, dims), excess);
    // fits(a, b, c): any three consecutive pieces of the sequence.
    const std::size_t i = rng() % n, j = i + rng() % (n - i);
    LoadSegment a = empty_load(), b = empty_load(), c = empty_load();
    for (std::size_t k = 0; k < n; ++k) {
      LoadSegment& piece = k < i ? a : k < j ? b : c;
      piece = merge(piece, segs[k], dims);
    }
    EXPECT_EQ(fits(a, b, c, capacity, dims), excess == 0);
  }
}

struct TimedVisit {
  std::int64_t open = 0, close = 0, work = 0, travel = 0;  // travel: from the previous visit
};

TEST(SegmentTest, DurationMergeInAnyGroupingMatchesTheSchedule) {
  std::mt19937_64 rng(3);
  int feasible = 0, infeasible = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const std::size_t n = 1 + rng() % 8;
    std::vector<TimedVisit> visits(n);
    std::int64_t horizon = 0;
    for (TimedVisit& v : visits) {
      v.travel = static_cast<std::int64_t>(rng() % 30);
      v.work = static_cast<std::int64_t>(rng() % 15);
      horizon += v.travel + v.work;
      v.open = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(horizon + 1));
      v.close = v.open + static_cast<std::int64_t>(rng() % 60);
    }
    visits.front().travel = 0;

    // The schedule: leave as early as the first window opens, wait where early (visit_time).
    std::int64_t t = visits.front().open;
    bool ok = true;
    for (const TimedVisit& v : visits) {
      const VisitTime at = visit_time(t + v.travel, v.open, v.close, 0, v.work);
      ok = ok && at.in_window;
      t = at.departure;
    }

    std::vector<DurationSegment> segs;
    for (const TimedVisit& v : visits) segs.push_back(visit_duration(v.work, v.open, v.close));
    DurationSegment left = segs.front();
    for (std::size_t i = 1; i < n; ++i) left = merge(left, segs[i], visits[i].travel);
    const DurationSegment tree = merge_tree(
        segs, 0, n, rng, [&](const DurationSegment& a, const DurationSegment& b, std::size_t mid) {
          return merge(a, b, visits[mid].travel);
        });
    EXPECT_EQ(tree.duration, left.duration);
    EXPECT_EQ(tree.time_warp, left.time_warp);
    EXPECT_EQ(tree.earliest, left.earliest);
    EXPECT_EQ(tree.latest, left.latest);
    EXPECT_EQ(left.time_warp == 0, ok);
    if (ok) {
      ++feasible;
      EXPECT_LE(left.earliest, left.latest);
      EXPECT_EQ(left.earliest + left.duration, t);  // the earliest completion
    } else {
      ++infeasible;
    }
  }
  EXPECT_GT(feasible, 100);
  EXPECT_GT(infeasible, 100);
}

TEST(SegmentTest, VisitTimeCountsSetupFromAnotherLocationOnly) {
  const VisitTime early = visit_time(5, 10, 20, setup_from(false, 3), 4);
  EXPECT_EQ(early.begin, 10);
  EXPECT_EQ(early.departure, 17);
  EXPECT_TRUE(early.in_window);
  const VisitTime same = visit_time(12, 10, 20, setup_from(true, 3), 4);
  EXPECT_EQ(same.begin, 12);
  EXPECT_EQ(same.departure, 16);
  EXPECT_FALSE(visit_time(21, 10, 20, 0, 0).in_window);
  // Backwards: the work must begin by the window's end and leave the setup time before the bound.
  EXPECT_EQ(latest_begin(20, 30, 3), 20);
  EXPECT_EQ(latest_begin(20, 15, 3), 12);
}

}  // namespace
}  // namespace routesolve::test
