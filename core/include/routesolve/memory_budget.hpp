#pragma once
// Memory estimates before large allocations: dense n x n travel matrices grow with the
// square of the locations (100,000 locations: 80 GB per matrix), so routesolve refuses a problem
// that cannot fit with a clear message instead of being killed half-way.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "routesolve/problem.hpp"

namespace routesolve {

/// Bytes of memory available to this process now: MemAvailable of /proc/meminfo, else
/// sysconf(_SC_AVPHYS_PAGES) x page size; the environment variable ROUTESOLVE_MEMORY_LIMIT_MB,
/// when set, caps it (tests, or a share of a machine).
std::uint64_t available_memory_bytes();

/// Bytes of `matrices` dense n x n matrices of `entry_bytes` per entry (8: 64-bit; 4: the 32-bit
/// storage a Matrix keeps while its values fit); UINT64_MAX when that overflows.
std::uint64_t matrix_bytes(std::size_t n, std::size_t matrices,
                           std::size_t entry_bytes = 8) noexcept;

/// Throws Error(OutOfMemory) "<what>: needs X GiB for <for_what>, but only Y GiB of memory is
/// available" when `needed` bytes exceed the available memory (no check when that is unknown).
void check_memory(std::uint64_t needed, std::string_view what, std::string_view for_what);

/// Throws Error(OutOfMemory) when `matrices` n x n matrices of `entry_bytes` per entry do not fit
/// in the available memory, with a message naming `what`, the bytes needed and the bytes
/// available. Readers call it before they allocate a matrix, so a file too large for the machine
/// is refused before any large allocation.
void check_matrix_memory(std::size_t n, std::size_t matrices, std::string_view what,
                         std::size_t entry_bytes = 8);

/// Upper bound of the matrix size of a spec without matrices: its distinct coordinates (jobs,
/// shipment pickups and deliveries, vehicle starts and ends), plus locations without coordinates.
std::size_t distinct_locations(const ProblemSpec& spec);

/// Matrices a problem built from coordinates or a road network holds at its peak: duration and
/// distance per profile in the spec, plus the duration, distance and cost tables per profile that
/// Problem::create derives, plus the two being filled.
std::size_t matrices_at_peak(const ProblemSpec& spec) noexcept;

}  // namespace routesolve
