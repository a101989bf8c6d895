#pragma once
// The search driver on a batched insertion engine: what "cuda-host" and "cuda" share.

#include <optional>
#include <string>

#include "insertion_engines.hpp"
#include "routesolve/solution.hpp"

namespace routesolve::cuda::insertion {

/// What the batched engines do not price (Backend::supports of "cuda-host" and "cuda"):
/// multi-trip vehicles and working-time limits, which the segment engine's search alone prices.
std::optional<std::string> batched_unsupported(const Problem& problem);

/// search::solve with `engine`, its chains in lockstep (each recreate round's requests priced in
/// one engine call; without `lockstep`, one chain per thread calling the engine at once, as the
/// cpu backend's, for the host twin, which gains nothing from batches and would make the chains
/// wait for each other at every round), and the engine's stages in the
/// profile: "pack" (laying out the batches), "h2d", "kernel" (the pricing: the kernels, or the
/// host twin's loop), "d2h", "check" (host verification of device results).
Solution solve_batched(const Problem& problem, const SolveOptions& options, BatchedEngine& engine,
                       const char* backend_name, unsigned chains = 0, bool lockstep = true);

/// The chains a device batches well when SolveOptions::chains is 0: about one per 25 tasks (a
/// region of two tours or more each, so that the chains' work adds up), at least one per
/// thread, at most four per multiprocessor.
unsigned device_chains(const Problem& problem, const SolveOptions& options, int multiprocessors);

/// solve_batched on a checked device engine: the solution carries the mismatches, and after a
/// fallback backend "cuda-host" (what finished the search) and the reason in Solution::fallback.
Solution solve_checked(const Problem& problem, const SolveOptions& options, CheckedEngine& engine,
                       unsigned chains = 0);

}  // namespace routesolve::cuda::insertion
