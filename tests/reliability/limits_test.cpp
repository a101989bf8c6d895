// Memory estimates before large matrices and road networks (routesolve/memory_budget.hpp).

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include "routesolve/error.hpp"
#include "routesolve/io/benchmark_formats.hpp"
#include "routesolve/io/road_formats.hpp"
#include "routesolve/memory_budget.hpp"
#include "routesolve/network/matrix_provider.hpp"
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
  EXPECT_EQ(matrix_bytes(std::numeric_limits<std::size_t>::max(), 1),
            std::numeric_limits<std::uint64_t>::max());
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
    EXPECT_NE(std::string(e.what()).find("coords.json: 2001 locations need"), std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(spec.matrices.empty());
}

/// A CVRPLIB EUC_2D file of `n` nodes on a grid (`coord` written after each node's x).
std::string cvrplib_coordinates(int n, const std::string& fraction = "") {
  std::string text = "NAME : big\nTYPE : CVRP\nDIMENSION : " + std::to_string(n) +
                     "\nEDGE_WEIGHT_TYPE : EUC_2D\nCAPACITY : 100\n";
  text += "NODE_COORD_SECTION\n";
  for (int i = 1; i <= n; ++i)
    text += std::to_string(i) + " " + std::to_string(i % 997) + fraction + " " +
            std::to_string(i / 997) + "\n";
  text += "DEMAND_SECTION\n";
  for (int i = 1; i <= n; ++i) text += std::to_string(i) + " " + (i == 1 ? "0" : "1") + "\n";
  text += "DEPOT_SECTION\n1\n-1\nEOF\n";
  return text;
}

TEST(MemoryBudget, CvrplibCoordinatesNeedNoTable) {
  EXPECT_EQ(matrix_bytes(50'000, 1, 4), 10'000'000'000u);
  // 50,000 integral points: their table would be 9.3 GiB, the problem holds the points (0.8 MB)
  // and is read and built under a 200 MiB cap.
  const std::string text = cvrplib_coordinates(50'000);
  const MemoryLimit limit("200");
  const ProblemSpec spec = io::parse_cvrplib(text, "big.vrp");
  EXPECT_EQ(spec.jobs.size(), 49'999u);
  EXPECT_TRUE(spec.matrices.at("car").durations.computed());
  const ProblemPtr p = Problem::create(spec);
  EXPECT_TRUE(p->travel(0).costs.computed());
  EXPECT_EQ(p->travel(0).cost(1, 2), 1);
}

TEST(MemoryBudget, CvrplibTablesStillRefusedBeforeTheirCells) {
  // Fractional coordinates are not exact in floating point, so their 6,000-node table (137 MiB of
  // 32-bit entries) is still stored, and refused under a 100 MiB cap with the section named.
  const std::string text = cvrplib_coordinates(6000, ".5");
  {
    const MemoryLimit limit("100");
    try {
      (void)io::parse_cvrplib(text, "big.vrp");
      FAIL() << "expected Error(OutOfMemory)";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::OutOfMemory);
      const std::string msg = e.what();
      EXPECT_NE(msg.find("big.vrp: NODE_COORD_SECTION: 6000 locations need 137.3 MiB"),
                std::string::npos)
          << msg;
      EXPECT_NE(msg.find("(4 bytes per entry)"), std::string::npos) << msg;
    }
  }
  EXPECT_EQ(io::parse_cvrplib(text, "big.vrp").jobs.size(), 5999u);
  // A matrix given in the file (2,000 nodes, 15.3 MiB) is refused under a 10 MiB cap.
  std::string given = "NAME : given\nTYPE : CVRP\nDIMENSION : 2000\nEDGE_WEIGHT_TYPE : EXPLICIT\n";
  given += "EDGE_WEIGHT_FORMAT : LOWER_ROW\nCAPACITY : 100\nEDGE_WEIGHT_SECTION\n";
  for (int k = 0; k < 2000 * 1999 / 2; ++k) given += k % 1000 == 999 ? "7\n" : "7 ";
  given += "\nDEMAND_SECTION\n";
  for (int i = 1; i <= 2000; ++i) given += std::to_string(i) + " " + (i == 1 ? "0" : "1") + "\n";
  given += "DEPOT_SECTION\n1\n-1\nEOF\n";
  const MemoryLimit limit("10");
  try {
    (void)io::parse_cvrplib(given, "given.vrp");
    FAIL() << "expected Error(OutOfMemory)";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::OutOfMemory);
    const std::string msg = e.what();
    EXPECT_NE(msg.find("given.vrp: EDGE_WEIGHT_SECTION: 2000 locations need 15.3 MiB"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("only 10.0 MiB of memory is available"), std::string::npos) << msg;
  }
}

TEST(MemoryBudget, RoadNetworkWithHugeNodeIdsRefused) {
  // Found by fuzzing: a 4-line edge list naming node 429496722 allocated gigabytes.
  const auto file = std::filesystem::temp_directory_path() /
                    ("routesolve_limits_" + std::to_string(::getpid()) + ".cedge");
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
