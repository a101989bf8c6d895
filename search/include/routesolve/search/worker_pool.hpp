#pragma once
// A fixed set of threads that run the same function over a range of items, each thread a fixed
// slice, the caller taking the first: the host side of chains in lockstep (every chain's ruin,
// bookkeeping and descent in parallel between two batched pricing calls). Two barrier waits per
// call; no allocation after construction.

#include <barrier>
#include <cstddef>
#include <functional>
#include <thread>
#include <vector>

namespace routesolve::search {

class WorkerPool {
 public:
  /// `workers` threads in all, the caller included (1: everything on the caller).
  explicit WorkerPool(unsigned workers);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  [[nodiscard]] unsigned workers() const noexcept { return workers_; }

  /// f(i) for every i in [0, items), item i on thread i * workers / items's slice; returns when
  /// all are done. f must not throw (an exception ends the process).
  void run(std::size_t items, const std::function<void(std::size_t)>& f);

 private:
  void slice(unsigned worker);

  unsigned workers_;
  std::barrier<> start_, done_;
  std::vector<std::thread> threads_;
  const std::function<void(std::size_t)>* job_ = nullptr;
  std::size_t items_ = 0;
  bool stop_ = false;
};

}  // namespace routesolve::search
