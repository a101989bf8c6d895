#pragma once
// The per-thread bodies of the move engine's kernels, one functor each: body(thread, block)
// is what thread `thread` of block `block` does in a grid of kBlock-thread blocks. The device
// runs them as grid_kernel<Body><<<blocks, kBlock>>> (move_eval.cu); the host twin runs the
// same bodies from loops over the same grid (host_grid.hpp, host_engine.cpp), so that a build
// without a GPU exercises the kernels' indexing too. No body needs block-wide synchronisation.
//
// A round: BuildBody (one thread per route), PriceBody (one per (solution, customer,
// neighbour)), a segmented minimum of each customer's K deltas (CUB on the device, a loop on the
// host), GatherBody (one per (solution, customer)), KeysBody + a stable segmented sort by delta
// (CUB radix sort / std::stable_sort), TakeBody (one per solution), LengthBody (one per route,
// and one more), an exclusive scan of the lengths, WriteBody (one per route).

#include <cstdint>

#include "../launch_grid.cuh"
#include "pricing/moves.cuh"
#include "route_writer.cuh"
#include "selection.cuh"

namespace routesolve::cuda::detail::batched {

using u64 = std::uint64_t;

/// Threads per block of every kernel of the engine.
inline constexpr u32 kBlock = 128;

/// The launch shape of every kernel of the engine for n threads (launch_grid.cuh).
RS_HD constexpr Grid engine_grid(u64 n) noexcept { return linear_grid(n, kBlock); }

/// The global index of a thread.
RS_HD constexpr u64 thread_index(u32 thread, u32 block) noexcept { return global_thread(thread, block, kBlock); }

/// Prefix arrays of every route.
struct BuildBody {
  ProblemView p;
  BatchView b;
  PrefixView x;
  u32 routes = 0;
  RS_HD void operator()(u32 thread, u32 block) const {
    const u64 r = thread_index(thread, block);
    if (r < routes) build_route(p, b, x, static_cast<u32>(r));
  }
};

/// The best improving move of each (solution, customer, neighbour) triple into moves[i] and its
/// delta into deltas[i]; solutions with active[s] == 0 (when active is given) get none.
struct PriceBody {
  ProblemView p;
  BatchView b;
  PrefixView x;
  u64 n = 0;  ///< triples
  const u8* active = nullptr;
  Move* moves = nullptr;
  i64* deltas = nullptr;
  RS_HD void operator()(u32 thread, u32 block) const {
    const u64 i = thread_index(thread, block);
    if (i >= n) return;
    const u64 per_solution = static_cast<u64>(p.tasks) * p.neighbours;
    const auto sol = static_cast<u32>(i / per_solution);
    const u64 rest = i % per_solution;
    const auto u = static_cast<i32>(rest / p.neighbours);
    const auto k = static_cast<u32>(rest % p.neighbours);
    const Move m = active != nullptr && active[sol] == 0u ? Move{} : best_move(p, b, x, sol, u, k);
    moves[i] = m;
    deltas[i] = m.delta;
  }
};

/// Segment offsets of the minimum: segment s is [s * k, (s + 1) * k).
struct OffsetsBody {
  int* offsets = nullptr;
  u64 segments = 0;
  u32 k = 0;
  RS_HD void operator()(u32 thread, u32 block) const {
    const u64 i = thread_index(thread, block);
    if (i <= segments) offsets[i] = static_cast<int>(i * k);
  }
};

/// The first of each segment's moves with the segment's minimum delta (kNoMove: no move).
struct GatherBody {
  const i64* mins = nullptr;
  const Move* moves = nullptr;
  u64 segments = 0;
  u32 k = 0;
  Move* best = nullptr;
  RS_HD void operator()(u32 thread, u32 block) const {
    const u64 s = thread_index(thread, block);
    if (s >= segments) return;
    Move out;
    const i64 value = mins[s];
    if (value != kNoMove) {
      for (u32 j = 0; j < k; ++j)
        if (moves[s * k + j].delta == value) {
          out = moves[s * k + j];
          break;
        }
    }
    best[s] = out;
  }
};

/// "No move" everywhere (nothing to price: K = 0).
struct FillBody {
  Move* best = nullptr;
  u64 n = 0;
  RS_HD void operator()(u32 thread, u32 block) const {
    const u64 i = thread_index(thread, block);
    if (i < n) best[i] = Move{};
  }
};

/// Sort keys of the selection: every customer's best delta (kNoMove: none) with the customer as
/// value, and the solutions' segment offsets.
struct KeysBody {
  const Move* best = nullptr;
  u64 n = 0;
  u32 tasks = 0;
  i64* keys = nullptr;
  u32* values = nullptr;
  int* segments = nullptr;
  u32 solutions = 0;
  RS_HD void operator()(u32 thread, u32 block) const {
    const u64 i = thread_index(thread, block);
    if (i < n) {
      keys[i] = best[i].delta;
      values[i] = static_cast<u32>(i % tasks);
    }
    if (i <= solutions) segments[i] = static_cast<int>(i * tasks);
  }
};

/// One thread per solution walks its sorted customers (take_moves).
struct TakeBody {
  ProblemView p;
  BatchView b;
  PrefixView x;
  ApplyView a;
  RS_HD void operator()(u32 thread, u32 block) const {
    const u64 s = thread_index(thread, block);
    if (s < b.solutions) take_moves(p, b, x, a, static_cast<u32>(s), p.tasks);
  }
};

/// New length of every route (and 0 for the one past the last).
struct LengthBody {
  BatchView b;
  ApplyView a;
  u32 routes = 0;
  RS_HD void operator()(u32 thread, u32 block) const {
    const u64 r = thread_index(thread, block);
    if (r <= routes) route_length(b, a, static_cast<u32>(r), routes);
  }
};

/// Every route at its new offset in the second buffer.
struct WriteBody {
  ProblemView p;
  BatchView b;
  ApplyView a;
  BatchOut out;
  u32 routes = 0;
  RS_HD void operator()(u32 thread, u32 block) const {
    const u64 r = thread_index(thread, block);
    if (r < routes) write_route(p, b, a, out, static_cast<u32>(r));
  }
};

}  // namespace routesolve::cuda::detail::batched
