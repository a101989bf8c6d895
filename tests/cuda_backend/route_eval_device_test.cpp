// Device query and device evaluation. Device results must equal the host twin's exactly; the
// tests that need a device skip with the reason when there is none.

#include <gtest/gtest.h>

#include <string>

#include "route_batch_fixture.hpp"
#include "routesolve/cuda/cuda_backend.hpp"
#include "routesolve/cuda/route_eval.hpp"
#include "routesolve/error.hpp"

namespace routesolve::cuda {
namespace {

#define REQUIRE_CUDA_DEVICE()                                                                   \
  do {                                                                                          \
    if (!device_available()) GTEST_SKIP() << "no CUDA device: " << device_unavailable_reason(); \
  } while (0)

TEST(DeviceQuery, NeverThrowsAndIsConsistent) {
  EXPECT_NO_THROW({
    const auto list = devices();
    const bool available = device_available();
    const std::string reason = device_unavailable_reason();
    EXPECT_EQ(available, !list.empty());
    EXPECT_EQ(available, reason.empty()) << reason;
    if (!built_with_cuda()) {
      EXPECT_FALSE(available);
      EXPECT_NE(reason.find("built without CUDA"), std::string::npos) << reason;
    }
    for (const DeviceInfo& d : list) {
      EXPECT_FALSE(d.name.empty());
      EXPECT_GE(d.compute_major, 8);
      EXPECT_GT(d.total_memory, 0u);
      EXPECT_GT(d.multiprocessors, 0);
    }
  });
  // Asking again gives the same answer.
  EXPECT_EQ(device_available(), device_available());
  EXPECT_EQ(device_unavailable_reason(), device_unavailable_reason());
}

TEST(DeviceEval, ThrowsDeviceErrorWithoutDevice) {
  if (device_available()) GTEST_SKIP() << "a CUDA device is present";
  const test::OwnedBatch b = test::random_batch(1);
  for (const TransferMode mode : {TransferMode::Pinned, TransferMode::Naive}) {
    try {
      (void)evaluate_routes_device(b.batch, DeviceEvalOptions{mode, 0});
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::Device) << e.what();
      EXPECT_NE(std::string(e.what()).find(device_unavailable_reason()), std::string::npos)
          << e.what();
    }
  }
  EXPECT_THROW(DeviceRouteEvaluator{}, Error);
}

TEST(DeviceEval, InvalidBatchIsInvalidInputEvenWithoutDevice) {
  test::OwnedBatch b = test::random_batch(2);
  b.batch.route_travel[0] = 77;
  try {
    (void)evaluate_routes_device(b.batch);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidInput) << e.what();
  }
}

/// The copies of a pinned evaluation: the small arrays staged in one, then each table of the
/// batch's travel data (durations, distances, costs) straight from its own memory.
std::size_t pinned_copies(const RouteBatch& batch) {
  std::size_t copies = 1;
  for (const TravelView& m : batch.travel)
    for (const TravelTable& table : {m.durations, m.distances, m.costs})
      if (table.storage_bytes(m.n) > 0) ++copies;
  return copies;
}

class DeviceEvalModes : public ::testing::TestWithParam<TransferMode> {};

TEST_P(DeviceEvalModes, EqualsHostTwinOnRandomBatches) {
  REQUIRE_CUDA_DEVICE();
  DeviceRouteEvaluator evaluator(DeviceEvalOptions{GetParam(), devices().front().index});
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    test::RandomBatchOptions o;
    o.locations = 1 + seed % 23;
    o.travel_count = 1 + seed % 4;
    o.routes = seed % 70;
    o.max_visits = 1 + (seed * 7) % 100;
    const test::OwnedBatch b = test::random_batch(seed, o);
    DeviceEvalTimings timings;
    const auto device = evaluator.evaluate(b.batch, &timings);
    EXPECT_EQ(device, evaluate_routes_host(b.batch)) << "seed " << seed;
    EXPECT_EQ(device, test::reference_totals(b.batch)) << "seed " << seed;
    if (b.batch.size() > 0) {
      EXPECT_GT(timings.h2d_bytes, 0u);
      EXPECT_GE(timings.kernel, 0.0);
      if (GetParam() == TransferMode::Pinned) {
        EXPECT_EQ(timings.h2d_copies, pinned_copies(b.batch)) << "seed " << seed;
      }
    }
  }
}

TEST_P(DeviceEvalModes, LargeBatch) {
  REQUIRE_CUDA_DEVICE();
  test::RandomBatchOptions o;
  o.locations = 500;
  o.travel_count = 2;
  o.routes = 20000;
  o.max_visits = 300;
  const test::OwnedBatch b = test::random_batch(11, o);
  EXPECT_EQ(evaluate_routes_device(b.batch, DeviceEvalOptions{GetParam(), devices().front().index}),
            evaluate_routes_host(b.batch));
}

INSTANTIATE_TEST_SUITE_P(Transfers, DeviceEvalModes,
                         ::testing::Values(TransferMode::Pinned, TransferMode::Naive),
                         [](const auto& info) {
                           return info.param == TransferMode::Pinned ? std::string("Pinned")
                                                                     : std::string("Naive");
                         });

}  // namespace
}  // namespace routesolve::cuda
