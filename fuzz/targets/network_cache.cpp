// libFuzzer target: the binary network cache (.rsnet) -> read_network_cache (with extra
// sections) and read_cache_section. Unless bit 1 of byte 8 (the version's low byte) is set, the
// target patches the header's file size and CRC-32 to match the mutated bytes, so the fuzzer
// gets past the checksum into the section table and arrays; with that bit set (a version this
// build never writes) the bytes stay as they are, so the checksum path is fuzzed too.

#include <zlib.h>

#include <cstring>
#include <vector>

#include "fuzz_support.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/road_formats.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace routesolve;
  std::vector<std::uint8_t> bytes(data, data + size);
  if (bytes.size() >= 32 && (bytes[8] & 2) == 0) {
    const std::uint64_t file_size = bytes.size();
    std::memcpy(&bytes[16], &file_size, sizeof file_size);
    const auto crc = static_cast<std::uint32_t>(crc32_z(0, bytes.data() + 32, bytes.size() - 32));
    std::memcpy(&bytes[24], &crc, sizeof crc);
  }
  const auto file = fuzz::write_scratch(".rsnet", bytes.data(), bytes.size());
  try {
    std::vector<io::CacheSection> extra;
    const RoadNetwork network = io::read_network_cache(file, &extra);
    (void)network.graph.node_count();
  } catch (const Error&) {
  }
  try {
    (void)io::read_cache_section(file, "ch");
  } catch (const Error&) {
  }
  return 0;
}
