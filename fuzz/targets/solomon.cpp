// libFuzzer target: Solomon / Gehring & Homberger text -> parse_solomon (exact and one-decimal
// distances), then Problem::create.

#include "fuzz_support.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/benchmark_formats.hpp"
#include "routesolve/problem.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace routesolve;
  const auto text = fuzz::as_text(data, size);
  for (const bool truncate : {false, true}) {
    try {
      auto problem = Problem::create(io::parse_solomon(text, "fuzz.txt", truncate));
      (void)problem->tasks().size();
    } catch (const Error&) {
    }
  }
  return 0;
}
