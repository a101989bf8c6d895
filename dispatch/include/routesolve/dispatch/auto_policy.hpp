#pragma once
// `--backend auto`: the cost model that decides between the CPU backend and the device, in one
// place. Plain C++ (no CUDA types); every figure is in seconds or bytes.
//
// Both backends run the same search (search/solve.hpp); they differ in who prices the
// recreate's insertions. The CPU backend runs `threads` chains, one per thread, each pricing its
// own positions. The device runs B chains in lockstep: their host work (ruin, bookkeeping,
// descent: 1 - pricing_share of a step) on `threads` threads, and every insertion round of the
// B chains priced in one batch on the device (requests_per_step rounds per step). Chain steps
// per second:
//
//   cpu    = threads / step_s
//   device = B_eff / (ceil(B / threads) x (1 - pricing_share) x step_s
//                     + requests_per_step x (round_overhead_s + B x rows x device_row_s
//                                            + B x upload_bytes / h2d_bytes_per_s))
//
// with B = search::device_chains (one per kTasksPerDeviceChain tasks, at most 4 per multiprocessor,
// the cuda backend's rule) and B_eff the
// chains whose work adds up (regions of at least two tours: about tasks / 25). The device pays
// when it does min_gain times the cpu's chain steps, and, with a time limit, when its fixed cost
// (context, the problem's upload) takes at most max_fixed_share of the limit. Without a usable
// device auto is always the CPU backend.
//
// Where the rates come from (docs/DEVICE.md, "`--backend auto`"): step_s and pricing_share
// are measured on the host (`--profile` of a cuda-host solve on CVRPLIB X; the figures are in
// docs/DEVICE.md). The device rates (round_overhead_s,
// device_row_s, h2d_bytes_per_s, fixed_s) are measured on the device itself: by its self-test
// the first time the process asks about it, or read from the calibration file that
// `routesolve device-check --calibrate` wrote (calibration.hpp). They have no defaults: with no
// measurement (device_measured false) auto keeps the CPU.

#include <cstddef>
#include <cstdint>
#include <string>

#include "routesolve/backend.hpp"
#include "routesolve/problem.hpp"

namespace routesolve::cuda {
struct DeviceRates;  // routesolve/cuda/self_test.hpp
}

namespace routesolve::dispatch {

/// What the decision looks at.
struct AutoInputs {
  std::size_t tasks = 0;
  std::size_t locations = 0;     ///< matrix side
  std::size_t travel_count = 1;  ///< matrices (duration + distance + cost each)
  double time_limit_s = 0.0;     ///< 0: a fixed amount of work
  unsigned threads = 1;
  unsigned multiprocessors = 132;  ///< of the device
  bool device = false;             ///< a usable device is present
};

/// The rates of the model. The host's have defaults measured on the host (header comment); the
/// device's are zero until set from a measurement (with_device).
struct AutoRates {
  double step_s = 17e-6;  ///< one chain step on one host thread (cuda-host --profile, X n 251-502)
  double pricing_share = 0.32;      ///< of a step: the insertion pricing (`kernel` of cuda-host)
  double requests_per_step = 12.0;  ///< insertion rounds per step (tasks removed by the ruin)
  double rows_per_request = 240.0;  ///< positions priced per request (24 tours of ~10 tasks)
  double upload_bytes = 6000.0;     ///< per chain and round: its changed tours' segments
  bool device_measured = false;     ///< the four below come from a measurement of this device
  double round_overhead_s = 0.0;    ///< measured: one pricing call (launches, copies, sync)
  double device_row_s = 0.0;        ///< measured: one more position priced in a call
  double h2d_bytes_per_s = 0.0;     ///< measured: pinned, one copy
  double fixed_s = 0.0;             ///< measured: opening the device (context, streams, buffers)
  std::string device_source;        ///< where they come from ("self-test" or a calibration file)
  double min_gain = 1.5;            ///< the device must do this many times the cpu's steps
  double max_fixed_share = 0.1;     ///< of the time limit
};

struct AutoEstimate {
  double cpu_steps_per_s = 0.0, device_steps_per_s = 0.0, fixed_s = 0.0;
  unsigned chains = 0;  ///< B
  double gain = 0.0;    ///< device steps / cpu steps
  bool use_device = false;
  std::string why;  ///< one line, for --verbose and the tests
};

/// The host rates with the device's measured ones (`device.measured` false: left unmeasured).
AutoRates with_device(const cuda::DeviceRates& device, AutoRates rates = {});

/// The model (pure: no device query). Without measured device rates: the CPU, saying so.
AutoEstimate estimate_auto(const AutoInputs& in, const AutoRates& rates = {});

/// The inputs of a problem and its options; `device` from device_available().
AutoInputs auto_inputs(const Problem& problem, const SolveOptions& options);

/// The model's verdict for `options`' device: its rates from device_rates (calibration.hpp; the
/// self-test runs now when a device is present and untested).
AutoEstimate estimate_auto(const Problem& problem, const SolveOptions& options);

/// True when a device is usable and the model says it pays for a problem of `tasks` tasks (one
/// matrix, no time limit, device 0).
bool device_pays_for(std::size_t tasks) noexcept;
/// The same model with the problem's matrices, the time limit and the threads of `options`.
bool device_pays_for(const Problem& problem, const SolveOptions& options) noexcept;

}  // namespace routesolve::dispatch
