#include "routesolve/error.hpp"

#include <gtest/gtest.h>

#include "routesolve/backend.hpp"

namespace routesolve {
namespace {

TEST(Error, NamesAndExitCodes) {
  EXPECT_EQ(to_string(ErrorCode::InvalidInput), "invalid input");
  EXPECT_EQ(to_string(ErrorCode::Internal), "internal error");
  EXPECT_EQ(exit_code(ErrorCode::InvalidInput), 2);
  EXPECT_EQ(exit_code(ErrorCode::Device), 3);
  EXPECT_EQ(exit_code(ErrorCode::Unsupported), 4);
  EXPECT_EQ(exit_code(ErrorCode::Infeasible), 1);
  EXPECT_EQ(exit_code(ErrorCode::OutOfMemory), 1);
  EXPECT_EQ(exit_code(ErrorCode::Internal), 1);
}

TEST(Error, InvalidInputNamesThePlace) {
  const Error e = invalid_input("vehicles[2].capacity", "negative amount");
  EXPECT_EQ(e.code(), ErrorCode::InvalidInput);
  EXPECT_STREQ(e.what(), "vehicles[2].capacity: negative amount");
}

TEST(Error, ObjectiveAndBackendNamesParseOnceForEveryEntryPoint) {
  EXPECT_EQ(parse_objective("cost"), Objective::Cost);
  EXPECT_EQ(parse_objective("vehicles-then-cost"), Objective::VehiclesThenCost);
  EXPECT_EQ(parse_backend("cuda-host"), BackendKind::CudaHost);
  try {
    (void)parse_objective("happiness");
    FAIL() << "an unknown objective must throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidInput);
    const std::string what = e.what();
    EXPECT_NE(what.find("objective"), std::string::npos) << what;
    EXPECT_NE(what.find("vehicles-then-cost"), std::string::npos) << what;
    EXPECT_NE(what.find("happiness"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace routesolve
