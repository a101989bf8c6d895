#pragma once
// Memory a device engine can predict and survive running out of. Plain C++ (no CUDA types), so
// that every rule here runs and is tested on the host:
//  - check_memory: before allocating, the bytes an engine needs on the device and in pinned host
//    memory against what is free; refuses with "WHAT needs X on device N, Y available";
//  - PairedBuffer: a host staging buffer and its device buffer, grown together with the strong
//    guarantee (a failed growth leaves both as they were), through an injectable allocator.

#include <cstddef>
#include <cstdint>
#include <string>

namespace routesolve::cuda::detail {

/// "1.50 GiB", "12.0 MiB", "512 B".
std::string format_bytes(std::uint64_t bytes);

struct MemoryNeed {
  std::uint64_t device = 0;  ///< bytes of device memory
  std::uint64_t pinned = 0;  ///< bytes of page-locked host memory
};

struct MemoryFree {
  std::uint64_t device = 0;  ///< cudaMemGetInfo's free bytes
  std::uint64_t host = 0;    ///< host memory available for pinning
};

/// Throws Error(OutOfMemory) "WHAT needs X on device N, Y available" (or "X of pinned host
/// memory, Y available") when `need` does not fit in `free`.
void check_memory(const std::string& what, int device, const MemoryNeed& need,
                  const MemoryFree& free);

/// Host memory available now (MemAvailable of /proc/meminfo, else free pages); 0 when unknown.
std::uint64_t host_available_bytes() noexcept;

/// How a PairedBuffer gets its memory: pinned (or pageable) host memory and device memory in the
/// real engines, host memory with injected failures in the tests. Both allocate functions throw
/// on failure (Error(OutOfMemory) or std::bad_alloc) and never return null for bytes > 0.
class BufferAllocator {
 public:
  virtual ~BufferAllocator() = default;
  virtual void* allocate_host(std::size_t bytes) = 0;
  virtual void free_host(void* p) noexcept = 0;
  virtual void* allocate_device(std::size_t bytes) = 0;
  virtual void free_device(void* p) noexcept = 0;
};

/// A host staging buffer and its device buffer. reserve() allocates both new buffers before it
/// frees either old one: after a failure (an exception from the allocator)
/// both buffers and the capacity are those of before, so the next call can neither see a grown
/// host side with a small device side nor copy past the end of one of them.
class PairedBuffer {
 public:
  /// The allocator must outlive the buffer.
  explicit PairedBuffer(BufferAllocator& allocator) noexcept : allocator_(&allocator) {}
  ~PairedBuffer() { release(); }
  PairedBuffer(const PairedBuffer&) = delete;
  PairedBuffer& operator=(const PairedBuffer&) = delete;

  /// At least `host_bytes` on the host and `device_bytes` on the device (both grown by half again
  /// as much when either is too small, to keep reallocations rare).
  void reserve(std::size_t host_bytes, std::size_t device_bytes);
  void reserve(std::size_t bytes) { reserve(bytes, bytes); }
  [[nodiscard]] std::byte* host() const noexcept { return host_; }
  [[nodiscard]] std::byte* device() const noexcept { return device_; }
  [[nodiscard]] std::size_t host_capacity() const noexcept { return host_capacity_; }
  [[nodiscard]] std::size_t device_capacity() const noexcept { return device_capacity_; }

 private:
  void release() noexcept;

  BufferAllocator* allocator_;
  std::byte* host_ = nullptr;
  std::byte* device_ = nullptr;
  std::size_t host_capacity_ = 0, device_capacity_ = 0;
};

}  // namespace routesolve::cuda::detail
