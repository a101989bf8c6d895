#pragma once
// CRC-32 (zlib's polynomial) shared by the binary formats of io/: the network cache (.rsnet)
// and solver checkpoints.

#include <zlib.h>

#include <cstddef>
#include <cstdint>

namespace routesolve::io::detail {

/// Continues a CRC-32 over `size` bytes (start with crc = 0).
inline std::uint32_t crc_update(std::uint32_t crc, const void* data, std::size_t size) {
  if (size == 0) return crc;  // zlib answers a null buffer with the initial value, not crc
  return static_cast<std::uint32_t>(crc32_z(crc, static_cast<const Bytef*>(data), size));
}

}  // namespace routesolve::io::detail
