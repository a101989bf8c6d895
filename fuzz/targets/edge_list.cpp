// libFuzzer target: edge lists ("edge_id u v weight" / "u v weight") -> read_edge_list through a
// scratch file (the reader is file-based).

#include "fuzz_support.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/road_formats.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace routesolve;
  const auto file = fuzz::write_scratch(".cedge", data, size);
  try {
    const RoadNetwork network = io::read_edge_list(file);
    (void)network.graph.node_count();
  } catch (const Error&) {
  }
  return 0;
}
