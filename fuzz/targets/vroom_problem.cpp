// libFuzzer target: VROOM JSON problems -> parse_vroom_problem, then (as routesolve solve does)
// matrices from coordinates when none are given, then Problem::create.
// Rule checked: bad input fails with routesolve::Error only; no crash, leak or UB.

#include "fuzz_support.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "routesolve/network/matrix_provider.hpp"
#include "routesolve/problem.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace routesolve;
  try {
    ProblemSpec spec = io::parse_vroom_problem(fuzz::as_text(data, size), "fuzz.json");
    if (spec.matrices.empty()) network::fill_matrices(spec, network::GreatCircleProvider{});
    auto problem = Problem::create(std::move(spec));
    (void)problem->tasks().size();
  } catch (const Error&) {
  }
  return 0;
}
