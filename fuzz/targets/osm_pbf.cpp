// libFuzzer target: OpenStreetMap files -> read_osm_pbf through a scratch file. The first byte
// picks the container (even: .osm.pbf, odd: .osm XML), the rest is the file: PBF exercises the
// blob decoding, XML reaches the car profile (tags, maxspeed, oneway, access) with few bytes.

#include "fuzz_support.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/road_formats.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace routesolve;
  if (size == 0) return 0;
  const bool xml = (data[0] & 1) != 0;
  const auto file = fuzz::write_scratch(xml ? ".osm" : ".osm.pbf", data + 1, size - 1);
  try {
    const RoadNetwork network = io::read_osm_pbf(file);
    (void)network.graph.node_count();
  } catch (const Error&) {
  }
  return 0;
}
