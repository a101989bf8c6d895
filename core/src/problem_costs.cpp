// Problem::create, costs: the cost units that keep every cost an exact integer, then one travel
// table set (durations, distances, costs) per distinct (profile, speed factor, per_hour, per_km).

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <tuple>
#include <utility>

#include "problem_build.hpp"
#include "routesolve/memory_budget.hpp"

namespace routesolve {

using problem_build::idx;
using problem_build::mul_ok;

// Base unit: 1/D output cost units, D = lcm(3.6e6 * S_t * S_d, C) (C = scale.cost). Then
//   per-hour travel:  per_hour * dur   * 1000 * S_d * (D / (3.6e6 S_t S_d))
//   per-km travel:    per_km   * dist  * 3600 * S_t * (D / (3.6e6 S_t S_d))
//   fixed:            fixed * D
//   costs matrix:     costs(i,j) * (D / C)
// and every coefficient is divided by g = gcd(D, the coefficients in use): cost_scale() = D / g.
void ProblemBuilder::derive_cost_units() {
  const std::int64_t hs = 3600000;
  std::int64_t base_d = 0, tmp = 0;
  if (!mul_ok(hs, scale_time, tmp) || !mul_ok(tmp, scale_distance, base_d))
    check.fail("scale", "time and distance scales are too large");
  std::int64_t denom = std::lcm(base_d, scale_cost);
  if (denom <= 0 || denom / scale_cost != base_d / std::gcd(base_d, scale_cost))
    check.fail("scale.cost", "scale is too large");
  const std::int64_t mult = denom / base_d;

  // Distinct travel combinations.
  {
    std::map<std::tuple<std::size_t, double, Cost, Cost>, std::size_t> by_key;
    for (std::size_t v = 0; v < pr.vehicles_.size(); ++v) {
      Vehicle& veh = pr.vehicles_[v];
      const auto key =
          std::make_tuple(veh.profile, veh.speed_factor, veh.costs.per_hour, veh.costs.per_km);
      auto [it, inserted] = by_key.emplace(key, pr.travel_.size());
      if (inserted) {
        Problem::TravelData td;
        td.profile = veh.profile;
        td.speed_factor = veh.speed_factor;
        td.per_hour = veh.costs.per_hour;
        td.per_km = veh.costs.per_km;
        pr.travel_.push_back(std::move(td));
      }
      veh.travel = it->second;
    }
  }

  // Coefficients in base units, and their gcd.
  coefs.assign(pr.travel_.size(), Coef{});
  std::vector<std::int64_t> fixed_coef(pr.vehicles_.size(), 0);
  std::int64_t g = 0;
  for (std::size_t t = 0; t < pr.travel_.size(); ++t) {
    const Problem::TravelData& td = pr.travel_[t];
    const ProfileMatrices& m = spec.matrices.at(pr.profile_names_[td.profile]);
    Coef& c = coefs[t];
    bool ok = true;
    if (m.costs) {
      c.matrix = denom / scale_cost;
    } else {
      ok = mul_ok(td.per_hour, 1000 * scale_distance, tmp) && mul_ok(tmp, mult, c.hour) &&
           mul_ok(td.per_km, 3600 * scale_time, tmp) && mul_ok(tmp, mult, c.km);
    }
    if (!ok) check.fail("vehicles", "travel costs are too large for exact integer costs");
    for (std::int64_t x : {c.hour, c.km, c.matrix})
      if (x != 0) g = std::gcd(g, x);
  }
  for (std::size_t v = 0; v < pr.vehicles_.size(); ++v) {
    if (!mul_ok(pr.vehicles_[v].costs.fixed, denom, fixed_coef[v]))
      check.fail(idx("vehicles", v) + ".costs.fixed", "is too large for exact integer costs");
    if (fixed_coef[v] != 0) g = std::gcd(g, fixed_coef[v]);
  }
  // Including D keeps cost_scale() = D / g a whole number (and fixed costs integral).
  g = std::gcd(g, denom);
  pr.cost_scale_ = static_cast<double>(denom / g);
  for (Coef& c : coefs) {
    c.hour /= g;
    c.km /= g;
    c.matrix /= g;
  }
  derive_route_rounding();
}

// VROOM rounds a route's user cost half up where it schedules in time (its VRPTW and plan
// validation: any time window other than its default, or any break) and down otherwise (its
// CVRP, which truncates the exact sum): src/utils/helpers.cpp and cost_wrapper.cpp.
void ProblemBuilder::derive_route_rounding() {
  using Rounding = Problem::RouteRounding;
  if (spec.route_costs != RouteCostRule::Vroom) {
    pr.route_rounding_ = Rounding::None;
    return;
  }
  // VROOM's default window is [0, the largest 32-bit duration].
  auto windowed = [](const std::vector<TimeWindow>& tws) {
    return !tws.empty() &&
           !(tws.size() == 1 && tws[0].start == 0 && tws[0].end >= std::int64_t{UINT32_MAX});
  };
  bool timed = spec.plan;
  for (const JobSpec& j : spec.jobs) timed = timed || windowed(j.time_windows);
  for (const ShipmentSpec& s : spec.shipments)
    timed = timed || windowed(s.pickup.time_windows) || windowed(s.delivery.time_windows);
  for (const VehicleSpec& v : spec.vehicles)
    timed = timed || windowed({v.time_window}) || !v.breaks.empty();
  pr.route_rounding_ = timed ? Rounding::HalfUp : Rounding::Down;
}

// Three n x n tables per travel combination, each the problem's own matrix when it needs no
// conversion (speed factor 1, entries already capped at kUnreachable, costs equal to the
// durations or the distances), else a converted copy: the memory check counts the copies only.
void ProblemBuilder::fill_travel_tables() {
  pr.has_distances_ = true;
  // A 32-bit (or computed) matrix is below kUnreachable throughout.
  auto capped = [](const Matrix& m) {
    const std::int64_t* x = m.data64();
    return x == nullptr || std::all_of(x, x + m.size() * m.size(),
                                       [](std::int64_t v) { return v <= kUnreachable; });
  };
  auto table = [](const Matrix& m) { return m.table(); };
  // The cost of arc k from the (final) durations and distances.
  auto arc_cost = [&](const Coef& c, const ProfileMatrices& m, const std::string& name,
                      std::size_t n, std::size_t k, std::int64_t dur, std::int64_t dist) {
    std::int64_t cost = 0;
    bool ok = true;
    if (m.costs) {
      const std::int64_t raw = m.costs->at(k);
      if (raw >= kUnreachable || dur >= kUnreachable)
        cost = kUnreachable;
      else
        ok = mul_ok(raw, c.matrix, cost);
    } else if (dur >= kUnreachable || dist >= kUnreachable) {
      cost = kUnreachable;
    } else {
      std::int64_t a = 0, b = 0;
      ok = mul_ok(dur, c.hour, a) && mul_ok(dist, c.km, b) && !__builtin_add_overflow(a, b, &cost);
    }
    if (!ok || cost > kUnreachable)
      check.fail("matrices." + name, "arc (" + std::to_string(k / n) + ", " +
                                         std::to_string(k % n) +
                                         ") cost overflows exact integer costs");
    return cost;
  };
  struct Plan {
    bool share_durations = false, share_distances = false;
    TravelTable costs_like;  // a table the costs equal, or null: a copy
  };
  std::vector<Plan> plans(pr.travel_.size());
  std::size_t copies = 0;
  for (std::size_t t = 0; t < pr.travel_.size(); ++t) {
    Problem::TravelData& td = pr.travel_[t];
    const std::string& name = pr.profile_names_[td.profile];
    const ProfileMatrices& m = spec.matrices.at(name);
    const std::size_t n = m.durations.size();
    td.n = n;
    Plan& plan = plans[t];
    plan.share_durations = td.speed_factor == 1.0 && capped(m.durations);
    plan.share_distances =
        !m.distances.empty() &&
        (m.distances.shares(m.durations) ? plan.share_durations : capped(m.distances));
    // The costs may be one of the shared tables when every arc's cost is that table's entry
    // (computed from the final durations and distances, which are the spec's here).
    if (plan.share_durations) {
      const TravelTable dur = table(m.durations);
      const TravelTable dist = m.distances.empty() ? TravelTable() : table(m.distances);
      auto distance = [&](std::size_t k) {
        return dist != nullptr ? std::min<std::int64_t>(dist[k], kUnreachable) : 0;
      };
      for (const TravelTable like : {dur, plan.share_distances ? dist : TravelTable()}) {
        if (like == nullptr || plan.costs_like != nullptr) continue;
        // Costs given as the durations' own table at coefficient 1 are that table (entries
        // capped at kUnreachable stay so): no scan of every arc.
        if (like == dur && m.costs && m.costs->shares(m.durations) && coefs[t].matrix == 1) {
          plan.costs_like = like;
          continue;
        }
        bool equal = true;
        for (std::size_t k = 0; equal && k < n * n; ++k)
          equal = arc_cost(coefs[t], m, name, n, k, dur[k], distance(k)) == like[k];
        if (equal) plan.costs_like = like;
      }
    }
    copies += static_cast<std::size_t>(!plan.share_durations) +
              static_cast<std::size_t>(!plan.share_distances) +
              static_cast<std::size_t>(plan.costs_like == nullptr);
  }
  check_matrix_memory(spec.matrices.empty() ? 0 : spec.matrices.begin()->second.durations.size(),
                      copies, spec.source.empty() ? "travel tables" : spec.source);
  for (std::size_t t = 0; t < pr.travel_.size(); ++t) {
    Problem::TravelData& td = pr.travel_[t];
    const std::string& name = pr.profile_names_[td.profile];
    const ProfileMatrices& m = spec.matrices.at(name);
    const Plan& plan = plans[t];
    const std::size_t n = td.n;
    const std::size_t nn = n * n;
    if (plan.share_durations) {
      td.durations = table(m.durations);
    } else {
      const TravelTable dur = table(m.durations);
      td.own_durations.resize(nn);
      for (std::size_t k = 0; k < nn; ++k) {
        if (dur[k] >= kUnreachable)
          td.own_durations[k] = kUnreachable;
        else if (td.speed_factor == 1.0)
          td.own_durations[k] = dur[k];
        else
          td.own_durations[k] = std::llround(static_cast<double>(dur[k]) / td.speed_factor);
      }
      td.durations = td.own_durations.data();
    }
    if (plan.share_distances) {
      td.distances = table(m.distances);
    } else {
      if (m.distances.empty()) {
        pr.has_distances_ = false;
        td.own_distances.assign(nn, 0);
      } else {
        td.own_distances = m.distances.values();
        for (auto& x : td.own_distances) x = std::min<std::int64_t>(x, kUnreachable);
      }
      td.distances = td.own_distances.data();
    }
    if (plan.costs_like != nullptr) {
      td.costs = plan.costs_like;
    } else {
      td.own_costs.resize(nn);
      for (std::size_t k = 0; k < nn; ++k)
        td.own_costs[k] = arc_cost(coefs[t], m, name, n, k, td.durations[k], td.distances[k]);
      td.costs = td.own_costs.data();
    }
  }
}

}  // namespace routesolve
