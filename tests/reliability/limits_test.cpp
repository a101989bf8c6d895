// Memory estimates before large matrices and road networks (routesolve/memory_budget.hpp).

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include "routesolve/network/matrix_provider.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/benchmark_formats.hpp"
#include "routesolve/io/road_formats.hpp"
#include "routesolve/memory_budget.hpp"
#include "routesolve/problem.hpp"

namespace routesolve {
namespace {

struct MemoryLimit {  // sets ROUTESOLVE_MEMORY_LIMIT_MB for the scope of a test
  explicit MemoryLimit(const char* mb) { ::setenv("ROUTESOLVE_MEMORY_LIMIT_MB", mb, 1); }
  ~MemoryLimit() { ::unsetenv("ROUTESOLVE_MEMORY_LIMIT_MB"); }
};

TEST(MemoryBudget, MatrixBytesAndOverflow) {
  EXPECT_EQ(matrix_bytes(1000, 2), 16'000'000u);
  EXPECT_EQ(matrix_bytes(100'000, 1), 80'000'000'000u);
  EXPECT_EQ(matrix_bytes(std::numeric_limits<std::size_t>::max(), 1), std::numeric_limits<std::uint64_t>::max());
  EXPECT_GT(available_memory_bytes(), 0u);
  const MemoryLimit limit("5");
  EXPECT_EQ(available_memory_bytes(), 5u << 20);
}

TEST(MemoryBudget, RefusesWithNeededAndAvailable) {
  const MemoryLimit limit("100");
  EXPECT_NO_THROW(check_matrix_memory(1000, 7, "small.json"));  // 53 MiB
  try {
    check_matrix_memory(100'000, 7, "big.json");
    FAIL() << "expected Error(OutOfMemory)";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::OutOfMemory);
    const std::string msg = e.what();
    EXPECT_NE(msg.find("big.json: 100000 locations need 522 GiB"), std::string::npos) << msg;
    EXPECT_NE(msg.find("only 100.0 MiB of memory is available"), std::string::npos) << msg;
  }
}

TEST(MemoryBudget, CoordinatesRefusedBeforeAllocating) {
  ProblemSpec spec;
  spec.source = "coords.json";
  VehicleSpec v;
  v.id = 1;
  v.start = LocationSpec{};
  v.start->coords = Coordinates{9.5, 47.1};
  spec.vehicles.push_back(v);
  for (int i = 0; i < 2000; ++i) {
    JobSpec j;
    j.id = i;
    j.location.coords = Coordinates{9.0 + 1e-4 * i, 47.0};
    spec.jobs.push_back(j);
  }
  EXPECT_EQ(distinct_locations(spec), 2001u);
  const MemoryLimit limit("10");  // 2001^2 x 8 x 7 = 214 MiB
  try {
    network::fill_matrices(spec, network::GreatCircleProvider{});
    FAIL() << "expected Error(OutOfMemory)";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::OutOfMemory);
    EXPECT_NE(std::string(e.what()).find("coords.json: 2001 locations need"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(spec.matrices.empty());
}

TEST(MemoryBudget, CvrplibRefusedBeforeItsMatrix) {
  EXPECT_EQ(matrix_bytes(30'001, 1, 4), 3'600'240'004u);
  // 6,000 nodes: one matrix of 32-bit entries is 137 MiB, refused under a 100 MiB cap with the
  // file and the section named; the same file is read under no cap.
  std::string text = "NAME : big\nTYPE : CVRP\nDIMENSION : 6000\nEDGE_WEIGHT_TYPE : EUC_2D\nCAPACITY : 100\n";
  text += "NODE_COORD_SECTION\n";
  for (int i = 1; i <= 6000; ++i) text += std::to_string(i) + " " + std::to_string(i % 997) + " " + std::to_string(i / 997) + "\n";
  text += "DEMAND_SECTION\n";
  for (int i = 1; i <= 6000; ++i) text += std::to_string(i) + " " + (i == 1 ? "0" : "1") + "\n";
  text += "DEPOT_SECTION\n1\n-1\nEOF\n";
  {
    const MemoryLimit limit("100");
    try {
      (void)io::parse_cvrplib(text, "big.vrp");
      FAIL() << "expected Error(OutOfMemory)";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::OutOfMemory);
      const std::string msg = e.what();
      EXPECT_NE(msg.find("big.vrp: NODE_COORD_SECTION: 6000 locations need 137.3 MiB"), std::string::npos) << msg;
      EXPECT_NE(msg.find("(4 bytes per entry)"), std::string::npos) << msg;
    }
  }
  EXPECT_EQ(io::parse_cvrplib(text, "big.vrp").jobs.size(), 5999u);
}

TEST(MemoryBudget, RoadNetworkWithHugeNodeIdsRefused) {
  // Found by fuzzing: a 4-line edge list naming node 429496722 allocated gigabytes.
  const auto file = std::filesystem::temp_directory_path() / ("routesolve_limits_" + std::to_string(::getpid()) + ".cedge");
  std::ofstream(file) << "0 0 1 0.002\n1 1 0 0.0005\n2 1 429496722 0.01\n";
  const MemoryLimit limit("64");
  try {
    (void)io::read_edge_list(file);
    FAIL() << "expected Error(OutOfMemory)";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::OutOfMemory);
    EXPECT_NE(std::string(e.what()).find("429496723 nodes"), std::string::npos) << e.what();
  }
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace routesolve
