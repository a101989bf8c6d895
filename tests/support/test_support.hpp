#pragma once
// Helpers shared by the tests: where the datasets and the tool are, and skipping without them.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

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

/// A fixture with a fresh scratch folder per test (named for the suite, the test and the process),
/// removed afterwards; write() puts a file in it.
class ScratchDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("routesolve_" + std::string(info->test_suite_name()) + "_" + info->name() + "_" +
            std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  std::filesystem::path write(const std::string& name, const std::string& text) const {
    const auto path = dir_ / name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  std::filesystem::path dir_;
};

}  // namespace routesolve::test

/// Skips the current test with a clear message when a dataset folder is missing.
#define ROUTESOLVE_REQUIRE_DATASET(rel)                                                   \
  do {                                                                                    \
    if (!std::filesystem::exists(::routesolve::test::datasets_dir() / (rel)))             \
      GTEST_SKIP() << "dataset " << (::routesolve::test::datasets_dir() / (rel)).string() \
                   << " not found: place ../shared/datasets beside the repository";       \
  } while (0)
