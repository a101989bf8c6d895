#include "routesolve/checkpoint.hpp"

#include <bit>
#include <cstring>
#include <string>

#include "routesolve/backend.hpp"
#include "routesolve/error.hpp"

namespace routesolve {

bool better(const CheckpointScore& a, const CheckpointScore& b, Objective objective) {
  if (a.priority_lost != b.priority_lost) return a.priority_lost < b.priority_lost;
  if (a.unassigned != b.unassigned) return a.unassigned < b.unassigned;
  if (objective == Objective::VehiclesThenCost && a.routes != b.routes) return a.routes < b.routes;
  return a.cost < b.cost;
}

namespace {

/// A 64-bit hash fed word by word (multiply-xorshift, as in wyhash/murmur finalisers): fast
/// enough to read a few hundred million matrix entries in well under a second.
class Hasher {
 public:
  void word(std::uint64_t x) {
    h_ ^= x + 0x9E3779B97F4A7C15ULL + (h_ << 6) + (h_ >> 2);
    h_ *= 0xBF58476D1CE4E5B9ULL;
    h_ ^= h_ >> 31;
  }
  void i64(std::int64_t x) { word(static_cast<std::uint64_t>(x)); }
  void f64(double x) { word(std::bit_cast<std::uint64_t>(x)); }
  void size(std::size_t x) { word(static_cast<std::uint64_t>(x)); }
  void text(const std::string& s) {
    size(s.size());
    std::uint64_t w = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
      w = (w << 8) | static_cast<unsigned char>(s[i]);
      if (i % 8 == 7) word(w), w = 0;
    }
    word(w);
  }
  void amount(const Amount& a) {
    size(a.size());
    for (std::int64_t x : a) i64(x);
  }
  void windows(const std::vector<TimeWindow>& tws) {
    size(tws.size());
    for (const TimeWindow& tw : tws) i64(tw.start), i64(tw.end);
  }
  void skills(const std::vector<std::uint32_t>& s) {
    size(s.size());
    for (std::uint32_t x : s) word(x);
  }
  /// n words with four independent lanes (the multiply chains overlap), then folded.
  /// The values as 64-bit integers, whatever the width they are stored in.
  template <typename T>
  void array(const T* data, std::size_t n) {
    std::uint64_t lane[4] = {h_, h_ ^ 0x1234567ULL, h_ ^ 0x89ABCDEFULL, h_ ^ 0x2545F491ULL};
    std::size_t i = 0;
    for (; i + 4 <= n; i += 4)
      for (std::size_t k = 0; k < 4; ++k) {
        lane[k] = (lane[k] ^ static_cast<std::uint64_t>(std::int64_t{data[i + k]})) *
                  0x9FB21C651E98DF25ULL;
        lane[k] ^= lane[k] >> 29;
      }
    for (std::uint64_t l : lane) word(l);
    for (; i < n; ++i) i64(data[i]);
    size(n);
  }
  [[nodiscard]] std::uint64_t value() const noexcept { return h_; }

 private:
  std::uint64_t h_ = 0x52534F4C56455246ULL;  // "RSOLVERF"
};

[[noreturn]] void bad(const SolveCheckpoint& c, const std::string& field, const std::string& what) {
  throw Error(ErrorCode::InvalidInput, (c.source.empty() ? std::string("checkpoint") : c.source) +
                                           ": " + field + ": " + what);
}

}  // namespace

std::uint64_t problem_fingerprint(const Problem& problem) {
  Hasher h;
  h.size(problem.dimensions());
  h.size(problem.locations());
  h.f64(problem.cost_scale());
  h.size(problem.tasks().size());
  for (const Task& t : problem.tasks()) {
    h.word(static_cast<std::uint64_t>(t.type));
    h.word(t.id);
    h.size(t.location);
    h.i64(t.setup), h.i64(t.service);
    h.amount(t.delivery), h.amount(t.pickup);
    h.skills(t.skills);
    h.i64(t.priority);
    h.windows(t.time_windows);
    h.size(t.sibling);
  }
  h.size(problem.vehicles().size());
  for (const Vehicle& v : problem.vehicles()) {
    h.word(v.id);
    h.size(v.profile), h.size(v.start), h.size(v.end), h.size(v.travel);
    h.amount(v.capacity);
    h.skills(v.skills);
    h.windows({v.time_window});
    h.size(v.breaks.size());
    for (const Break& b : v.breaks) {
      h.word(b.id);
      h.windows(b.time_windows);
      h.i64(b.service);
      h.word(b.max_load ? 1 : 0);
      if (b.max_load) h.amount(*b.max_load);
    }
    h.size(v.max_tasks), h.i64(v.max_travel_time), h.i64(v.max_distance);
    h.i64(v.costs.fixed), h.i64(v.costs.per_hour), h.i64(v.costs.per_km);
    h.f64(v.speed_factor);
  }
  for (const std::string& name : problem.profile_names()) h.text(name);
  h.size(problem.travel_count());
  for (std::size_t t = 0; t < problem.travel_count(); ++t) {
    const TravelView view = problem.travel_by_index(t);
    const std::size_t nn = view.n * view.n;
    for (const TravelTable& table : {view.durations, view.distances, view.costs}) {
      // A computed table is its points (bit patterns) and its formula's inputs, not n^2 entries.
      if (table.computed()) {
        const auto* points = static_cast<const PlanarPoint*>(table.data());
        h.word(0x504C414E4152ULL);
        for (std::size_t i = 0; i < view.n; ++i) h.f64(points[i].x), h.f64(points[i].y);
        h.f64(table.scale_squared()), h.word(static_cast<std::uint64_t>(table.rounding()));
        continue;
      }
      if (table.narrow())
        h.array(static_cast<const std::int32_t*>(table.data()), nn);
      else
        h.array(static_cast<const std::int64_t*>(table.data()), nn);
    }
  }
  return h.value();
}

void check_checkpoint(const Problem& problem, const SolveCheckpoint& c) {
  const std::uint64_t fingerprint = problem_fingerprint(problem);
  if (c.fingerprint != fingerprint)
    bad(c, "fingerprint",
        "the checkpoint was written for another problem (or other solve options that change the "
        "problem, "
        "e.g. --truncate-distances or --network): resume it with the input it was written for");
  const std::size_t nt = problem.tasks().size();
  if (c.routes.size() != problem.vehicles().size())
    bad(c, "routes",
        std::to_string(c.routes.size()) + " routes for " +
            std::to_string(problem.vehicles().size()) + " vehicles");
  if (c.threads == 0) bad(c, "threads", "must be at least 1");
  if (!(c.elapsed_s >= 0.0) || !(c.time_limit_s >= 0.0))
    bad(c, "elapsed_s", "time values must be non-negative");
  // 0: not seen, 1: routed, 2: unassigned
  std::vector<char> seen(nt, 0);
  for (std::size_t v = 0; v < c.routes.size(); ++v) {
    const auto& route = c.routes[v];
    const std::string field = "routes[" + std::to_string(v) + "]";
    for (std::size_t k = 0; k < route.size(); ++k) {
      const std::size_t t = route[k];
      if (t >= nt)
        bad(c, field,
            "task index " + std::to_string(t) + " is out of range (" + std::to_string(nt) +
                " tasks)");
      if (seen[t]) bad(c, field, "task index " + std::to_string(t) + " appears twice");
      seen[t] = 1;
      const Task& task = problem.task(t);
      if (task.type == TaskType::Pickup) {
        bool delivered = false;
        for (std::size_t j = k + 1; j < route.size() && !delivered; ++j)
          delivered = route[j] == task.sibling;
        if (!delivered)
          bad(c, field,
              "pickup " + std::to_string(t) + " without its delivery after it on the route");
      } else if (task.type == TaskType::Delivery && !seen[task.sibling]) {
        bad(c, field, "delivery " + std::to_string(t) + " before (or without) its pickup");
      }
      if (!problem.compatible(v, t))
        bad(c, field,
            "task index " + std::to_string(t) + " lacks a skill of vehicle " + std::to_string(v));
    }
  }
  for (std::size_t t : c.unassigned) {
    if (t >= nt) bad(c, "unassigned", "task index " + std::to_string(t) + " is out of range");
    if (problem.task(t).type == TaskType::Delivery)
      bad(c, "unassigned", "task index " + std::to_string(t) + " is a delivery (list the pickup)");
    if (seen[t])
      bad(c, "unassigned", "task index " + std::to_string(t) + " is also routed or listed twice");
    seen[t] = 2;
  }
  for (std::size_t t = 0; t < nt; ++t)
    if (!seen[t] && problem.task(t).type != TaskType::Delivery)
      bad(c, "unassigned", "task index " + std::to_string(t) + " is neither routed nor unassigned");
}

}  // namespace routesolve
