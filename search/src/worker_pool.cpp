#include "routesolve/search/worker_pool.hpp"

#include <algorithm>

namespace routesolve::search {

WorkerPool::WorkerPool(unsigned workers)
    : workers_(std::max(1u, workers)), start_(static_cast<std::ptrdiff_t>(workers_)),
      done_(static_cast<std::ptrdiff_t>(workers_)) {
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
