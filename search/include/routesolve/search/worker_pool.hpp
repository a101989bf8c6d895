#pragma once
// A fixed set of threads that run the same function over a range of items, each thread a fixed
// slice, the caller taking the first: the host side of chains in lockstep (every chain's ruin,
// bookkeeping and descent in parallel between two batched pricing calls), and of chains on
// threads (one pool run per epoch of 64 steps or more, about a millisecond early in a search). Two
// barrier waits per call; no allocation after construction.
//
// The barrier polls before it sleeps: a thread asleep in the kernel takes tens of microseconds
// to wake (more on a virtual machine, whose idle processor halts), the time of several
// ruin-and-recreate steps. It polls with a pause a few hundred times, then polls yielding the
// core (where threads outnumber cores, the thread that the others wait for runs first) for 1-2 ms
// in all, which bridges the usual difference between two chains' epochs; a longer wait sleeps.
// Costs per call: docs/BENCHMARKS.md, "The worker pool"; the history: docs/EXPERIMENTS.md.

#include <atomic>
#include <cstddef>
#include <functional>
#include <thread>
#include <vector>

namespace routesolve::search {

/// A reusable barrier for a fixed number of threads that polls a while before it sleeps.
class SpinBarrier {
 public:
  explicit SpinBarrier(unsigned threads) : threads_(threads) {}
  void arrive_and_wait();

 private:
  unsigned threads_;
  std::atomic<unsigned> arrived_{0};
  std::atomic<unsigned> generation_{0};
};

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
  SpinBarrier start_, done_;
  std::vector<std::thread> threads_;
  const std::function<void(std::size_t)>* job_ = nullptr;
  std::size_t items_ = 0;
  bool stop_ = false;
};

}  // namespace routesolve::search
