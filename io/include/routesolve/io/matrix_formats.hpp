#pragma once
// Travel matrices between points, written for other tools: VROOM's "matrices" JSON object, or the
// compact binary format (docs/ROAD_NETWORKS.md). Input matrices are node matrices (deciseconds,
// metres); both writers give seconds (rounded half up) and metres.

#include <cstdint>
#include <iosfwd>

#include "routesolve/road_graph.hpp"

namespace routesolve::io {

/// Written in JSON matrices for an unreachable pair: INT32_MAX, the largest value every VROOM
/// version reads (its user durations and distances are 32-bit).
inline constexpr std::int64_t kJsonUnreachable = 2147483647;
/// Written in binary matrices for an unreachable pair.
inline constexpr std::int64_t kBinaryUnreachable = -1;

/// {"matrices": {"car": {"durations": [[...]], "distances": [[...]]}}}
void write_json_matrices(std::ostream& out, const NodeMatrices& m);

/// "RSMATRIX", u32 version, u32 flags (0), u64 n, int64 durations[n*n] (seconds), int64
/// distances[n*n] (metres), little-endian; -1 = unreachable.
void write_binary_matrices(std::ostream& out, const NodeMatrices& m);

}  // namespace routesolve::io
