// Problem::create: validation of a ProblemSpec, then the indexed, immutable Problem.
//
// Validation names the JSON path of the first offending field ("jobs[3].time_windows[0]: ...").
// Indexing lays out tasks (jobs, then each shipment's pickup and delivery), vehicles with
// normalised capacities, skills and time windows, and one TravelData per distinct
// (profile, speed factor, per_hour, per_km), whose costs are exact integers (see cost units below).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "routesolve/error.hpp"
#include "routesolve/memory_budget.hpp"
#include "routesolve/problem.hpp"

namespace routesolve {
namespace {

std::string idx(std::string_view base, std::size_t i) {
  std::string s(base);
  s += '[';
  s += std::to_string(i);
  s += ']';
  return s;
}

/// Throws with the spec's source as prefix.
class Checker {
 public:
  explicit Checker(const std::string& source) : source_(source) {}

  [[noreturn]] void fail(std::string_view path, std::string_view what) const {
    std::string msg;
    if (!source_.empty()) msg.append(source_).append(": ");
    msg.append(path).append(": ").append(what);
    throw Error(ErrorCode::InvalidInput, msg);
  }

  void non_negative(std::int64_t value, const std::string& path) const {
    if (value < 0) fail(path, "must not be negative (found " + std::to_string(value) + ")");
  }

  void duration(Duration value, const std::string& path) const {
    non_negative(value, path);
    if (value > kMaxTime) fail(path, "is too large (" + std::to_string(value) + ")");
  }

  void amount(const Amount& a, std::size_t dims, const std::string& path) const {
    if (!a.empty() && a.size() != dims)
      fail(path, "has " + std::to_string(a.size()) + " dimensions, expected " + std::to_string(dims));
    for (std::size_t d = 0; d < a.size(); ++d)
      if (a[d] < 0) fail(idx(path, d), "amount must not be negative (found " + std::to_string(a[d]) + ")");
  }

  /// Sorted, merged, never-empty time windows.
  std::vector<TimeWindow> windows(const std::vector<TimeWindow>& in, const std::string& path) const {
    std::vector<TimeWindow> out;
    for (std::size_t w = 0; w < in.size(); ++w) {
      const TimeWindow& tw = in[w];
      const std::string p = idx(path, w);
      if (tw.start < 0) fail(p, "start " + std::to_string(tw.start) + " is negative");
      if (tw.start > tw.end)
        fail(p, "start " + std::to_string(tw.start) + " is after end " + std::to_string(tw.end));
      out.push_back({std::min(tw.start, kMaxTime), std::min(tw.end, kMaxTime)});
    }
    if (out.empty()) return {TimeWindow{}};
    std::sort(out.begin(), out.end(), [](const TimeWindow& a, const TimeWindow& b) {
      return a.start != b.start ? a.start < b.start : a.end < b.end;
    });
    std::size_t k = 0;
    for (std::size_t i = 1; i < out.size(); ++i) {
      if (out[i].start <= out[k].end) out[k].end = std::max(out[k].end, out[i].end);
      else out[++k] = out[i];
    }
    out.resize(k + 1);
    return out;
  }

  /// A positive integer scale factor.
  std::int64_t scale(double value, const std::string& path) const {
    if (!(value >= 1.0) || value > 1e9 || std::floor(value) != value)
      fail(path, "must be a positive integer (found " + std::to_string(value) + ")");
    return static_cast<std::int64_t>(value);
  }

 private:
  const std::string& source_;
};

std::vector<std::uint32_t> sorted_unique(std::vector<std::uint32_t> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

Amount filled(const Amount& a, std::size_t dims, std::int64_t fill) {
  if (a.size() == dims) return a;
  return Amount(std::vector<std::int64_t>(dims, fill));
}

bool mul_ok(std::int64_t a, std::int64_t b, std::int64_t& out) { return !__builtin_mul_overflow(a, b, &out); }

}  // namespace

std::shared_ptr<const Problem> Problem::create(ProblemSpec spec) {
  const Checker check(spec.source);
  if (spec.matrices.empty())
    check.fail("matrices", "no travel matrices: give them in the input, or fill them from a matrix provider "
                           "(great-circle or a road network) before creating the problem");

  if (spec.vehicles.empty()) check.fail("vehicles", "at least one vehicle is required");

  const std::int64_t scale_time = check.scale(spec.scale.time, "scale.time");
  const std::int64_t scale_distance = check.scale(spec.scale.distance, "scale.distance");
  const std::int64_t scale_cost = check.scale(spec.scale.cost, "scale.cost");

  // ---- dimensions: the first non-empty amount sets them; every other must agree ----------------
  std::size_t dims = 0;
  bool dims_known = false;
  auto see_dims = [&](const Amount& a, const std::string& path) {
    if (a.empty()) return;
    if (!dims_known) {
      dims = a.size();
      dims_known = true;
    } else if (a.size() != dims) {
      check.fail(path, "has " + std::to_string(a.size()) + " dimensions, expected " + std::to_string(dims));
    }
  };
  for (std::size_t i = 0; i < spec.jobs.size(); ++i) {
    see_dims(spec.jobs[i].delivery, idx("jobs", i) + ".delivery");
    see_dims(spec.jobs[i].pickup, idx("jobs", i) + ".pickup");
  }
  for (std::size_t i = 0; i < spec.shipments.size(); ++i) see_dims(spec.shipments[i].amount, idx("shipments", i) + ".amount");
  for (std::size_t i = 0; i < spec.vehicles.size(); ++i) {
    see_dims(spec.vehicles[i].capacity, idx("vehicles", i) + ".capacity");
    for (std::size_t b = 0; b < spec.vehicles[i].breaks.size(); ++b)
      if (spec.vehicles[i].breaks[b].max_load)
        see_dims(*spec.vehicles[i].breaks[b].max_load, idx(idx("vehicles", i) + ".breaks", b) + ".max_load");
  }

  // ---- matrices --------------------------------------------------------------------------------
  for (const auto& [name, m] : spec.matrices) {
    const std::string base = "matrices." + name;
    if (m.durations.empty()) check.fail(base + ".durations", "missing durations matrix");
    const std::size_t n = m.durations.size();
    auto check_matrix = [&](const Matrix& mat, const std::string& path) {
      if (mat.size() != n)
        check.fail(path, "size " + std::to_string(mat.size()) + " differs from durations size " + std::to_string(n));
      const std::int64_t* d = mat.data();
      for (std::size_t k = 0; k < n * n; ++k)
        if (d[k] < 0)
          check.fail(path, "entry (" + std::to_string(k / n) + ", " + std::to_string(k % n) + ") is negative (" +
                               std::to_string(d[k]) + ")");
    };
    check_matrix(m.durations, base + ".durations");
    if (!m.distances.empty()) check_matrix(m.distances, base + ".distances");
    if (m.costs) check_matrix(*m.costs, base + ".costs");
  }

  auto p = std::shared_ptr<Problem>(new Problem());
  Problem& pr = *p;
  pr.dimensions_ = dims;

  // Profiles used by vehicles, in order of first use.
  std::map<std::string, std::size_t> profile_index;
  std::size_t min_size = kNone;
  for (std::size_t v = 0; v < spec.vehicles.size(); ++v) {
    const std::string& name = spec.vehicles[v].profile;
    if (profile_index.count(name)) continue;
    const auto it = spec.matrices.find(name);
    if (it == spec.matrices.end()) check.fail(idx("vehicles", v) + ".profile", "no matrices for profile '" + name + "'");
    profile_index.emplace(name, pr.profile_names_.size());
    pr.profile_names_.push_back(name);
    min_size = std::min(min_size, it->second.durations.size());
  }
  pr.locations_ = min_size;

  auto location = [&](const LocationSpec& loc, const std::string& path) -> std::size_t {
    if (!loc.index) check.fail(path, "has no location index");
    if (*loc.index >= min_size)
      check.fail(path, "location index " + std::to_string(*loc.index) + " is out of range (matrices have " +
                           std::to_string(min_size) + " locations)");
    return *loc.index;
  };

  // ---- jobs ------------------------------------------------------------------------------------
  std::set<Id> seen;
  for (std::size_t i = 0; i < spec.jobs.size(); ++i) {
    const JobSpec& j = spec.jobs[i];
    const std::string base = idx("jobs", i);
    if (!seen.insert(j.id).second) check.fail(base + ".id", "duplicate job id " + std::to_string(j.id));
    Task t;
    t.type = TaskType::Job;
    t.id = j.id;
    t.location = location(j.location, base + ".location");
    t.coords = j.location.coords;
    check.duration(j.setup, base + ".setup");
    check.duration(j.service, base + ".service");
    t.setup = j.setup;
    t.service = j.service;
    check.amount(j.delivery, dims, base + ".delivery");
    check.amount(j.pickup, dims, base + ".pickup");
    t.delivery = filled(j.delivery, dims, 0);
    t.pickup = filled(j.pickup, dims, 0);
    t.skills = sorted_unique(j.skills);
    if (j.priority < 0 || j.priority > 100)
      check.fail(base + ".priority", "must be in 0..100 (found " + std::to_string(j.priority) + ")");
    t.priority = j.priority;
    t.time_windows = check.windows(j.time_windows, base + ".time_windows");
    t.source_index = i;
    t.description = j.description;
    pr.task_by_id_[{static_cast<int>(TaskType::Job), t.id}] = pr.tasks_.size();
    pr.tasks_.push_back(std::move(t));
  }

  // ---- shipments -------------------------------------------------------------------------------
  std::set<Id> seen_pickups, seen_deliveries;
  for (std::size_t i = 0; i < spec.shipments.size(); ++i) {
    const ShipmentSpec& s = spec.shipments[i];
    const std::string base = idx("shipments", i);
    check.amount(s.amount, dims, base + ".amount");
    if (s.priority < 0 || s.priority > 100)
      check.fail(base + ".priority", "must be in 0..100 (found " + std::to_string(s.priority) + ")");
    const std::size_t pickup_index = pr.tasks_.size();
    for (int half = 0; half < 2; ++half) {
      const ShipmentStepSpec& step = half == 0 ? s.pickup : s.delivery;
      const std::string sbase = base + (half == 0 ? ".pickup" : ".delivery");
      if (!(half == 0 ? seen_pickups : seen_deliveries).insert(step.id).second)
        check.fail(sbase + ".id", std::string("duplicate ") + (half == 0 ? "pickup" : "delivery") + " id " +
                                      std::to_string(step.id));
      Task t;
      t.type = half == 0 ? TaskType::Pickup : TaskType::Delivery;
      t.id = step.id;
      t.location = location(step.location, sbase + ".location");
      t.coords = step.location.coords;
      check.duration(step.setup, sbase + ".setup");
      check.duration(step.service, sbase + ".service");
      t.setup = step.setup;
      t.service = step.service;
      t.delivery = half == 1 ? filled(s.amount, dims, 0) : Amount(dims);
      t.pickup = half == 0 ? filled(s.amount, dims, 0) : Amount(dims);
      t.skills = sorted_unique(s.skills);
      t.priority = s.priority;
      t.time_windows = check.windows(step.time_windows, sbase + ".time_windows");
      t.sibling = half == 0 ? pickup_index + 1 : pickup_index;
      t.source_index = i;
      t.description = step.description;
      pr.task_by_id_[{static_cast<int>(t.type), t.id}] = pr.tasks_.size();
      pr.tasks_.push_back(std::move(t));
    }
  }

  // ---- vehicles --------------------------------------------------------------------------------
  std::set<Id> seen_vehicles;
  for (std::size_t v = 0; v < spec.vehicles.size(); ++v) {
    const VehicleSpec& vs = spec.vehicles[v];
    const std::string base = idx("vehicles", v);
    if (!seen_vehicles.insert(vs.id).second) check.fail(base + ".id", "duplicate vehicle id " + std::to_string(vs.id));
    Vehicle veh;
    veh.id = vs.id;
    veh.profile = profile_index.at(vs.profile);
    if (!vs.start && !vs.end) check.fail(base, "a vehicle needs a start or an end location");
    if (vs.start) {
      veh.start = location(*vs.start, base + ".start");
      veh.start_coords = vs.start->coords;
    }
    if (vs.end) {
      veh.end = location(*vs.end, base + ".end");
      veh.end_coords = vs.end->coords;
    }
    check.amount(vs.capacity, dims, base + ".capacity");
    veh.capacity = filled(vs.capacity, dims, kMaxTime);
    veh.skills = sorted_unique(vs.skills);
    {
      const auto tw = check.windows({vs.time_window}, base + ".time_window");
      veh.time_window = tw.front();
    }
    std::set<Id> seen_breaks;
    for (std::size_t b = 0; b < vs.breaks.size(); ++b) {
      const BreakSpec& bs = vs.breaks[b];
      const std::string bbase = idx(base + ".breaks", b);
      if (!seen_breaks.insert(bs.id).second) check.fail(bbase + ".id", "duplicate break id " + std::to_string(bs.id));
      Break br;
      br.id = bs.id;
      br.time_windows = check.windows(bs.time_windows, bbase + ".time_windows");
      check.duration(bs.service, bbase + ".service");
      br.service = bs.service;
      if (bs.max_load) {
        check.amount(*bs.max_load, dims, bbase + ".max_load");
        // An empty max_load sets no limit, like an empty capacity.
        if (!bs.max_load->empty() || dims == 0) br.max_load = filled(*bs.max_load, dims, kMaxTime);
      }
      br.description = bs.description;
      veh.breaks.push_back(std::move(br));
    }
    veh.max_tasks = vs.max_tasks.value_or(kNone);
    if (vs.max_travel_time) {
      check.non_negative(*vs.max_travel_time, base + ".max_travel_time");
      veh.max_travel_time = std::min(*vs.max_travel_time, kMaxTime);
    }
    if (vs.max_distance) {
      check.non_negative(*vs.max_distance, base + ".max_distance");
      veh.max_distance = std::min(*vs.max_distance, kMaxTime);
    }
    check.non_negative(vs.costs.fixed, base + ".costs.fixed");
    check.non_negative(vs.costs.per_hour, base + ".costs.per_hour");
    check.non_negative(vs.costs.per_km, base + ".costs.per_km");
    veh.costs = vs.costs;
    if (!(vs.speed_factor > 0.0) || vs.speed_factor > 5.0)
      check.fail(base + ".speed_factor", "must be in (0, 5] (found " + std::to_string(vs.speed_factor) + ")");
    veh.speed_factor = vs.speed_factor;
    veh.description = vs.description;
    pr.vehicle_by_id_[veh.id] = v;
    pr.vehicles_.push_back(std::move(veh));
  }

  // ---- cost units ------------------------------------------------------------------------------
  // Base unit: 1/D output cost units, D = lcm(3.6e6 * S_t * S_d, C) (C = scale.cost). Then
  //   per-hour travel:  per_hour * dur   * 1000 * S_d * (D / (3.6e6 S_t S_d))
  //   per-km travel:    per_km   * dist  * 3600 * S_t * (D / (3.6e6 S_t S_d))
  //   fixed:            fixed * D
  //   costs matrix:     costs(i,j) * (D / C)
  // and every coefficient is divided by g = gcd(D, the coefficients in use): cost_scale() = D / g.
  const std::int64_t hs = 3600000;
  std::int64_t base_d = 0, tmp = 0;
  if (!mul_ok(hs, scale_time, tmp) || !mul_ok(tmp, scale_distance, base_d))
    check.fail("scale", "time and distance scales are too large");
  std::int64_t denom = std::lcm(base_d, scale_cost);
  if (denom <= 0 || denom / scale_cost != base_d / std::gcd(base_d, scale_cost))
    check.fail("scale.cost", "scale is too large");
  const std::int64_t mult = denom / base_d;

  // Distinct travel combinations.
  std::vector<std::size_t> travel_of(spec.vehicles.size());
  {
    std::map<std::tuple<std::size_t, double, Cost, Cost>, std::size_t> by_key;
    for (std::size_t v = 0; v < pr.vehicles_.size(); ++v) {
      Vehicle& veh = pr.vehicles_[v];
      const auto key = std::make_tuple(veh.profile, veh.speed_factor, veh.costs.per_hour, veh.costs.per_km);
      auto [it, inserted] = by_key.emplace(key, pr.travel_.size());
      if (inserted) {
        TravelData td;
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
  struct Coef {
    std::int64_t hour = 0, km = 0, matrix = 0;
  };
  std::vector<Coef> coefs(pr.travel_.size());
  std::vector<std::int64_t> fixed_coef(pr.vehicles_.size(), 0);
  std::int64_t g = 0;
  for (std::size_t t = 0; t < pr.travel_.size(); ++t) {
    const TravelData& td = pr.travel_[t];
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

  // ---- travel data -----------------------------------------------------------------------------
  // Three n x n tables per travel combination: refuse with needed vs available memory first.
  check_matrix_memory(spec.matrices.empty() ? 0 : spec.matrices.begin()->second.durations.size(),
                      3 * pr.travel_.size(), spec.source.empty() ? "travel tables" : spec.source);
  pr.has_distances_ = true;
  for (std::size_t t = 0; t < pr.travel_.size(); ++t) {
    TravelData& td = pr.travel_[t];
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

  // ---- compatibility ---------------------------------------------------------------------------
  pr.compatible_.assign(pr.vehicles_.size(), std::vector<char>(pr.tasks_.size(), 0));
  for (std::size_t v = 0; v < pr.vehicles_.size(); ++v) {
    const auto& vs = pr.vehicles_[v].skills;
    for (std::size_t t = 0; t < pr.tasks_.size(); ++t) {
      const auto& ts = pr.tasks_[t].skills;
      pr.compatible_[v][t] = std::includes(vs.begin(), vs.end(), ts.begin(), ts.end()) ? 1 : 0;
    }
  }

  pr.spec_ = std::move(spec);
  return p;
}

TravelView Problem::travel(std::size_t v) const { return travel_by_index(vehicles_[v].travel); }

TravelView Problem::travel_by_index(std::size_t t) const {
  const TravelData& td = travel_[t];
  TravelView view;
  // n from the n x n array: avoids a map lookup on this hot path.
  std::size_t n = static_cast<std::size_t>(std::sqrt(static_cast<double>(td.durations.size())));
  while (n * n > td.durations.size()) --n;
  while ((n + 1) * (n + 1) <= td.durations.size()) ++n;
  view.n = n;
  view.durations = td.durations.data();
  view.distances = td.distances.data();
  view.costs = td.costs.data();
  return view;
}

// fixed * D / g == fixed * cost_scale(): exact, and checked against overflow in create().
Cost Problem::fixed_cost(std::size_t v) const {
  return vehicles_[v].costs.fixed * static_cast<Cost>(cost_scale_);
}

std::size_t Problem::find_task(TaskType type, Id id) const {
  const auto it = task_by_id_.find({static_cast<int>(type), id});
  return it == task_by_id_.end() ? kNone : it->second;
}

std::size_t Problem::find_vehicle(Id id) const {
  const auto it = vehicle_by_id_.find(id);
  return it == vehicle_by_id_.end() ? kNone : it->second;
}

bool Problem::compatible(std::size_t v, std::size_t t) const { return compatible_[v][t] != 0; }

}  // namespace routesolve
