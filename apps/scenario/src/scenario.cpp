// Generated fleet scenarios and the synthetic city (see scenario.hpp).
//
// Determinism: one splitmix64 stream per purpose (depot/stop nodes, jobs, fleet), derived from
// the seed, and integer arithmetic for every drawn value; coordinates are printed with a fixed
// number of decimals. Nothing depends on the standard library's distributions or hash order.

#include "routesolve/scenario/scenario.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <utility>
#include <vector>

#include "routesolve/error.hpp"
#include "routesolve/network/road_build.hpp"
#include "routesolve/snap.hpp"

namespace routesolve::scenario {
namespace {

/// splitmix64 (Steele, Lea, Flood 2014): tiny, portable, good enough for drawing instances.
class Rng {
 public:
  Rng(std::uint64_t seed, std::uint64_t stream)
      : state_(seed * 0x9E3779B97F4A7C15ull + stream * 0xD1B54A32D192ED03ull) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n) (modulo bias below 1e-15 for the small n used here).
  std::uint64_t below(std::uint64_t n) { return next() % n; }
  /// Uniform in [lo, hi].
  std::int64_t between(std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(below(static_cast<std::uint64_t>(hi - lo + 1)));
  }

 private:
  std::uint64_t state_;
};

constexpr std::int64_t kHour = 3600;

struct Window {
  std::int64_t start, end;
};

// Job time windows: morning, afternoon, all day (40/35/25%).
Window draw_job_window(Rng& rng) {
  const auto r = rng.below(100);
  if (r < 40) return {8 * kHour, 12 * kHour};
  if (r < 75) return {13 * kHour, 17 * kHour};
  return {8 * kHour, 18 * kHour};
}

// Driver shifts: day, early, late (60/20/20%).
Window draw_shift(Rng& rng) {
  const auto r = rng.below(100);
  if (r < 60) return {7 * kHour, 19 * kHour};
  if (r < 80) return {6 * kHour, 15 * kHour};
  return {9 * kHour, 20 * kHour};
}

std::string position(const Coordinates& c) { return fmt::format("[{:.7f}, {:.7f}]", c.lon, c.lat); }

std::string amount(const std::vector<std::int64_t>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

}  // namespace

RoadNetwork synthetic_city(const SyntheticCityOptions& o) {
  const auto started = std::chrono::steady_clock::now();
  if (o.streets < 2) throw invalid_input("synthetic:city", "streets: at least 2 per direction");
  if (!(o.spacing_m > 0)) throw invalid_input("synthetic:city", "spacing_m: must be positive");
  const std::size_t n = o.streets;
  const std::size_t every = std::max<std::size_t>(1, o.arterial_every);
  // Degrees per metre around the centre (equirectangular: fine over ~10 km).
  constexpr double kMetresPerDegree = 6371000.0 * 3.14159265358979323846 / 180.0;
  const double dlat = o.spacing_m / kMetresPerDegree;
  const double dlon = dlat / std::cos(o.centre.lat * 3.14159265358979323846 / 180.0);
  const double half = static_cast<double>(n - 1) / 2.0;

  std::vector<Coordinates> coords(n * n);
  const auto id = [n](std::size_t row, std::size_t col) {
    return static_cast<NodeId>(row * n + col);
  };
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t c = 0; c < n; ++c)
      coords[id(r, c)] = {o.centre.lon + (static_cast<double>(c) - half) * dlon,
                          o.centre.lat + (static_cast<double>(r) - half) * dlat};

  // Street i (a row or a column): arterial, two-way residential, or one-way residential with
  // direction +1 (increasing index) / -1.
  struct Street {
    double speed_kmh;
    int oneway;  // 0 two-way, +1 / -1 one direction
  };
  const auto street = [&](std::size_t i) -> Street {
    if (i % every == 0 || i == n - 1) return {50.0, 0};
    if (i % 3 == 1) return {30.0, ((i / 3) % 2 == 0) ? +1 : -1};
    return {30.0, 0};
  };

  std::vector<network::RawArc> arcs;
  arcs.reserve(4 * n * n);
  const auto add = [&](NodeId a, NodeId b, const Street& s, int direction) {
    const auto length =
        static_cast<std::uint32_t>(std::max(1.0, std::round(haversine_m(coords[a], coords[b]))));
    const auto duration =
        static_cast<std::uint32_t>(std::max(1.0, std::round(36.0 * length / s.speed_kmh)));
    if (s.oneway == 0 || s.oneway == direction) arcs.push_back({a, b, duration, length});
    if (s.oneway == 0 || s.oneway == -direction) arcs.push_back({b, a, duration, length});
  };
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t c = 0; c + 1 < n; ++c)
      add(id(r, c), id(r, c + 1), street(r), +1);  // along row r
  for (std::size_t c = 0; c < n; ++c)
    for (std::size_t r = 0; r + 1 < n; ++r)
      add(id(r, c), id(r + 1, c), street(c), +1);  // along column c
  return network::build_network(n * n, std::move(arcs), std::move(coords), "synthetic:city",
                                started);
}

std::string generate_scenario(const RoadGraph& graph, const ScenarioOptions& o) {
  if (o.trucks == 0) throw invalid_input("--trucks", "at least one truck");
  if (o.stops == 0) throw invalid_input("--stops", "at least one stop");
  if (o.depots == 0) throw invalid_input("--depots", "at least one depot");
  if (o.capacity_dims < 1 || o.capacity_dims > 2) throw invalid_input("--capacity-dims", "1 or 2");
  if (!graph.has_coordinates())
    throw invalid_input("--network", "the road network has no coordinates; stops need positions");
  const std::size_t nodes = graph.node_count();
  if (o.depots > nodes)
    throw invalid_input("--depots",
                        fmt::format("{} depots but the network has {} nodes", o.depots, nodes));

  // Depots and stops: a partial Fisher-Yates shuffle of the nodes gives distinct nodes while
  // they last; beyond that, stops are drawn with replacement.
  Rng node_rng(o.seed, 1);
  std::vector<NodeId> order(nodes);
  std::iota(order.begin(), order.end(), NodeId{0});
  const std::size_t distinct = std::min(nodes, o.depots + o.stops);
  for (std::size_t i = 0; i < distinct; ++i)
    std::swap(order[i], order[i + node_rng.below(nodes - i)]);
  std::vector<NodeId> depots(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(o.depots));
  std::vector<NodeId> stops(order.begin() + static_cast<std::ptrdiff_t>(o.depots),
                            order.begin() + static_cast<std::ptrdiff_t>(distinct));
  while (stops.size() < o.stops) stops.push_back(static_cast<NodeId>(node_rng.below(nodes)));

  // Jobs: demand per dimension (kg 5-60, litres 10-400), service 2-10 min, one window.
  Rng job_rng(o.seed, 2);
  struct Job {
    std::vector<std::int64_t> demand;
    std::int64_t service;
    Window window;
  };
  std::vector<Job> jobs(o.stops);
  std::vector<std::int64_t> total(o.capacity_dims, 0), largest(o.capacity_dims, 0);
  for (Job& j : jobs) {
    j.demand.push_back(job_rng.between(5, 60));
    if (o.capacity_dims > 1) j.demand.push_back(job_rng.between(10, 400));
    j.service = 120 + 30 * job_rng.between(0, 16);
    j.window = draw_job_window(job_rng);
    for (std::size_t d = 0; d < o.capacity_dims; ++d) {
      total[d] += j.demand[d];
      largest[d] = std::max(largest[d], j.demand[d]);
    }
  }

  // Fleet: standard capacity 1.2 x demand per truck (rounded up to tens, at least the largest
  // single demand); every third truck is a large one at 1.5x: about 1.4x the demand in all.
  std::vector<std::int64_t> standard(o.capacity_dims);
  const auto trucks = static_cast<std::int64_t>(o.trucks);
  for (std::size_t d = 0; d < o.capacity_dims; ++d) {
    const std::int64_t c = (12 * total[d] + 10 * trucks - 1) / (10 * trucks);
    standard[d] = std::max((c + 9) / 10 * 10, largest[d]);
  }
  Rng fleet_rng(o.seed, 3);

  std::string out = "{\n\"vehicles\": [\n";
  for (std::size_t v = 0; v < o.trucks; ++v) {
    const Coordinates& depot = graph.coords[depots[v % o.depots]];
    std::vector<std::int64_t> capacity = standard;
    if (v % 3 == 2)
      for (auto& c : capacity) c = c * 3 / 2;
    const Window shift = draw_shift(fleet_rng);
    out += fmt::format(
        "{{\"id\": {}, \"start\": {}, \"end\": {}, \"capacity\": {}, \"time_window\": [{}, {}], "
        "\"breaks\": [{{\"id\": {}, \"time_windows\": [[{}, {}]], \"service\": 1800}}]}}{}\n",
        v + 1, position(depot), position(depot), amount(capacity), shift.start, shift.end, v + 1,
        shift.start + 3 * kHour, shift.start + 6 * kHour, v + 1 < o.trucks ? "," : "");
  }
  out += "],\n\"jobs\": [\n";
  for (std::size_t j = 0; j < o.stops; ++j) {
    const Job& job = jobs[j];
    out += fmt::format(
        "{{\"id\": {}, \"location\": {}, \"service\": {}, \"delivery\": {}, \"time_windows\": "
        "[[{}, {}]]}}{}\n",
        j + 1, position(graph.coords[stops[j]]), job.service, amount(job.demand), job.window.start,
        job.window.end, j + 1 < o.stops ? "," : "");
  }
  out += "]\n}\n";
  return out;
}

}  // namespace routesolve::scenario
