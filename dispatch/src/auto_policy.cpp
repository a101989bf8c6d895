// The `--backend auto` cost model (see auto_policy.hpp).

#include "routesolve/dispatch/auto_policy.hpp"

#include <algorithm>
#include <cstdio>

#include "routesolve/cuda/cuda_backend.hpp"
#include "routesolve/cuda/search_backend.hpp"

namespace routesolve::dispatch {

AutoEstimate estimate_auto(const AutoInputs& in, const AutoRates& r) {
  AutoEstimate e;
  const double tasks = static_cast<double>(in.tasks);
  const double moves = tasks * r.neighbours * static_cast<double>(cuda::batched_move_types()) * r.batch;
  const double threads = std::max(1u, in.threads);
  const double host_pricing = moves / (r.host_moves_per_s * threads);
  const double host_part = r.host_share / (1.0 - r.host_share) * moves / r.host_moves_per_s;
  // The problem's arena: three int64 matrices per travel index, plus O(tasks) arrays.
  const double matrix_bytes = 24.0 * static_cast<double>(in.locations) * static_cast<double>(in.locations) *
                              static_cast<double>(std::max<std::size_t>(1, in.travel_count));
  const double problem_bytes = matrix_bytes + 200.0 * tasks;
  const double batch_bytes = 16.0 * r.batch * tasks;
  e.host_round_s = host_pricing + host_part;
  e.device_round_s = r.round_overhead_s + moves / r.device_moves_per_s + tasks * r.select_s_per_task +
                     batch_bytes / r.h2d_bytes_per_s / r.descent_rounds + host_part;
  e.fixed_s = r.fixed_s + problem_bytes / r.h2d_bytes_per_s;
  char line[512];
  if (!in.device) {
    e.why = "no usable device";
    return e;
  }
  if (in.tasks == 0) {
    e.why = "no task";
    return e;
  }
  // One descent (all the work of a solve without a time limit, the unit of work with one).
  const double host_descent = r.descent_rounds * e.host_round_s;
  const double device_descent = e.fixed_s + r.descent_rounds * e.device_round_s;
  e.descent_gain = host_descent / device_descent;
  e.use_device = e.descent_gain >= r.min_gain;
  if (in.time_limit_s > 0.0) {
    const double host_rounds = in.time_limit_s / e.host_round_s;
    const double device_rounds = std::max(0.0, in.time_limit_s - e.fixed_s) / e.device_round_s;
    e.rounds_gain = device_rounds / host_rounds;
    const bool fixed_ok = e.fixed_s <= r.max_fixed_share * in.time_limit_s;
    e.use_device = e.use_device && fixed_ok && e.rounds_gain >= r.min_gain;
    std::snprintf(line, sizeof line,
                  "%s: one descent %.3g s on the host, %.3g s on the device; %.3g device rounds per host round "
                  "in %.3g s (fixed %.3g s%s)",
                  e.use_device ? "device" : "cpu", host_descent, device_descent, e.rounds_gain, in.time_limit_s,
                  e.fixed_s, fixed_ok ? "" : ", over its share of the limit");
  } else {
    std::snprintf(line, sizeof line, "%s: one descent %.3g s on the host, %.3g s on the device (fixed %.3g s)",
                  e.use_device ? "device" : "cpu", host_descent, device_descent, e.fixed_s);
  }
  e.why = line;
  return e;
}

AutoInputs auto_inputs(const Problem& problem, const SolveOptions& options) {
  AutoInputs in;
  in.tasks = problem.tasks().size();
  in.travel_count = problem.travel_count();
  in.locations = problem.travel_count() > 0 ? problem.travel_by_index(0).n : 0;
  in.time_limit_s = options.time_limit_s;
  in.threads = options.threads;
  in.device = cuda::device_available();
  return in;
}

bool device_pays_for(std::size_t tasks) noexcept {
  // The cost model with what a task count tells: one matrix of tasks + 1 locations, and no time
  // limit (one descent: the case where the fixed cost weighs most).
  AutoInputs in;
  in.tasks = tasks;
  in.locations = tasks + 1;
  in.device = cuda::device_available();
  return estimate_auto(in).use_device;
}

bool device_pays_for(const Problem& problem, const SolveOptions& options) noexcept {
  return estimate_auto(auto_inputs(problem, options)).use_device;
}

}  // namespace routesolve::dispatch
