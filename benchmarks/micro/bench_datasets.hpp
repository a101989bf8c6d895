#pragma once
// Where the benchmarks read their datasets: $ROUTESOLVE_BENCH_DATASETS (benchmarks/run-all and the
// device kit's run export it), else $ROUTESOLVE_DATASETS, else the build's datasets folder (the
// target's ROUTESOLVE_BENCH_DATASETS definition).

#include <cstdlib>
#include <filesystem>

namespace routesolve::bench {

inline std::filesystem::path datasets_dir() {
  for (const char* name : {"ROUTESOLVE_BENCH_DATASETS", "ROUTESOLVE_DATASETS"})
    if (const char* env = std::getenv(name); env != nullptr && *env != '\0') return env;
  return ROUTESOLVE_BENCH_DATASETS;
}

}  // namespace routesolve::bench
