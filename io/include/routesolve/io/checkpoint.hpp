#pragma once
// The checkpoint file of a long solve (`routesolve solve --checkpoint FILE`, SolveCheckpoint).
//
// Layout (little-endian):
//   header  32 bytes: magic "RSCKPT\0\0", u32 format version, u32 CRC-32 (zlib) of the payload,
//           u64 payload size, u64 zero
//   payload u64 problem fingerprint, u64 seed, u32 threads, u32 objective (0 cost,
//           1 vehicles-then-cost), f64 time limit, f64 elapsed seconds, u64 iterations,
//           i64 priority lost, u64 unassigned, u64 routes, i64 cost (the best plan's score),
//           u64 vehicle count, then per vehicle u64 n and n u64 task indices,
//           u64 unassigned count and the unassigned task indices.
// Files are written atomically and durably (unique temporary file in the same folder, fsync,
// rename): a kill -9 at any moment leaves the previous checkpoint or the new one.

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "routesolve/checkpoint.hpp"

namespace routesolve::io {

inline constexpr std::uint32_t kCheckpointVersion = 1;

/// The bytes of a checkpoint file.
std::string encode_checkpoint(const SolveCheckpoint& checkpoint);

/// Parses checkpoint bytes; `source` names the file in errors. Throws Error(InvalidInput) for a
/// wrong magic or version, a truncated file, a checksum mismatch or values out of range. The
/// result's `source` is set; use check_checkpoint() to match it against a problem.
SolveCheckpoint decode_checkpoint(std::string_view bytes, const std::string& source);

/// Writes a checkpoint file atomically and durably.
void write_checkpoint(const std::filesystem::path& file, const SolveCheckpoint& checkpoint);

/// Reads and decodes a checkpoint file (Error(InvalidInput) naming the file when it cannot be
/// read or is not a sound checkpoint).
SolveCheckpoint read_checkpoint(const std::filesystem::path& file);

}  // namespace routesolve::io
