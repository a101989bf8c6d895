// libFuzzer target: CVRPLIB .sol -> parse_cvrplib_solution against a fixed 6-customer instance,
// then the validator (routes only, as `routesolve validate` checks .sol files).

#include "fuzz_support.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/benchmark_formats.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/validator.hpp"

namespace {
constexpr std::string_view kInstance = R"(NAME : fuzz-n7-k2
TYPE : CVRP
DIMENSION : 7
EDGE_WEIGHT_TYPE : EUC_2D
CAPACITY : 10
NODE_COORD_SECTION
1 50 50
2 10 10
3 90 10
4 90 90
5 10 90
6 50 10
7 50 90
DEMAND_SECTION
1 0
2 3
3 4
4 3
5 4
6 2
7 5
DEPOT_SECTION
1
-1
EOF
)";

const routesolve::Problem& problem() {
  static const routesolve::ProblemPtr p =
      routesolve::Problem::create(routesolve::io::parse_cvrplib(kInstance, "fuzz.vrp"));
  return *p;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace routesolve;
  const Problem& p = problem();
  try {
    const Solution solution = io::parse_cvrplib_solution(fuzz::as_text(data, size), "fuzz.sol", p);
    ValidateOptions options;
    options.check_figures = false;
    (void)validate(p, solution, options).to_text();
  } catch (const Error&) {
  }
  return 0;
}
