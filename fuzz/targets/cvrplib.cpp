// libFuzzer target: CVRPLIB/TSPLIB .vrp -> parse_cvrplib, then Problem::create; the "Cost N"
// reader of .sol files too (it takes any text).

#include "fuzz_support.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/benchmark_formats.hpp"
#include "routesolve/problem.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace routesolve;
  const auto text = fuzz::as_text(data, size);
  try {
    auto problem = Problem::create(io::parse_cvrplib(text, "fuzz.vrp"));
    (void)problem->tasks().size();
  } catch (const Error&) {
  }
  try {
    (void)io::cvrplib_solution_cost(text, "fuzz.sol");
  } catch (const Error&) {
  }
  return 0;
}
