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
      const auto key = std::make_tuple(veh.profile, veh.speed_factor, veh.costs.per_hour, veh.costs.per_km);
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
}

// Three n x n tables per travel combination: refuse with needed vs available memory first.
void ProblemBuilder::fill_travel_tables() {
  check_matrix_memory(spec.matrices.empty() ? 0 : spec.matrices.begin()->second.durations.size(),
                      3 * pr.travel_.size(), spec.source.empty() ? "travel tables" : spec.source);
  pr.has_distances_ = true;
  for (std::size_t t = 0; t < pr.travel_.size(); ++t) {
    Problem::TravelData& td = pr.travel_[t];
    const std::string& name = pr.profile_names_[td.profile];
    const ProfileMatrices& m = spec.matrices.at(name);
    const std::size_t n = m.durations.size();
    const std::size_t nn = n * n;
    const std::int64_t* dur = m.durations.data();
    td.durations.resize(nn);
    for (std::size_t k = 0; k < nn; ++k) {
      if (dur[k] >= kUnreachable) td.durations[k] = kUnreachable;
      else if (td.speed_factor == 1.0) td.durations[k] = dur[k];
      else td.durations[k] = std::llround(static_cast<double>(dur[k]) / td.speed_factor);
    }
    if (m.distances.empty()) {
      pr.has_distances_ = false;
      td.distances.assign(nn, 0);
    } else {
      td.distances.assign(m.distances.data(), m.distances.data() + nn);
      for (auto& x : td.distances) x = std::min<std::int64_t>(x, kUnreachable);
    }
    td.costs.resize(nn);
    const Coef& c = coefs[t];
    for (std::size_t k = 0; k < nn; ++k) {
      std::int64_t cost = 0;
      bool ok = true;
      if (m.costs) {
        const std::int64_t raw = m.costs->data()[k];
        if (raw >= kUnreachable || td.durations[k] >= kUnreachable) cost = kUnreachable;
        else ok = mul_ok(raw, c.matrix, cost);
      } else if (td.durations[k] >= kUnreachable || td.distances[k] >= kUnreachable) {
        cost = kUnreachable;
      } else {
        std::int64_t a = 0, b = 0;
        ok = mul_ok(td.durations[k], c.hour, a) && mul_ok(td.distances[k], c.km, b) &&
             !__builtin_add_overflow(a, b, &cost);
      }
      if (!ok || cost > kUnreachable)
        check.fail("matrices." + name, "arc (" + std::to_string(k / n) + ", " + std::to_string(k % n) +
                                           ") cost overflows exact integer costs");
      td.costs[k] = cost;
    }
  }
}

}  // namespace routesolve
