#include "routesolve/search/worker_pool.hpp"

#include <algorithm>
#include <thread>

namespace routesolve::search {

namespace {
constexpr int kPauses = 256;     // the first polls pause (about 30 ns each on an AMD EPYC) ...
constexpr int kPolls = 1 << 11;  // ... the rest yield the core (0.8 us each): 1-2 ms in all

inline void relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}
}  // namespace

void SpinBarrier::arrive_and_wait() {
  const unsigned generation = generation_.load(std::memory_order_acquire);
  if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == threads_) {
    arrived_.store(0, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
    generation_.notify_all();
    return;
  }
  for (int i = 0; i < kPolls; ++i) {
    if (generation_.load(std::memory_order_acquire) != generation) return;
    if (i < kPauses) {
      relax();
    } else {
      std::this_thread::yield();  // a thread of the pool waiting for this core runs first
    }
  }
  while (generation_.load(std::memory_order_acquire) == generation)
    generation_.wait(generation, std::memory_order_acquire);
}

WorkerPool::WorkerPool(unsigned workers)
    : workers_(std::max(1u, workers)), start_(workers_), done_(workers_) {
  threads_.reserve(workers_ - 1);
  for (unsigned w = 1; w < workers_; ++w)
    threads_.emplace_back([this, w] {
      for (;;) {
        start_.arrive_and_wait();
        if (stop_) return;
        slice(w);
        done_.arrive_and_wait();
      }
    });
}

WorkerPool::~WorkerPool() {
  if (threads_.empty()) return;
  stop_ = true;
  start_.arrive_and_wait();
  for (std::thread& t : threads_) t.join();
}

void WorkerPool::slice(unsigned worker) {
  const std::size_t begin = items_ * worker / workers_, end = items_ * (worker + 1) / workers_;
  for (std::size_t i = begin; i < end; ++i) (*job_)(i);
}

void WorkerPool::run(std::size_t items, const std::function<void(std::size_t)>& f) {
  if (threads_.empty() || items <= 1) {
    for (std::size_t i = 0; i < items; ++i) f(i);
    return;
  }
  job_ = &f;
  items_ = items;
  start_.arrive_and_wait();
  slice(0);
  done_.arrive_and_wait();
  job_ = nullptr;
}

}  // namespace routesolve::search
