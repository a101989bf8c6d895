// Problem::create, validation: the Checker (each failure names the JSON path of the offending
// field), and the checks that look at the whole spec before anything is indexed: presence,
// scales, dimensions, matrix entries.

#include <algorithm>
#include <cmath>
#include <string>

#include "problem_build.hpp"
#include "routesolve/error.hpp"

namespace routesolve {
namespace problem_build {

std::string idx(std::string_view base, std::size_t i) {
  std::string s(base);
  s += '[';
  s += std::to_string(i);
  s += ']';
  return s;
}

void Checker::fail(std::string_view path, std::string_view what) const {
  std::string msg;
  if (!source_.empty()) msg.append(source_).append(": ");
  msg.append(path).append(": ").append(what);
  throw Error(ErrorCode::InvalidInput, msg);
}

void Checker::non_negative(std::int64_t value, const std::string& path) const {
  if (value < 0) fail(path, "must not be negative (found " + std::to_string(value) + ")");
}

void Checker::duration(Duration value, const std::string& path) const {
  non_negative(value, path);
  if (value > kMaxTime) fail(path, "is too large (" + std::to_string(value) + ")");
}

void Checker::amount(const Amount& a, std::size_t dims, const std::string& path) const {
  if (!a.empty() && a.size() != dims)
    fail(path, "has " + std::to_string(a.size()) + " dimensions, expected " + std::to_string(dims));
  for (std::size_t d = 0; d < a.size(); ++d)
    if (a[d] < 0)
      fail(idx(path, d), "amount must not be negative (found " + std::to_string(a[d]) + ")");
}

std::vector<TimeWindow> Checker::windows(const std::vector<TimeWindow>& in,
                                         const std::string& path) const {
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
    if (out[i].start <= out[k].end)
      out[k].end = std::max(out[k].end, out[i].end);
    else
      out[++k] = out[i];
  }
  out.resize(k + 1);
  return out;
}

std::int64_t Checker::scale(double value, const std::string& path) const {
  if (!(value >= 1.0) || value > 1e9 || std::floor(value) != value)
    fail(path, "must be a positive integer (found " + std::to_string(value) + ")");
  return static_cast<std::int64_t>(value);
}

std::vector<std::uint32_t> sorted_unique(std::vector<std::uint32_t> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

Amount filled(const Amount& a, std::size_t dims, std::int64_t fill) {
  if (a.size() == dims) return a;
  return Amount(std::vector<std::int64_t>(dims, fill));
}

}  // namespace problem_build

using problem_build::idx;

void ProblemBuilder::check_presence_and_scales() {
  if (spec.matrices.empty())
    check.fail("matrices",
               "no travel matrices: give them in the input, or fill them from a matrix provider "
               "(great-circle or a road network) before creating the problem");

  if (spec.vehicles.empty()) check.fail("vehicles", "at least one vehicle is required");

  scale_time = check.scale(spec.scale.time, "scale.time");
  scale_distance = check.scale(spec.scale.distance, "scale.distance");
  scale_cost = check.scale(spec.scale.cost, "scale.cost");
  if (!std::isfinite(spec.balance) || spec.balance < 0.0 || spec.balance > 1e9)
    check.fail("options.balance",
               "expected a number from 0 to 1e9, got " + std::to_string(spec.balance));
}

// The first non-empty amount sets the dimensions; every other must agree.
void ProblemBuilder::read_dimensions() {
  bool dims_known = false;
  auto see_dims = [&](const Amount& a, const std::string& path) {
    if (a.empty()) return;
    if (!dims_known) {
      dims = a.size();
      dims_known = true;
    } else if (a.size() != dims) {
      check.fail(path, "has " + std::to_string(a.size()) + " dimensions, expected " +
                           std::to_string(dims));
    }
  };
  for (std::size_t i = 0; i < spec.jobs.size(); ++i) {
    see_dims(spec.jobs[i].delivery, idx("jobs", i) + ".delivery");
    see_dims(spec.jobs[i].pickup, idx("jobs", i) + ".pickup");
  }
  for (std::size_t i = 0; i < spec.shipments.size(); ++i)
    see_dims(spec.shipments[i].amount, idx("shipments", i) + ".amount");
  for (std::size_t i = 0; i < spec.vehicles.size(); ++i) {
    see_dims(spec.vehicles[i].capacity, idx("vehicles", i) + ".capacity");
    if (spec.vehicles[i].current_load)
      see_dims(*spec.vehicles[i].current_load, idx("vehicles", i) + ".current_load");
    for (std::size_t b = 0; b < spec.vehicles[i].breaks.size(); ++b)
      if (spec.vehicles[i].breaks[b].max_load)
        see_dims(*spec.vehicles[i].breaks[b].max_load,
                 idx(idx("vehicles", i) + ".breaks", b) + ".max_load");
  }
}

// Every profile has a durations matrix; distances and costs, when given, match its size; no entry
// is negative.
void ProblemBuilder::check_matrices() const {
  for (const auto& [name, m] : spec.matrices) {
    const std::string base = "matrices." + name;
    if (m.durations.empty()) check.fail(base + ".durations", "missing durations matrix");
    const std::size_t n = m.durations.size();
    auto check_matrix = [&](const Matrix& mat, const std::string& path) {
      if (mat.size() != n)
        check.fail(path, "size " + std::to_string(mat.size()) + " differs from durations size " +
                             std::to_string(n));
      // Rounded planar distances are not negative; any write since the reader forgot the points.
      if (mat.planar() != nullptr) return;
      auto scan = [&](const auto* d) {
        // A vectorisable minimum first (900 million entries at 30,000 locations); the first
        // negative entry is looked for only when there is one.
        std::int64_t least = 0;
        for (std::size_t k = 0; k < n * n; ++k) least = std::min<std::int64_t>(least, d[k]);
        if (least >= 0) return;
        for (std::size_t k = 0; k < n * n; ++k)
          if (d[k] < 0)
            check.fail(path, "entry (" + std::to_string(k / n) + ", " + std::to_string(k % n) +
                                 ") is negative (" + std::to_string(d[k]) + ")");
      };
      if (mat.narrow())
        scan(mat.data32());
      else
        scan(mat.data64());
    };
    // A table the durations' storage holds too (CVRPLIB, Solomon: one table) is checked once.
    check_matrix(m.durations, base + ".durations");
    if (!m.distances.empty() && !m.distances.shares(m.durations))
      check_matrix(m.distances, base + ".distances");
    if (m.costs && !m.costs->shares(m.durations) && !m.costs->shares(m.distances))
      check_matrix(*m.costs, base + ".costs");
  }
}

}  // namespace routesolve
