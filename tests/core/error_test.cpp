#include <gtest/gtest.h>

#include "routesolve/error.hpp"

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

}  // namespace
}  // namespace routesolve
