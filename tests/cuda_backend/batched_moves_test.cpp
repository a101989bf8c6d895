// Batched move evaluation (cuda_backend/src/search): every priced delta against an independent
// application of the move plus an independent cost sum, every "feasible" against schedule_route,
// on random feasible solutions of random instances (batched_fixture.hpp); the host twin's grid
// and its best move per customer. The descent and the search: batched_search_test.cpp.

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "batched_fixture.hpp"
#include "search/host_grid.hpp"
#include "search/search_engine.hpp"

namespace routesolve::cuda::batched {
namespace {

namespace ds = detail::batched;

/// The move applied the plain way (the definitions in views.cuh's MoveType comments).
RouteSet apply_plain(const RouteSet& in, std::int32_t u, std::int32_t v, std::uint32_t type) {
  RouteSet rs = in;
  const Where wu = find(rs, u), wv = find(rs, v);
  switch (type) {
    case ds::kRelocateAfter:
    case ds::kRelocateBefore:
    case ds::kOrOpt2:
    case ds::kOrOpt3: {
      const std::size_t len = type == ds::kOrOpt2 ? 2 : type == ds::kOrOpt3 ? 3 : 1;
      auto& from = rs[wu.route];
      std::vector<std::int32_t> seg(from.begin() + static_cast<std::ptrdiff_t>(wu.pos),
                                    from.begin() + static_cast<std::ptrdiff_t>(wu.pos + len));
      from.erase(from.begin() + static_cast<std::ptrdiff_t>(wu.pos),
                 from.begin() + static_cast<std::ptrdiff_t>(wu.pos + len));
      const Where nv = find(rs, v);
      auto& to = rs[nv.route];
      const std::size_t at = type == ds::kRelocateBefore ? nv.pos : nv.pos + 1;
      to.insert(to.begin() + static_cast<std::ptrdiff_t>(at), seg.begin(), seg.end());
      break;
    }
    case ds::kSwap:
      std::swap(rs[wu.route][wu.pos], rs[wv.route][wv.pos]);
      break;
    case ds::kTwoOptStar: {
      const auto& a = in[wu.route];
      const auto& b = in[wv.route];
      std::vector<std::int32_t> na(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(wu.pos + 1));
      na.insert(na.end(), b.begin() + static_cast<std::ptrdiff_t>(wv.pos), b.end());
      std::vector<std::int32_t> nb(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(wv.pos));
      nb.insert(nb.end(), a.begin() + static_cast<std::ptrdiff_t>(wu.pos + 1), a.end());
      rs[wu.route] = na;
      rs[wv.route] = nb;
      break;
    }
    case ds::kTwoOpt: {
      const std::size_t lo = std::min(wu.pos, wv.pos), hi = std::max(wu.pos, wv.pos);
      auto& r = rs[wu.route];
      std::reverse(r.begin() + static_cast<std::ptrdiff_t>(lo + 1), r.begin() + static_cast<std::ptrdiff_t>(hi + 1));
      break;
    }
    default:
      break;
  }
  return rs;
}

struct Counts {
  std::size_t priced = 0, feasible = 0, improving = 0;
};

/// Checks every (u, v, type) of one solution; exact = the model is exact (no shipments).
void check_all_moves(const Problem& p, const RouteSet& rs, bool exact, Counts& counts) {
  const PackedProblem packed = pack_problem(p, 8);
  const PackedBatch batch = pack_batch(packed, {&rs});
  const ProblemView pv = packed.view(packed.arena.bytes.data());
  const BatchView bv = batch.view(batch.arena.bytes.data());
  HostPrefix prefix;
  build_prefix_host(pv, bv, batch.routes, prefix, 1);
  const Cost before = plain_cost(p, rs);
  const auto tasks = static_cast<std::int32_t>(p.tasks().size());
  for (std::int32_t u = 0; u < tasks; ++u)
    for (std::int32_t v = 0; v < tasks; ++v)
      for (std::uint32_t type = 0; type < ds::kPairRelocate; ++type) {
        ds::RouteSpec spec[2];
        const std::uint32_t n = ds::make_specs(pv, bv, prefix.view, 0, u, v, type, 0, spec);
        const ds::MoveResult res = ds::price_move(pv, bv, prefix.view, 0, u, v, type);
        if (n == 0) {
          EXPECT_FALSE(res.feasible);
          continue;
        }
        ++counts.priced;
        const RouteSet after = apply_plain(rs, u, v, type);
        // The composed routes are exactly the plain move's routes.
        for (std::uint32_t i = 0; i < n; ++i)
          ASSERT_EQ(materialize(bv, spec[i]), after[spec[i].veh])
              << "type " << type << " u " << u << " v " << v << " route " << i;
        const bool feasible = all_feasible(p, after);
        if (res.feasible) {
          ++counts.feasible;
          if (res.delta < 0) ++counts.improving;
          ASSERT_TRUE(feasible) << "claimed feasible: type " << type << " u " << u << " v " << v;
          std::string detail;
          for (std::uint32_t i = 0; i < n; ++i) {
            RouteSet only(rs.size());
            only[spec[i].veh] = after[spec[i].veh];
            RouteSet old_only(rs.size());
            old_only[spec[i].veh] = rs[spec[i].veh];
            detail += " route " + std::to_string(spec[i].veh) + ": priced " +
                      std::to_string(ds::price_route(pv, bv, prefix.view, spec[i]).cost) + " plain " +
                      std::to_string(plain_cost(p, only)) + " old " +
                      std::to_string(ds::route_cost(pv, bv, prefix.view, bv.pos_route[spec[i].prefix])) + "/" +
                      std::to_string(plain_cost(p, old_only));
          }
          ASSERT_EQ(res.delta, plain_cost(p, after) - before)
              << "type " << type << " u " << u << " v " << v << detail;
        } else if (exact) {
          ASSERT_FALSE(feasible) << "missed a feasible move: type " << type << " u " << u << " v " << v;
        }
      }
}

/// Pair relocate the plain way: pickup u and its delivery out of their route, u right after v,
/// the delivery right after task `after` (-1: right after u).
RouteSet apply_pair(const Problem& p, const RouteSet& in, std::int32_t u, std::int32_t v, std::int32_t after) {
  RouteSet rs = in;
  const auto d = static_cast<std::int32_t>(p.task(static_cast<std::size_t>(u)).sibling);
  for (auto& r : rs) r.erase(std::remove_if(r.begin(), r.end(), [&](std::int32_t t) { return t == u || t == d; }), r.end());
  const Where wv = find(rs, v);
  auto& to = rs[wv.route];
  to.insert(to.begin() + static_cast<std::ptrdiff_t>(wv.pos + 1), u);
  const Where wa = find(rs, after < 0 ? u : after);
  to.insert(to.begin() + static_cast<std::ptrdiff_t>(wa.pos + 1), d);
  return rs;
}

/// Every pair relocate (pickup u, task v, delivery position q) of one solution: the composed
/// routes are the plain move's, the delta is the recomputed cost difference, and "feasible" is
/// schedule_route's verdict both ways (the pair move is exact: both halves move together).
/// Routes with breaks: Exclude never prices them, Relax prices them with the exact cost and a
/// verdict that schedule_route may only narrow. Counts the feasible and improving pair moves.
void check_pair_moves(const Problem& p, const RouteSet& rs, std::size_t* feasible_count = nullptr,
                      std::size_t* improving = nullptr) {
  const PackedProblem packed = pack_problem(p, 8);
  const PackedBatch batch = pack_batch(packed, {&rs});
  const ProblemView pv = packed.view(packed.arena.bytes.data());
  const BatchView bv = batch.view(batch.arena.bytes.data());
  HostPrefix prefix;
  build_prefix_host(pv, bv, batch.routes, prefix, 1);
  const Cost before = plain_cost(p, rs);
  const auto tasks = static_cast<std::int32_t>(p.tasks().size());
  for (std::int32_t u = 0; u < tasks; ++u) {
    if (p.task(static_cast<std::size_t>(u)).type != TaskType::Pickup) continue;
    if (bv.task_pos[static_cast<std::size_t>(u)] < 0) continue;
    for (std::int32_t v = 0; v < tasks; ++v) {
      const std::int32_t pos_v = bv.task_pos[static_cast<std::size_t>(v)];
      if (pos_v < 0) continue;
      const std::uint32_t last = bv.route_offsets[bv.pos_route[static_cast<std::uint32_t>(pos_v)] + 1] - 1;
      for (std::uint32_t q = static_cast<std::uint32_t>(pos_v); q < last + 2; ++q) {
        ds::RouteSpec spec[2];
        const std::uint32_t n = ds::make_specs(pv, bv, prefix.view, 0, u, v, ds::kPairRelocate, q, spec);
        const ds::MoveResult res = ds::price_move(pv, bv, prefix.view, 0, u, v, ds::kPairRelocate, q);
        const ds::MoveResult relaxed =
            ds::price_move(pv, bv, prefix.view, 0, u, v, ds::kPairRelocate, q, ds::BreakRule::Relax);
        if (n == 0) {
          ASSERT_FALSE(res.feasible);
          ASSERT_FALSE(relaxed.feasible);
          continue;
        }
        ASSERT_LT(q, last) << "priced a delivery position past the route";
        const std::int32_t after = q == static_cast<std::uint32_t>(pos_v) ? -1 : bv.pos_task[q];
        const RouteSet plain = apply_pair(p, rs, u, v, after);
        for (std::uint32_t i = 0; i < n; ++i)
          ASSERT_EQ(materialize(bv, spec[i]), plain[spec[i].veh]) << "u " << u << " v " << v << " q " << q;
        ASSERT_NE(plain, rs) << "a no-op priced as a move: u " << u << " v " << v << " q " << q;
        bool touches_breaks = false;
        for (std::uint32_t i = 0; i < n; ++i) touches_breaks = touches_breaks || !p.vehicle(spec[i].veh).breaks.empty();
        const bool feasible = all_feasible(p, plain);
        if (touches_breaks) {
          ASSERT_FALSE(res.feasible) << "Exclude priced a route with breaks";
          if (feasible) {
            ASSERT_TRUE(relaxed.feasible) << "Relax rejected a feasible move: u " << u << " v " << v;
          }
          if (relaxed.feasible) {
            ASSERT_EQ(relaxed.delta, plain_cost(p, plain) - before);
          }
        } else {
          ASSERT_EQ(res.feasible, feasible) << "u " << u << " v " << v << " q " << q;
          ASSERT_EQ(relaxed.feasible, res.feasible);
        }
        if (res.feasible) {
          ASSERT_EQ(res.delta, plain_cost(p, plain) - before) << "u " << u << " v " << v << " q " << q;
          ASSERT_EQ(relaxed.delta, res.delta);
          if (feasible_count != nullptr) ++*feasible_count;
          if (improving != nullptr && res.delta < 0) ++*improving;
        }
      }
    }
  }
}

TEST(BatchedMoves, PairRelocateDeltaEqualsRecomputation) {
  std::size_t feasible = 0, improving = 0, intra = 0;
  for (std::uint64_t seed = 200; seed < 240; ++seed) {
    const auto p = random_instance(seed, 8 + seed % 7, InstanceKind{true, seed % 2 == 0});
    std::mt19937_64 rng(seed);
    for (int s = 0; s < 3; ++s) {
      const RouteSet rs = random_solution(*p, rng);
      check_pair_moves(*p, rs, &feasible, &improving);
      for (const auto& r : rs) intra += r.size() >= 4 ? 1 : 0;
      if (HasFatalFailure()) return;
    }
  }
  EXPECT_GT(feasible, 500u);
  EXPECT_GT(improving, 50u);
  EXPECT_GT(intra, 20u);
}

/// Every move of a solution of an instance with breaks: Exclude never prices a move touching a
/// route with breaks; Relax prices it with the exact delta and never rejects one schedule_route
/// accepts; moves away from those routes are priced alike by both.
TEST(BatchedMoves, RoutesWithBreaksExcludedOrRelaxedNeverWrong) {
  std::size_t relaxed_feasible = 0, exact_feasible = 0, excluded = 0;
  for (std::uint64_t seed = 300; seed < 330; ++seed) {
    const auto p = random_instance(seed, 10 + seed % 6, InstanceKind{seed % 3 == 0, seed % 2 == 0, true});
    std::mt19937_64 rng(seed);
    for (int s = 0; s < 2; ++s) {
      const RouteSet rs = random_solution(*p, rng);
      const PackedProblem packed = pack_problem(*p, 8);
      const PackedBatch batch = pack_batch(packed, {&rs});
      const ProblemView pv = packed.view(packed.arena.bytes.data());
      const BatchView bv = batch.view(batch.arena.bytes.data());
      HostPrefix prefix;
      build_prefix_host(pv, bv, batch.routes, prefix, 1);
      const Cost before = plain_cost(*p, rs);
      const auto tasks = static_cast<std::int32_t>(p->tasks().size());
      for (std::int32_t u = 0; u < tasks; ++u)
        for (std::int32_t v = 0; v < tasks; ++v)
          for (std::uint32_t type = 0; type < ds::kPairRelocate; ++type) {
            ds::RouteSpec spec[2];
            const std::uint32_t n = ds::make_specs(pv, bv, prefix.view, 0, u, v, type, 0, spec);
            if (n == 0) continue;
            const auto strict = ds::price_move(pv, bv, prefix.view, 0, u, v, type);
            const auto relaxed = ds::price_move(pv, bv, prefix.view, 0, u, v, type, 0, ds::BreakRule::Relax);
            bool touches = false;
            for (std::uint32_t i = 0; i < n; ++i) touches = touches || !p->vehicle(spec[i].veh).breaks.empty();
            const RouteSet after = apply_plain(rs, u, v, type);
            const bool feasible = all_feasible(*p, after);
            if (touches) {
              ASSERT_FALSE(strict.feasible) << "type " << type << " u " << u << " v " << v;
              ++excluded;
              if (feasible) {
                ++exact_feasible;
                ASSERT_TRUE(relaxed.feasible) << "type " << type << " u " << u << " v " << v;
              }
              if (relaxed.feasible) {
                ++relaxed_feasible;
                ASSERT_EQ(relaxed.delta, plain_cost(*p, after) - before) << "type " << type;
              }
            } else {
              ASSERT_EQ(strict.feasible, relaxed.feasible);
              if (strict.feasible) {
                ASSERT_EQ(strict.delta, relaxed.delta);
              }
            }
          }
      check_pair_moves(*p, rs);
      if (HasFatalFailure()) return;
    }
  }
  EXPECT_GT(excluded, 1000u);
  EXPECT_GT(exact_feasible, 100u);
  EXPECT_GE(relaxed_feasible, exact_feasible);
}

TEST(BatchedMoves, EveryDeltaEqualsRecomputationJobs) {
  Counts counts;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const auto p = random_instance(seed, 10 + seed % 9, InstanceKind{false, seed % 2 == 0});
    std::mt19937_64 rng(seed * 7);
    for (int s = 0; s < 3; ++s) check_all_moves(*p, random_solution(*p, rng), true, counts);
  }
  EXPECT_GT(counts.feasible, 1000u);
  EXPECT_GT(counts.improving, 100u);
}

TEST(BatchedMoves, ShipmentsNeverPricedInfeasible) {
  Counts counts;
  for (std::uint64_t seed = 100; seed < 120; ++seed) {
    const auto p = random_instance(seed, 12, InstanceKind{true, seed % 2 == 0});
    std::mt19937_64 rng(seed);
    for (int s = 0; s < 3; ++s) check_all_moves(*p, random_solution(*p, rng), false, counts);
  }
  EXPECT_GT(counts.feasible, 100u);
}

TEST(BatchedMoves, HostEngineKeepsTheBestMovePerCustomer) {
  const auto p = random_instance(7, 18, InstanceKind{false, true});
  std::mt19937_64 rng(3);
  std::vector<RouteSet> sols;
  for (int s = 0; s < 4; ++s) sols.push_back(random_solution(*p, rng));
  std::vector<const RouteSet*> ptrs;
  for (const auto& s : sols) ptrs.push_back(&s);
  const PackedProblem packed = pack_problem(*p, 6);
  const PackedBatch batch = pack_batch(packed, ptrs);
  auto engine = make_host_engine(2);
  engine->set_problem(packed);
  std::vector<Move> best;
  EngineTimes times;
  engine->evaluate(batch, best, times);
  ASSERT_EQ(best.size(), sols.size() * p->tasks().size());
  const ProblemView pv = packed.view(packed.arena.bytes.data());
  const BatchView bv = batch.view(batch.arena.bytes.data());
  HostPrefix prefix;
  build_prefix_host(pv, bv, batch.routes, prefix, 1);
  for (std::uint32_t s = 0; s < sols.size(); ++s)
    for (std::int32_t u = 0; u < static_cast<std::int32_t>(p->tasks().size()); ++u) {
      std::int64_t want = ds::kNoMove;
      for (std::uint32_t k = 0; k < packed.neighbours; ++k) {
        const std::int32_t v = pv.neighbour[static_cast<std::size_t>(u) * packed.neighbours + k];
        for (std::uint32_t type = 0; type < ds::kMoveTypes; ++type) {
          if (bv.task_pos[s * p->tasks().size() + static_cast<std::size_t>(u)] < 0) continue;
          const auto r = ds::price_move(pv, bv, prefix.view, s, u, v, type);
          if (r.feasible && r.delta < 0) want = std::min(want, r.delta);
        }
      }
      EXPECT_EQ(best[s * p->tasks().size() + static_cast<std::size_t>(u)].delta, want);
    }
  EXPECT_GT(times.moves, 0u);
}

/// The host twin's launcher runs a body once for every thread of the device's grid: indices
/// [0, n) each once, nothing past n, block and thread as the kernel sees them.
struct CountBody {
  std::uint32_t* hits;
  std::uint64_t n;
  void operator()(std::uint32_t thread, std::uint32_t block) const {
    ASSERT_LT(thread, ds::kBlock);
    const std::uint64_t i = ds::thread_index(thread, block);
    ASSERT_LT(i, ds::engine_grid(n).total_threads());
    if (i < n) ++hits[i];
  }
};

TEST(BatchedMoves, HostGridRunsEveryThreadOfTheDeviceGridOnce) {
  for (const std::uint64_t n : {1ull, 127ull, 128ull, 129ull, 1000ull}) {
    std::vector<std::uint32_t> hits(n, 0);
    ds::run_grid(CountBody{hits.data(), n}, n, 1);
    EXPECT_EQ(std::count(hits.begin(), hits.end(), 1u), static_cast<std::ptrdiff_t>(n)) << n;
  }
}

/// The batch finds improving pair relocates on shipment instances (the move is live, not only
/// priced in isolation), and the best one per pickup is the minimum over every delivery position.
TEST(BatchedMoves, PairRelocateIsPickedInTheBatch) {
  std::size_t picked = 0;
  for (std::uint64_t seed = 400; seed < 420; ++seed) {
    const auto p = random_instance(seed, 16, InstanceKind{true, false});
    std::mt19937_64 rng(seed);
    std::vector<RouteSet> sols;
    for (int s = 0; s < 3; ++s) sols.push_back(random_solution(*p, rng));
    std::vector<const RouteSet*> ptrs;
    for (const auto& x : sols) ptrs.push_back(&x);
    const PackedProblem packed = pack_problem(*p, 8);
    const PackedBatch batch = pack_batch(packed, ptrs);
    auto engine = make_host_engine(2);
    engine->set_problem(packed);
    std::vector<Move> best;
    EngineTimes times;
    engine->evaluate(batch, best, times);
    const ProblemView pv = packed.view(packed.arena.bytes.data());
    const BatchView bv = batch.view(batch.arena.bytes.data());
    HostPrefix prefix;
    build_prefix_host(pv, bv, batch.routes, prefix, 1);
    for (std::size_t i = 0; i < best.size(); ++i) {
      const Move& m = best[i];
      if (m.type != ds::kPairRelocate || m.delta == ds::kNoMove) continue;
      ++picked;
      const auto s = static_cast<std::uint32_t>(i / p->tasks().size());
      const auto r = ds::price_move(pv, bv, prefix.view, s, m.u, m.v, ds::kPairRelocate, m.aux);
      ASSERT_TRUE(r.feasible);
      ASSERT_EQ(r.delta, m.delta);
      const std::int32_t pos_v = bv.task_pos[s * p->tasks().size() + static_cast<std::size_t>(m.v)];
      const std::uint32_t last = bv.route_offsets[bv.pos_route[static_cast<std::uint32_t>(pos_v)] + 1] - 1;
      for (std::uint32_t q = static_cast<std::uint32_t>(pos_v); q < last; ++q) {
        const auto o = ds::price_move(pv, bv, prefix.view, s, m.u, m.v, ds::kPairRelocate, q);
        if (o.feasible) {
          ASSERT_GE(o.delta, m.delta);
        }
      }
    }
  }
  EXPECT_GT(picked, 20u);
}

}  // namespace
}  // namespace routesolve::cuda::batched
