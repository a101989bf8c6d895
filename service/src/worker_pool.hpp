#pragma once
// A fixed set of worker threads behind a bounded queue. A job carries its own stop flag: the
// client leaving, the service shutting down and the run-time cap (watchdog) all set it, and the
// solve running the job polls it (SolveOptions::stop).

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace routesolve::service {

struct Job {
  std::atomic<bool> stop{false};
  std::atomic<bool> stopped_by_limit{false};
  /// Runs on a worker thread; must not throw (the caller turns errors into responses).
  std::function<void(Job&)> run;
  std::chrono::steady_clock::time_point started{};
};

class WorkerPool {
 public:
  /// `max_run_s` > 0: a job running longer gets its stop flag set (stopped_by_limit too).
  WorkerPool(unsigned workers, std::size_t queue, double max_run_s);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  /// Queues a job; false (nothing queued) when every worker is busy and the queue is full.
  /// After stop_all(), jobs are still taken and run, with their stop flag already set.
  bool submit(std::shared_ptr<Job> job);
  /// Sets the stop flag of every queued and running job, and of every later one.
  void stop_all();
  /// Waits for the queue to empty and the workers to finish, then joins them.
  void join();

  [[nodiscard]] std::size_t queued() const;
  [[nodiscard]] std::size_t busy() const;
  [[nodiscard]] unsigned workers() const noexcept { return static_cast<unsigned>(threads_.size()); }

 private:
  void work();
  void watch();

  std::size_t capacity_;
  double max_run_s_;
  mutable std::mutex mutex_;
  std::condition_variable ready_, idle_;
  std::deque<std::shared_ptr<Job>> queue_;
  std::vector<std::shared_ptr<Job>> running_;
  bool stopping_ = false, closing_ = false;
  std::vector<std::thread> threads_;
  std::thread watchdog_;
};

}  // namespace routesolve::service
