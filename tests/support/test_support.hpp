#pragma once
// Helpers shared by the tests: where the datasets and the tool are, and skipping without them.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace routesolve::test {

/// ../shared/datasets (or $ROUTESOLVE_DATASETS).
inline std::filesystem::path datasets_dir() {
  if (const char* env = std::getenv("ROUTESOLVE_DATASETS")) return env;
  return ROUTESOLVE_TEST_DATASETS;
}

/// The repository root (or $ROUTESOLVE_SOURCE).
inline std::filesystem::path source_dir() {
  if (const char* env = std::getenv("ROUTESOLVE_SOURCE")) return env;
  return ROUTESOLVE_TEST_SOURCE;
}

/// The folder holding the built executables (or $ROUTESOLVE_BIN).
inline std::filesystem::path bin_dir() {
  if (const char* env = std::getenv("ROUTESOLVE_BIN")) return env;
  return ROUTESOLVE_TEST_BIN;
}

}  // namespace routesolve::test

/// Skips the current test with a clear message when a dataset folder is missing.
#define ROUTESOLVE_REQUIRE_DATASET(rel)                                                      \
  do {                                                                                       \
    if (!std::filesystem::exists(::routesolve::test::datasets_dir() / (rel)))                \
      GTEST_SKIP() << "dataset " << (::routesolve::test::datasets_dir() / (rel)).string()    \
                   << " not found: place ../shared/datasets beside the repository";          \
  } while (0)
