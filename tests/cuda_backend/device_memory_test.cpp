// Predictable device memory (cuda_backend/src/device_memory.hpp), on the host: the memory check's
// refusal and the paired host/device buffer under injected allocation failures.

#include "device_memory.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <new>
#include <set>
#include <string>

#include "routesolve/error.hpp"

namespace routesolve::cuda::detail {
namespace {

/// Host memory on both sides; the allocation numbered `fail_at` (counted from 1 over both
/// sides) throws Error(OutOfMemory), as a failed cudaMalloc does. Counts what is outstanding.
class FailingAllocator final : public BufferAllocator {
 public:
  void* allocate_host(std::size_t bytes) override { return take(bytes, hosts); }
  void free_host(void* p) noexcept override { give(p, hosts); }
  void* allocate_device(std::size_t bytes) override { return take(bytes, devices); }
  void free_device(void* p) noexcept override { give(p, devices); }

  std::uint64_t fail_at = 0;
  std::uint64_t count = 0;
  std::set<void*> hosts, devices;

 private:
  void* take(std::size_t bytes, std::set<void*>& into) {
    if (++count == fail_at) throw Error(ErrorCode::OutOfMemory, "injected allocation failure");
    void* p = ::operator new(bytes);
    into.insert(p);
    return p;
  }
  static void give(void* p, std::set<void*>& from) noexcept {
    from.erase(p);
    ::operator delete(p);
  }
};

TEST(DeviceMemory, RefusesNamingWhatIsNeededAndWhatIsAvailable) {
  try {
    check_memory("the cuda insertion engine", 1, {3ull << 30, 0}, {1ull << 30, 1ull << 40});
    FAIL() << "no refusal";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::OutOfMemory);
    EXPECT_EQ(std::string(e.what()),
              "the cuda insertion engine needs 3.00 GiB on device 1, 1.00 GiB available");
  }
  try {
    check_memory("the route evaluation", 0, {10, 64ull << 20}, {1ull << 30, 12ull << 20});
    FAIL() << "no refusal";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "the route evaluation needs 64.0 MiB of pinned host memory, 12.0 MiB available");
  }
  EXPECT_NO_THROW(check_memory("fits", 0, {1ull << 30, 1ull << 20}, {1ull << 30, 1ull << 20}));
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_GT(host_available_bytes(), 0u);
}

TEST(DeviceMemory, AFailedGrowthLeavesBothBuffersAsTheyWere) {
  for (const std::uint64_t failing : {1u, 2u}) {  // the host side fails, then the device side
    FailingAllocator allocator;
    {
      PairedBuffer buffer(allocator);
      buffer.reserve(100, 400);
      ASSERT_GE(buffer.host_capacity(), 100u);
      ASSERT_GE(buffer.device_capacity(), 400u);
      std::memset(buffer.host(), 7, buffer.host_capacity());
      std::byte* const host = buffer.host();
      std::byte* const device = buffer.device();
      const std::size_t host_capacity = buffer.host_capacity(),
                        device_capacity = buffer.device_capacity();

      allocator.fail_at = allocator.count + failing;
      EXPECT_THROW(buffer.reserve(5000, 20000), Error) << "failure " << failing;
      // Both as before, nothing leaked: the old pair is whole.
      EXPECT_EQ(buffer.host(), host);
      EXPECT_EQ(buffer.device(), device);
      EXPECT_EQ(buffer.host_capacity(), host_capacity);
      EXPECT_EQ(buffer.device_capacity(), device_capacity);
      EXPECT_EQ(allocator.hosts.size(), 1u);
      EXPECT_EQ(allocator.devices.size(), 1u);
      EXPECT_EQ(buffer.host()[host_capacity - 1], std::byte{7});

      // The next call (the allocator works again) grows both.
      buffer.reserve(5000, 20000);
      EXPECT_GE(buffer.host_capacity(), 5000u);
      EXPECT_GE(buffer.device_capacity(), 20000u);
      EXPECT_EQ(allocator.hosts.size(), 1u);
      EXPECT_EQ(allocator.devices.size(), 1u);
      std::memset(buffer.host(), 1, buffer.host_capacity());
      std::memset(buffer.device(), 1, buffer.device_capacity());
      // Smaller requests keep the buffers.
      std::byte* const grown = buffer.device();
      buffer.reserve(10, 10);
      EXPECT_EQ(buffer.device(), grown);
    }
    EXPECT_TRUE(allocator.hosts.empty());
    EXPECT_TRUE(allocator.devices.empty());
  }
}

}  // namespace
}  // namespace routesolve::cuda::detail
