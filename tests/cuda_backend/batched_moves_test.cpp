// Batched move evaluation (cuda_backend/src/search): every priced delta against an independent
// application of the move plus an independent cost sum, every "feasible" against schedule_route,
// on random feasible solutions of random instances (capacities in two dimensions, pickups and
// deliveries, time windows, setup, service, heterogeneous vehicles, open routes, shipments).
// Then the search: cuda-host solutions through the validator on the shared benchmark sets, and
// the device engine against the host twin exactly (skipped without a device).

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "routesolve/cuda/batched_search.hpp"
#include "routesolve/cuda/cuda_backend.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/formats.hpp"
#include "routesolve/solve.hpp"
#include "routesolve/validator.hpp"
#include "search/batched_search.hpp"
#include "search/host_grid.hpp"
#include "search/search_engine.hpp"
#include "test_support.hpp"

namespace routesolve::cuda::search {
namespace {

namespace ds = detail::search;

struct InstanceKind {
  bool shipments = false;
  bool heterogeneous = false;  // several start/end/speed/capacity/skills classes
  bool breaks = false;         // vehicles 0 and 2 take a break (one with a max_load)
};

ProblemPtr random_instance(std::uint64_t seed, std::size_t jobs, InstanceKind kind) {
  std::mt19937_64 rng(seed);
  auto uni = [&](std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng); };
  const std::size_t pairs = kind.shipments ? jobs / 4 : 0;
  const std::size_t locations = 2 + jobs + 2 * pairs;
  std::vector<std::pair<std::int64_t, std::int64_t>> xy(locations);
  for (auto& p : xy) p = {uni(0, 100), uni(0, 100)};
  if (locations > 5) xy[5] = xy[4];  // two jobs at one place: setup is skipped between them
  Matrix dur(locations), dist(locations);
  for (std::size_t i = 0; i < locations; ++i)
    for (std::size_t j = 0; j < locations; ++j) {
      const double dx = static_cast<double>(xy[i].first - xy[j].first);
      const double dy = static_cast<double>(xy[i].second - xy[j].second);
      dist(i, j) = static_cast<std::int64_t>(std::sqrt(dx * dx + dy * dy) * 10.0);
      dur(i, j) = dist(i, j) + (i != j ? uni(0, 5) : 0);  // asymmetric
    }
  ProblemSpec spec;
  spec.matrices["car"] = ProfileMatrices{dur, dist, std::nullopt};
  const std::int64_t horizon = 6000;
  auto window = [&]() {
    const std::int64_t a = uni(0, horizon - 800);
    return TimeWindow{a, a + uni(200, 2500)};
  };
  for (std::size_t j = 0; j < jobs; ++j) {
    JobSpec job;
    job.id = 1 + j;
    job.location.index = 2 + j;
    job.service = uni(0, 30);
    job.setup = uni(0, 2) == 0 ? uni(1, 20) : 0;
    job.delivery = Amount{uni(0, 10), uni(0, 3)};
    job.pickup = Amount{uni(0, 4) == 0 ? uni(0, 10) : 0, 0};
    if (uni(0, 2) != 0) job.time_windows = {window()};
    if (kind.heterogeneous && uni(0, 5) == 0) job.skills = {7};
    spec.jobs.push_back(job);
  }
  for (std::size_t s = 0; s < pairs; ++s) {
    ShipmentSpec sh;
    sh.pickup.id = 1000 + s;
    sh.pickup.location.index = 2 + jobs + 2 * s;
    sh.delivery.id = 2000 + s;
    sh.delivery.location.index = 3 + jobs + 2 * s;
    sh.amount = Amount{uni(1, 10), 0};
    sh.pickup.service = uni(0, 20);
    if (uni(0, 1) == 0) sh.delivery.time_windows = {window()};
    spec.shipments.push_back(sh);
  }
  const std::size_t vehicles = 3 + static_cast<std::size_t>(uni(0, 2));
  for (std::size_t v = 0; v < vehicles; ++v) {
    VehicleSpec veh;
    veh.id = 10 + v;
    veh.start = LocationSpec{0, std::nullopt};
    veh.end = LocationSpec{0, std::nullopt};
    veh.capacity = Amount{uni(20, 60), uni(5, 15)};
    veh.time_window = TimeWindow{0, horizon};
    if (kind.heterogeneous) {
      if (v == 1) veh.end.reset();                              // open route
      if (v == 2) veh.start = LocationSpec{1, std::nullopt};    // other depot
      if (v == 3) veh.speed_factor = 1.5;                       // other travel index
      if (v == 0) veh.skills = {7};
      if (v == 1) veh.max_tasks = 5;
      if (v == 2) veh.max_travel_time = 2500;
      veh.costs.fixed = uni(0, 1) * 500;
      veh.costs.per_km = uni(0, 1);
    }
    if (kind.breaks && (v == 0 || v == 2)) {
      BreakSpec br;
      br.id = 100 + v;
      const std::int64_t a = uni(500, 2500);
      br.time_windows = {TimeWindow{a, a + uni(100, 600)}};
      br.service = uni(50, 300);
      if (v == 2) br.max_load = Amount{uni(5, 30), 10};
      veh.breaks.push_back(br);
    }
    spec.vehicles.push_back(veh);
  }
  return Problem::create(std::move(spec));
}

/// A random feasible solution: tasks inserted in random order at random feasible places.
RouteSet random_solution(const Problem& p, std::mt19937_64& rng) {
  RouteSet routes(p.vehicles().size());
  std::vector<std::size_t> order(p.tasks().size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  for (const std::size_t t : order) {
    const Task& task = p.task(t);
    if (task.type == TaskType::Delivery) continue;
    for (int attempt = 0; attempt < 30; ++attempt) {
      const std::size_t v = rng() % routes.size();
      auto seq = routes[v];
      const std::size_t a = rng() % (seq.size() + 1);
      seq.insert(seq.begin() + static_cast<std::ptrdiff_t>(a), static_cast<std::int32_t>(t));
      if (task.sibling != kNone) {
        const std::size_t b = a + 1 + rng() % (seq.size() - a);
        seq.insert(seq.begin() + static_cast<std::ptrdiff_t>(b), static_cast<std::int32_t>(task.sibling));
      }
      if (schedule_route(p, v, {seq.begin(), seq.end()}).feasible) {
        routes[v] = std::move(seq);
        break;
      }
    }
  }
  return routes;
}

/// Independent cost: arc costs from the vehicle's start to its end, plus the fixed cost.
Cost plain_cost(const Problem& p, const RouteSet& routes) {
  Cost total = 0;
  for (std::size_t v = 0; v < routes.size(); ++v) {
    if (routes[v].empty()) continue;
    const TravelView tv = p.travel(v);
    std::size_t prev = p.vehicle(v).start;
    for (const auto t : routes[v]) {
      const std::size_t loc = p.task(static_cast<std::size_t>(t)).location;
      if (prev != kNone) total += tv.cost(prev, loc);
      prev = loc;
    }
    if (p.vehicle(v).end != kNone) total += tv.cost(prev, p.vehicle(v).end);
    total += p.fixed_cost(v);
  }
  return total;
}

struct Where {
  std::size_t route = kNone, pos = 0;
};
Where find(const RouteSet& rs, std::int32_t t) {
  for (std::size_t r = 0; r < rs.size(); ++r)
    for (std::size_t i = 0; i < rs[r].size(); ++i)
      if (rs[r][i] == t) return {r, i};
  return {};
}

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

bool all_feasible(const Problem& p, const RouteSet& rs) {
  for (std::size_t v = 0; v < rs.size(); ++v)
    if (!rs[v].empty() && !schedule_route(p, v, {rs[v].begin(), rs[v].end()}).feasible) return false;
  return true;
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
    ASSERT_LT(i, ds::blocks_for(n) * ds::kBlock);
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

/// Per-route schedule_route costs of a solution.
std::vector<Cost> route_costs(const Problem& p, const RouteSet& rs) {
  std::vector<Cost> out(rs.size(), 0);
  for (std::size_t v = 0; v < rs.size(); ++v)
    if (!rs[v].empty()) out[v] = schedule_route(p, v, {rs[v].begin(), rs[v].end()}).route.cost;
  return out;
}

struct Descended {
  std::vector<RouteSet> routes;
  std::vector<std::vector<Cost>> costs;
  SearchStats stats;
};

Descended run_descent(const Problem& p, const PackedProblem& packed, MoveEngine& engine,
                      const std::vector<RouteSet>& start, ApplyMode mode, bool verify) {
  Descended d;
  d.routes = start;
  for (const auto& rs : start) d.costs.push_back(route_costs(p, rs));
  BatchedSearchOptions options;
  options.apply = mode;
  options.verify_rounds = verify;
  engine.set_problem(packed);
  descend(p, packed, engine, d.routes, d.costs, options, d.stats);
  return d;
}

/// The moves applied inside the engine (TakeBody + WriteBody, the kernel bodies the device
/// runs, here through the host twin) give exactly the solutions of the host reference, which
/// applies each selected move on the host after schedule_route; the result is a local optimum.
TEST(BatchedDescent, EngineApplicationEqualsHostApplication) {
  std::uint64_t applied = 0, rounds = 0, pair_instances = 0, break_moves = 0;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const InstanceKind kind{seed % 3 == 0, seed % 2 == 0, seed % 5 == 0};
    const auto p = random_instance(seed, 15 + seed % 20, kind);
    std::mt19937_64 rng(seed * 11);
    std::vector<RouteSet> start;
    for (int s = 0; s < 4; ++s) start.push_back(random_solution(*p, rng));
    const PackedProblem packed = pack_problem(*p, 8);
    auto host_engine = make_host_engine(1);
    auto twin_engine = make_host_engine(1 + seed % 2);
    const Descended ref = run_descent(*p, packed, *host_engine, start, ApplyMode::Host, false);
    const Descended got = run_descent(*p, packed, *twin_engine, start, ApplyMode::Engine, true);
    ASSERT_EQ(ref.routes, got.routes) << "seed " << seed;
    ASSERT_EQ(ref.costs, got.costs) << "seed " << seed;
    EXPECT_EQ(ref.stats.rejected, 0u) << "seed " << seed;
    EXPECT_EQ(ref.stats.mismatched, 0u) << "seed " << seed;
    EXPECT_EQ(got.stats.mismatched, 0u) << "seed " << seed;
    EXPECT_EQ(ref.stats.applied, got.stats.applied) << "seed " << seed;
    EXPECT_EQ(ref.stats.break_applied, got.stats.break_applied) << "seed " << seed;
    applied += got.stats.applied;
    rounds += got.stats.engine.rounds;
    break_moves += got.stats.break_applied;
    for (std::size_t s = 0; s < start.size(); ++s) {
      ASSERT_TRUE(all_feasible(*p, got.routes[s]));
      EXPECT_LE(plain_cost(*p, got.routes[s]), plain_cost(*p, start[s]));
    }
    if (!kind.breaks) {
      // A local optimum: no improving batched move is left in any solution.
      std::vector<const RouteSet*> ptrs;
      for (const auto& rs : got.routes) ptrs.push_back(&rs);
      const PackedBatch after = pack_batch(packed, ptrs);
      std::vector<Move> best;
      EngineTimes times;
      twin_engine->evaluate(after, best, times);
      for (const Move& m : best) ASSERT_EQ(m.delta, ds::kNoMove) << "seed " << seed << " u " << m.u << " type " << m.type;
    }
    if (kind.shipments) ++pair_instances;
  }
  EXPECT_GT(applied, 500u);
  EXPECT_GT(rounds, 100u);
  EXPECT_GT(pair_instances, 10u);
  EXPECT_GT(break_moves, 0u);
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

TEST(BatchedSearch, ParseAndSolveThroughTheApi) {
  EXPECT_EQ(parse_backend("cuda-host"), BackendKind::CudaHost);
  EXPECT_EQ(to_string(BackendKind::CudaHost), "cuda-host");
  const auto p = random_instance(11, 25, InstanceKind{true, true});
  SolveOptions options;
  options.backend = BackendKind::CudaHost;
  options.time_limit_s = 0.2;
  const Solution s = solve(*p, options);
  EXPECT_EQ(s.backend, "cuda-host");
  const ValidationReport report = validate(*p, s);
  EXPECT_TRUE(report.ok()) << report.to_text();
  for (const char* stage : {"construction", "h2d", "kernel", "d2h", "host_search"})
    EXPECT_TRUE(std::any_of(s.profile.begin(), s.profile.end(), [&](const StageTime& t) { return t.stage == stage; }))
        << stage;
}

TEST(BatchedSearch, DeterministicForASeedAndRounds) {
  const auto p = random_instance(12, 30, InstanceKind{false, true});
  SolveOptions options;
  options.seed = 5;
  BatchedSearchOptions search;
  search.max_rounds = 3;
  search.batch = 4;
  auto e1 = make_host_engine(1);
  auto e2 = make_host_engine(2);
  const Solution a = batched_search(*p, options, *e1, search);
  const Solution b = batched_search(*p, options, *e2, search);
  EXPECT_EQ(a.summary.cost, b.summary.cost);
  ASSERT_EQ(a.routes.size(), b.routes.size());
  for (std::size_t r = 0; r < a.routes.size(); ++r) EXPECT_EQ(a.routes[r].steps.size(), b.routes[r].steps.size());
  EXPECT_TRUE(validate(*p, a).ok());
}

/// Every instance file of a folder (with the given extension), sorted.
std::vector<std::filesystem::path> files(const std::filesystem::path& dir, const std::string& ext,
                                         const std::string& prefix = "") {
  std::vector<std::filesystem::path> out;
  if (!std::filesystem::exists(dir)) return out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ext && e.path().filename().string().rfind(prefix, 0) == 0)
      out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

/// expect_moves: the batched descent applies moves (on PDPTW: pair relocates); serve_all: every
/// task is routed (the CPU backend serves every Li & Lim request).
void solve_and_validate_all(const std::vector<std::filesystem::path>& paths, bool expect_moves = true,
                            bool serve_all = false) {
  SearchStats total;
  for (const auto& path : paths) {
    const auto p = Problem::create(io::read_problem(path));
    SolveOptions options;
    options.seed = 1;
    BatchedSearchOptions search;
    search.max_rounds = 1;  // construction, descent, one round of 8 ruin-and-recreate children
    auto engine = make_host_engine(2);
    SearchStats stats;
    const Solution s = batched_search(*p, options, *engine, search, &stats);
    const ValidationReport report = validate(*p, s);
    EXPECT_TRUE(report.ok()) << path << "\n" << report.to_text();
    EXPECT_EQ(stats.mismatched, 0u) << path;
    if (serve_all) {
      EXPECT_TRUE(s.unassigned.empty()) << path << ": " << s.unassigned.size() << " unassigned";
    }
    total.applied += stats.applied;
  }
  if (expect_moves) {
    EXPECT_GT(total.applied, 0u);
  }
}

TEST(BatchedSearchDatasets, AugeratValid) {
  const auto dir = test::datasets_dir() / "cvrp" / "augerat";
  const auto paths = files(dir, ".vrp");
  if (paths.empty()) GTEST_SKIP() << "no Augerat instances under " << dir;
  solve_and_validate_all(paths);
}

TEST(BatchedSearchDatasets, SolomonValid) {
  const auto dir = test::datasets_dir() / "vrptw" / "solomon";
  const auto paths = files(dir, ".txt");
  if (paths.empty()) GTEST_SKIP() << "no Solomon instances under " << dir;
  solve_and_validate_all(paths);
}

TEST(BatchedSearchDatasets, LiLim100Valid) {
  const auto dir = test::datasets_dir() / "pdptw" / "li_lim";
  std::vector<std::filesystem::path> paths;
  for (const auto& p : files(dir, ".txt"))
    if (p.parent_path() == dir && p.filename().string().find('_') == std::string::npos) paths.push_back(p);
  if (paths.empty()) GTEST_SKIP() << "no Li & Lim 100-customer instances under " << dir;
  solve_and_validate_all(paths, true, true);
}

// ---- device ----------------------------------------------------------------------------

#define SKIP_WITHOUT_DEVICE()                                                   \
  do {                                                                          \
    if (!device_available()) {                                                  \
      GTEST_SKIP() << "no CUDA device: " << device_unavailable_reason();        \
    }                                                                           \
  } while (false)

TEST(BatchedMovesDevice, EngineEqualsHostTwinExactly) {
  SKIP_WITHOUT_DEVICE();
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const auto p = random_instance(seed, 20 + seed, InstanceKind{seed % 3 == 0, seed % 2 == 0});
    std::mt19937_64 rng(seed);
    std::vector<RouteSet> sols;
    for (int s = 0; s < 6; ++s) sols.push_back(random_solution(*p, rng));
    std::vector<const RouteSet*> ptrs;
    for (const auto& s : sols) ptrs.push_back(&s);
    const PackedProblem packed = pack_problem(*p, 10);
    const PackedBatch batch = pack_batch(packed, ptrs);
    for (const TransferMode mode : {TransferMode::Pinned, TransferMode::Naive}) {
      auto host = make_host_engine(2);
      auto device = make_device_engine(mode);
      host->set_problem(packed);
      device->set_problem(packed);
      std::vector<Move> a, b;
      EngineTimes ta, tb;
      host->evaluate(batch, a, ta);
      device->evaluate(batch, b, tb);
      ASSERT_EQ(a.size(), b.size());
      for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].delta, b[i].delta) << i;
        EXPECT_EQ(a[i].u, b[i].u) << i;
        EXPECT_EQ(a[i].v, b[i].v) << i;
        EXPECT_EQ(a[i].type, b[i].type) << i;
      }
      if (mode == TransferMode::Pinned) {
        EXPECT_EQ(tb.h2d_copies, 2u);  // problem once, batch once
      }
    }
  }
}

TEST(BatchedMovesDevice, DeviceDescentEqualsHostTwin) {
  SKIP_WITHOUT_DEVICE();
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const auto p = random_instance(seed, 25 + seed, InstanceKind{seed % 3 == 0, seed % 2 == 0, seed % 4 == 0});
    std::mt19937_64 rng(seed);
    std::vector<RouteSet> start;
    for (int s = 0; s < 6; ++s) start.push_back(random_solution(*p, rng));
    const PackedProblem packed = pack_problem(*p, 10);
    for (const TransferMode mode : {TransferMode::Pinned, TransferMode::Naive}) {
      auto twin = make_host_engine(2);
      auto device = make_device_engine(mode);
      const Descended a = run_descent(*p, packed, *twin, start, ApplyMode::Engine, false);
      const Descended b = run_descent(*p, packed, *device, start, ApplyMode::Engine, seed % 2 == 0);
      ASSERT_EQ(a.routes, b.routes) << "seed " << seed;
      ASSERT_EQ(a.costs, b.costs) << "seed " << seed;
      EXPECT_EQ(a.stats.applied, b.stats.applied);
      EXPECT_EQ(b.stats.mismatched, 0u);
      EXPECT_EQ(a.stats.engine.rounds, b.stats.engine.rounds);
    }
  }
}

TEST(BatchedMovesDevice, CudaSearchEqualsCudaHostSearch) {
  SKIP_WITHOUT_DEVICE();
  const auto p = random_instance(21, 40, InstanceKind{true, true});
  SolveOptions options;
  options.seed = 9;
  BatchedSearchOptions search;
  search.max_rounds = 3;
  auto host = make_host_engine(2);
  auto device = make_device_engine(TransferMode::Pinned);
  const Solution a = batched_search(*p, options, *host, search);
  const Solution b = batched_search(*p, options, *device, search);
  EXPECT_EQ(a.summary.cost, b.summary.cost);
  ASSERT_EQ(a.routes.size(), b.routes.size());
  for (std::size_t r = 0; r < a.routes.size(); ++r) {
    ASSERT_EQ(a.routes[r].steps.size(), b.routes[r].steps.size());
    for (std::size_t i = 0; i < a.routes[r].steps.size(); ++i) EXPECT_EQ(a.routes[r].steps[i].task, b.routes[r].steps[i].task);
  }
  EXPECT_TRUE(validate(*p, b).ok());
}

}  // namespace
}  // namespace routesolve::cuda::search
