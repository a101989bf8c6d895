// Travel matrices written out (matrix_formats.hpp; layouts in docs/ROAD_NETWORKS.md).

#include "routesolve/io/matrix_formats.hpp"

#include <cstdint>
#include <ostream>
#include <string>

namespace routesolve::io {
namespace {

constexpr char kBinaryMagic[8] = {'R', 'S', 'M', 'A', 'T', 'R', 'I', 'X'};
constexpr std::uint32_t kBinaryVersion = 1;

/// Seconds from deciseconds, rounded half up; unreachable stays kUnreachable.
std::int64_t to_seconds(std::int64_t ds) {
  return ds >= kUnreachable ? kUnreachable : (ds + 5) / 10;
}

}  // namespace

void write_json_matrices(std::ostream& out, const NodeMatrices& m) {
  const std::size_t n = m.rows;
  auto matrix = [&](const std::vector<std::int64_t>& values, bool seconds) {
    std::string text = "[";
    for (std::size_t i = 0; i < n; ++i) {
      text += i == 0 ? "[" : ",\n[";
      for (std::size_t j = 0; j < n; ++j) {
        std::int64_t v = values[i * n + j];
        if (seconds) v = to_seconds(v);
        if (v >= kUnreachable) v = kJsonUnreachable;
        if (j > 0) text += ',';
        text += std::to_string(v);
      }
      text += ']';
    }
    text += ']';
    return text;
  };
  out << "{\"matrices\": {\"car\": {\"durations\": " << matrix(m.durations, true)
      << ",\n\"distances\": " << matrix(m.distances, false) << "}}}\n";
}

namespace {
void put_u32(std::ostream& out, std::uint32_t v) {
  unsigned char b[4];
  for (int k = 0; k < 4; ++k) b[k] = static_cast<unsigned char>(v >> (8 * k));
  out.write(reinterpret_cast<const char*>(b), 4);
}
void put_u64(std::ostream& out, std::uint64_t v) {
  unsigned char b[8];
  for (int k = 0; k < 8; ++k) b[k] = static_cast<unsigned char>(v >> (8 * k));
  out.write(reinterpret_cast<const char*>(b), 8);
}

}  // namespace

/// Binary layout (little-endian), see docs/ROAD_NETWORKS.md: "RSMATRIX", u32 version, u32 flags
/// (0), u64 n, int64 durations[n*n] (seconds), int64 distances[n*n] (metres); -1 = unreachable.
void write_binary_matrices(std::ostream& out, const NodeMatrices& m) {
  out.write(kBinaryMagic, sizeof kBinaryMagic);
  put_u32(out, kBinaryVersion);
  put_u32(out, 0);
  put_u64(out, m.rows);
  for (const bool seconds : {true, false}) {
    const auto& values = seconds ? m.durations : m.distances;
    for (std::int64_t v : values) {
      if (seconds) v = to_seconds(v);
      put_u64(out, static_cast<std::uint64_t>(v >= kUnreachable ? kBinaryUnreachable : v));
    }
  }
}

}  // namespace routesolve::io
