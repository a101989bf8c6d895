#pragma once
// `--backend auto`: the cost model that decides between the CPU backend and the device, in one
// place. Plain C++ (no CUDA types); every figure is in seconds or bytes.
//
// A solve on the device pays a fixed cost (CUDA context start, the problem's one pinned upload)
// and then runs rounds of the batched local search: every round prices tasks x K x kMoveTypes
// moves for each of the B solutions of the batch, selects and applies moves, and the host does
// the rest (ruin and recreate, verification). The model estimates one round on each side:
//
//   host_round   = moves / (host_moves_per_s x threads)            (the `kernel` stage of cuda-host)
//                + host_part                                     (the `host_search` stage)
//   device_round = round_overhead_s                              (launches, one sync, D2H counts)
//                + moves / device_moves_per_s                    (pricing, all threads at once)
//                + tasks x select_s_per_task                     (selection: sorted, then walked)
//                + batch_bytes / h2d_bytes_per_s / descent_rounds  (the batch up once a descent)
//                + host_part
//   host_part    = host_share / (1 - host_share) x moves / host_moves_per_s
//
// The device pays when one descent (descent_rounds rounds: all the work of a solve without a
// time limit) is min_gain times faster there, fixed cost included:
//   fixed + descent_rounds x device_round <= descent_rounds x host_round / min_gain,
// and, with a time limit, when it also does min_gain times the rounds the host does in that
// time after its fixed cost, which may take at most max_fixed_share of the limit. With the
// defaults the break-even is about 150 tasks (200: 1.75x, 100: 0.98x).
// Without a usable device auto is always the CPU backend.
//
// Where the rates come from (docs/BENCHMARKS.md, "`--backend auto`"): host_moves_per_s and
// host_share are measured on the host (bench_moves `cpu-one-at-a-time`, the `--profile` shares of a
// cuda-host solve: kernel 90%, host_search 9.5%); the device figures are estimates until
// scripts/gpu-check records them (bench_moves `cuda` rows: kernel_ms per batch; the `--profile-out`
// of a cuda solve: h2d, kernel, d2h per round).

#include <cstddef>
#include <cstdint>
#include <string>

#include "routesolve/problem.hpp"
#include "routesolve/backend.hpp"

namespace routesolve::dispatch {

/// What the decision looks at.
struct AutoInputs {
  std::size_t tasks = 0;
  std::size_t locations = 0;      ///< matrix side
  std::size_t travel_count = 1;   ///< matrices (duration + distance + cost each)
  double time_limit_s = 0.0;      ///< 0: construction + one descent
  unsigned threads = 1;
  bool device = false;            ///< a usable device is present
};

/// The rates of the model. Defaults: see the header comment (measured on the host, estimated for
/// the device).
struct AutoRates {
  double host_moves_per_s = 1.2e7;      ///< per thread (bench_moves cpu-one-at-a-time, X n 100-1000)
  double host_share = 0.095;            ///< host_search share of a cuda-host solve (--profile)
  double device_moves_per_s = 5.0e8;    ///< estimate (H200; not measured yet)
  double round_overhead_s = 150e-6;     ///< estimate: ~10 launches, one sync, a 12 B x B copy back
  double select_s_per_task = 0.5e-6;    ///< estimate: one GPU thread walks a solution's sorted candidates
  double h2d_bytes_per_s = 2.0e10;      ///< estimate: pinned, one copy
  double fixed_s = 0.25;                ///< estimate: CUDA context start + stream + buffers
  unsigned batch = 8, neighbours = 16;  ///< the batched search's B and K
  double descent_rounds = 30.0;         ///< rounds of one descent (batched search stats, X-n251)
  double min_gain = 1.5;                ///< the device must do this many times the host's rounds
  double max_fixed_share = 0.1;         ///< of the time limit
};

struct AutoEstimate {
  double host_round_s = 0.0, device_round_s = 0.0, fixed_s = 0.0;
  double descent_gain = 0.0;  ///< host time / device time of one descent
  double rounds_gain = 0.0;   ///< device rounds / host rounds in the time limit (0 without one)
  bool use_device = false;
  std::string why;    ///< one line, for --verbose and the tests
};

/// The model (pure: no device query).
AutoEstimate estimate_auto(const AutoInputs& in, const AutoRates& rates = {});

/// The inputs of a problem and its options; `device` from device_available().
AutoInputs auto_inputs(const Problem& problem, const SolveOptions& options);

/// True when a device is usable and the model says it pays for a problem of `tasks` tasks (one
/// matrix, no time limit: the conservative case).
bool device_pays_for(std::size_t tasks) noexcept;
/// The same model with the problem's matrices, the time limit and the threads of `options`.
bool device_pays_for(const Problem& problem, const SolveOptions& options) noexcept;

}  // namespace routesolve::dispatch
