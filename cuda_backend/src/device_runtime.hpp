#pragma once
// The device-runtime layer: checked CUDA calls and RAII owners (device buffers, pinned host
// buffers, streams, events) that hand out non-owning DeviceSpan views. CUDA builds only; host
// code, usable from .cpp (g++) and .cu (nvcc) alike.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <new>
#include <string>
#include <utility>

#include "device_memory.hpp"
#include "device_span.cuh"
#include "routesolve/error.hpp"

namespace routesolve::cuda::detail {

/// Throws Error(Device) (OutOfMemory for allocation failures) naming the call site and the
/// CUDA error. Clears the runtime's last error so that a later check does not see it again.
inline void check_cuda(cudaError_t status, const char* call, const char* file, int line) {
  if (status == cudaSuccess) return;
  (void)cudaGetLastError();
  const ErrorCode code =
      status == cudaErrorMemoryAllocation ? ErrorCode::OutOfMemory : ErrorCode::Device;
  throw Error(code, std::string(file) + ":" + std::to_string(line) + ": " + call + ": " +
                        cudaGetErrorString(status) + " (" + cudaGetErrorName(status) + ")");
}

}  // namespace routesolve::cuda::detail

/// Checks a CUDA runtime call; throws routesolve::Error on failure.
#define RS_CUDA_CHECK(call) \
  ::routesolve::cuda::detail::check_cuda((call), #call, __FILE__, __LINE__)

/// Checks the launch of the kernel just issued (configuration errors, missing kernel image).
#define RS_CUDA_CHECK_LAUNCH() \
  ::routesolve::cuda::detail::check_cuda(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)

namespace routesolve::cuda::detail {

/// Makes `device` the calling thread's current device for the guard's lifetime and restores
/// the previous one afterwards. Every entry point of a device engine opens one first, so that
/// its streams, events and buffers are created and used on its own device whatever the caller
/// set before.
class DeviceGuard {
 public:
  /// Throws Error(Device) when the device cannot be made current.
  explicit DeviceGuard(int device) {
    RS_CUDA_CHECK(cudaGetDevice(&previous_));
    if (previous_ != device) RS_CUDA_CHECK(cudaSetDevice(device));
    changed_ = previous_ != device;
  }
  /// For destructors: errors are ignored (the device may be gone already).
  DeviceGuard(int device, std::nothrow_t) noexcept {
    const bool known = cudaGetDevice(&previous_) == cudaSuccess;
    changed_ = known && previous_ != device && cudaSetDevice(device) == cudaSuccess;
    if (!known || (previous_ != device && !changed_))
      (void)cudaGetLastError();  // only our own failure
  }
  ~DeviceGuard() {
    if (changed_) (void)cudaSetDevice(previous_);
  }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_ = 0;
  bool changed_ = false;
};

/// A CUDA stream that does not synchronise with the legacy default stream, or (legacy()) the
/// legacy default stream itself, which every plain cudaMemcpy runs on: the naive transfer mode
/// puts its kernels there, so that they are ordered after its synchronous pageable copies.
class Stream {
 public:
  Stream() { RS_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  /// The legacy default stream (not owned).
  static Stream legacy() noexcept { return Stream(cudaStreamLegacy, false); }
  ~Stream() {
    if (stream_ != nullptr && owned_) (void)cudaStreamDestroy(stream_);
  }
  Stream(Stream&& o) noexcept : stream_(std::exchange(o.stream_, nullptr)), owned_(o.owned_) {}
  Stream& operator=(Stream&& o) noexcept {
    std::swap(stream_, o.stream_);
    std::swap(owned_, o.owned_);
    return *this;
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  [[nodiscard]] cudaStream_t get() const noexcept { return stream_; }
  void synchronize() const { RS_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

 private:
  Stream(cudaStream_t stream, bool owned) noexcept : stream_(stream), owned_(owned) {}
  cudaStream_t stream_ = nullptr;
  bool owned_ = true;
};

/// A timing event.
class Event {
 public:
  Event() { RS_CUDA_CHECK(cudaEventCreate(&event_)); }
  ~Event() {
    if (event_ != nullptr) (void)cudaEventDestroy(event_);
  }
  Event(Event&& o) noexcept : event_(std::exchange(o.event_, nullptr)) {}
  Event& operator=(Event&& o) noexcept {
    std::swap(event_, o.event_);
    return *this;
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  void record(const Stream& stream) { RS_CUDA_CHECK(cudaEventRecord(event_, stream.get())); }
  [[nodiscard]] cudaEvent_t get() const noexcept { return event_; }

  /// Seconds between two recorded, completed events.
  static double seconds_between(const Event& start, const Event& stop) {
    float ms = 0.0f;
    RS_CUDA_CHECK(cudaEventElapsedTime(&ms, start.event_, stop.event_));
    return static_cast<double>(ms) * 1e-3;
  }

 private:
  cudaEvent_t event_ = nullptr;
};

/// Device memory for `count` T, allocated stream-ordered (cudaMallocAsync) on `stream`, or with
/// cudaMalloc where the device has no memory pools. Freed on the same stream, so the stream
/// must outlive the buffer (declare the Stream first). Contents are uninitialised.
template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(std::size_t count, const Stream& stream) : count_(count), stream_(stream.get()) {
    if (count == 0) return;
    void* p = nullptr;
    const cudaError_t status = cudaMallocAsync(&p, count * sizeof(T), stream_);
    if (status == cudaErrorNotSupported) {
      (void)cudaGetLastError();
      RS_CUDA_CHECK(cudaMalloc(&p, count * sizeof(T)));
      pooled_ = false;
    } else {
      RS_CUDA_CHECK(status);
    }
    ptr_ = static_cast<T*>(p);
  }
  ~DeviceBuffer() { release(); }
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)),
        count_(std::exchange(o.count_, 0)),
        stream_(o.stream_),
        pooled_(o.pooled_) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      release();
      ptr_ = std::exchange(o.ptr_, nullptr);
      count_ = std::exchange(o.count_, 0);
      stream_ = o.stream_;
      pooled_ = o.pooled_;
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  [[nodiscard]] T* data() const noexcept { return ptr_; }
  [[nodiscard]] std::size_t size() const noexcept { return count_; }
  [[nodiscard]] std::size_t bytes() const noexcept { return count_ * sizeof(T); }
  [[nodiscard]] DeviceSpan<T> view() const noexcept { return {ptr_, count_}; }
  [[nodiscard]] DeviceSpan<const T> cview() const noexcept { return {ptr_, count_}; }

 private:
  void release() noexcept {
    if (ptr_ == nullptr) return;
    if (pooled_) {
      (void)cudaFreeAsync(ptr_, stream_);
    } else {
      (void)cudaFree(ptr_);
    }
    ptr_ = nullptr;
  }

  T* ptr_ = nullptr;
  std::size_t count_ = 0;
  cudaStream_t stream_ = nullptr;
  bool pooled_ = true;
};

/// Page-locked host memory for `count` T (cudaHostAlloc): the staging area of every transfer.
template <typename T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::size_t count) : count_(count) {
    if (count == 0) return;
    void* p = nullptr;
    RS_CUDA_CHECK(cudaHostAlloc(&p, count * sizeof(T), cudaHostAllocDefault));
    ptr_ = static_cast<T*>(p);
  }
  ~PinnedBuffer() {
    if (ptr_ != nullptr) (void)cudaFreeHost(ptr_);
  }
  PinnedBuffer(PinnedBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(count_, o.count_);
    return *this;
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;

  [[nodiscard]] T* data() const noexcept { return ptr_; }
  [[nodiscard]] std::size_t size() const noexcept { return count_; }
  [[nodiscard]] std::size_t bytes() const noexcept { return count_ * sizeof(T); }
  [[nodiscard]] DeviceSpan<T> view() const noexcept { return {ptr_, count_}; }

 private:
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

/// The engines' memory check (device_memory.hpp) against the current device's free memory
/// (cudaMemGetInfo) and the host memory available for pinning.
inline void check_device_memory(const std::string& what, int device, const MemoryNeed& need) {
  std::size_t free = 0, total = 0;
  RS_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  check_memory(what, device, need, MemoryFree{free, need.pinned > 0 ? host_available_bytes() : 0});
}

/// PairedBuffer's allocator on the current device: pinned (cudaHostAlloc) or pageable host
/// memory, and cudaMalloc'd device memory. Allocation failures throw Error(OutOfMemory).
class CudaBufferAllocator final : public BufferAllocator {
 public:
  explicit CudaBufferAllocator(bool pinned) noexcept : pinned_(pinned) {}
  void* allocate_host(std::size_t bytes) override {
    if (!pinned_) return ::operator new(bytes);
    void* p = nullptr;
    RS_CUDA_CHECK(cudaHostAlloc(&p, bytes, cudaHostAllocDefault));
    return p;
  }
  void free_host(void* p) noexcept override {
    if (pinned_) {
      (void)cudaFreeHost(p);
    } else {
      ::operator delete(p);
    }
  }
  void* allocate_device(std::size_t bytes) override {
    void* p = nullptr;
    RS_CUDA_CHECK(cudaMalloc(&p, bytes));
    return p;
  }
  void free_device(void* p) noexcept override { (void)cudaFree(p); }

 private:
  bool pinned_;
};

/// Pins (cudaHostRegister) host memory that already exists, such as a problem's matrices, for
/// the guard's lifetime: copies from it are then DMA transfers without a staging copy. Where the
/// registration fails (no memory to lock, or the range is registered already) the memory stays
/// pageable and the copies stay correct, only slower.
class HostRegistration {
 public:
  HostRegistration(const void* data, std::size_t bytes) noexcept {
    if (data == nullptr || bytes == 0) return;
    // cudaHostRegister does not write the memory; its API takes a non-const pointer.
    void* p = const_cast<void*>(data);
    if (cudaHostRegister(p, bytes, cudaHostRegisterDefault) == cudaSuccess) {
      data_ = p;
    } else {
      (void)cudaGetLastError();
    }
  }
  ~HostRegistration() {
    if (data_ != nullptr) (void)cudaHostUnregister(data_);
  }
  HostRegistration(HostRegistration&& o) noexcept : data_(std::exchange(o.data_, nullptr)) {}
  HostRegistration& operator=(HostRegistration&&) = delete;
  HostRegistration(const HostRegistration&) = delete;
  HostRegistration& operator=(const HostRegistration&) = delete;
  [[nodiscard]] bool pinned() const noexcept { return data_ != nullptr; }

 private:
  void* data_ = nullptr;
};

}  // namespace routesolve::cuda::detail
