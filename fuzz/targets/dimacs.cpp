// libFuzzer target: DIMACS .gr (+ optional .co) -> read_dimacs. The input is the .gr text, then
// optionally a NUL byte and the .co text; both go through scratch files (the reader is
// file-based).

#include <cstring>

#include "fuzz_support.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/road_formats.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace routesolve;
  const auto* nul = static_cast<const std::uint8_t*>(std::memchr(data, 0, size));
  const std::size_t gr_size = nul ? static_cast<std::size_t>(nul - data) : size;
  const auto gr = fuzz::write_scratch(".gr", data, gr_size);
  std::filesystem::path co;
  if (nul) co = fuzz::write_scratch(".co", nul + 1, size - gr_size - 1);
  try {
    const RoadNetwork network = io::read_dimacs(gr, co);
    (void)network.graph.node_count();
  } catch (const Error&) {
  }
  return 0;
}
