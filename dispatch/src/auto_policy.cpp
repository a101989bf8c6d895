// The `--backend auto` cost model (see auto_policy.hpp).

#include "routesolve/dispatch/auto_policy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "device_rates.hpp"
#include "routesolve/cuda/cuda_backend.hpp"
#include "routesolve/cuda/self_test.hpp"
#include "routesolve/search/tuning.hpp"

namespace routesolve::dispatch {

AutoRates with_device(const cuda::DeviceRates& device, AutoRates rates) {
  rates.device_measured = device.measured && device.h2d_bytes_per_s > 0.0;
  if (!rates.device_measured) return rates;
  rates.round_overhead_s = device.round_overhead_s;
  rates.device_row_s = device.device_row_s;
  rates.h2d_bytes_per_s = device.h2d_bytes_per_s;
  rates.fixed_s = device.fixed_s;
  rates.device_source = device.source;
  return rates;
}

AutoEstimate estimate_auto(const AutoInputs& in, const AutoRates& r) {
  AutoEstimate e;
  if (in.device && !r.device_measured) {
    e.why =
        "device rates not measured (no self-test measurement, no calibration file: "
        "routesolve device-check --calibrate)";
    return e;
  }
  const double tasks = static_cast<double>(in.tasks);
  const double threads = std::max(1u, in.threads);
  const double regions =
      std::max(1.0, std::floor(tasks / static_cast<double>(search::kTasksPerDeviceChain)));
  const double chains =
      search::device_chains(in.tasks, in.threads, in.multiprocessors);  // the cuda backend's
  const double effective = std::min(chains, std::max(threads, regions));
  e.chains = static_cast<unsigned>(chains);
  e.cpu_steps_per_s = threads / r.step_s;
  const double host = std::ceil(chains / threads) * (1.0 - r.pricing_share) * r.step_s;
  const double upload = r.h2d_bytes_per_s > 0.0 ? chains * r.upload_bytes / r.h2d_bytes_per_s : 0.0;
  const double device =
      r.requests_per_step *
      (r.round_overhead_s + chains * r.rows_per_request * r.device_row_s + upload);
  e.device_steps_per_s = effective / (host + device);
  e.gain = e.device_steps_per_s / e.cpu_steps_per_s;
  // The problem's one upload: three int64 matrices per travel index, plus O(tasks) segments.
  const double matrix_bytes = 24.0 * static_cast<double>(in.locations) *
                              static_cast<double>(in.locations) *
                              static_cast<double>(std::max<std::size_t>(1, in.travel_count));
  e.fixed_s = r.fixed_s +
              (r.h2d_bytes_per_s > 0.0 ? (matrix_bytes + 300.0 * tasks) / r.h2d_bytes_per_s : 0.0);
  if (!in.device) {
    e.why = "no usable device";
    return e;
  }
  if (in.tasks == 0) {
    e.why = "no task";
    return e;
  }
  e.use_device = e.gain >= r.min_gain;
  const bool fixed_ok = in.time_limit_s <= 0.0 || e.fixed_s <= r.max_fixed_share * in.time_limit_s;
  e.use_device = e.use_device && fixed_ok;
  char line[512];
  std::snprintf(
      line, sizeof line,
      "%s: %.3g chain steps/s on %u cpu thread(s), %.3g with %u chains in lockstep on the device "
      "(%.2fx; fixed %.3g s%s; device rates: %s)",
      e.use_device ? "device" : "cpu", e.cpu_steps_per_s, in.threads, e.device_steps_per_s,
      e.chains, e.gain, e.fixed_s, fixed_ok ? "" : ", over its share of the limit",
      r.device_source.empty() ? "given" : r.device_source.c_str());
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
  if (in.device)
    for (const cuda::DeviceInfo& d : cuda::devices())
      if (d.index == options.device.index)
        in.multiprocessors = static_cast<unsigned>(std::max(1, d.multiprocessors));
  return in;
}

AutoEstimate estimate_auto(const Problem& problem, const SolveOptions& options) {
  const AutoInputs in = auto_inputs(problem, options);
  return estimate_auto(in, in.device ? with_device(device_rates(options.device.index,
                                                                options.device.calibration_dir))
                                     : AutoRates{});
}

bool device_pays_for(std::size_t tasks) noexcept {
  try {
    AutoInputs in;
    in.tasks = tasks;
    in.locations = tasks + 1;
    in.device = cuda::device_available();
    return estimate_auto(in, in.device ? with_device(device_rates(0)) : AutoRates{}).use_device;
  } catch (...) {  // a malformed calibration file, no memory: not a reason to fail a solve
    return false;
  }
}

bool device_pays_for(const Problem& problem, const SolveOptions& options) noexcept {
  try {
    return estimate_auto(problem, options).use_device;
  } catch (...) {
    return false;
  }
}

}  // namespace routesolve::dispatch
