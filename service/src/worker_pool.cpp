#include "worker_pool.hpp"

#include <algorithm>

namespace routesolve::service {

WorkerPool::WorkerPool(unsigned workers, std::size_t queue, double max_run_s)
    : capacity_(queue), max_run_s_(max_run_s) {
  if (workers == 0) workers = 1;
  for (unsigned i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
  watchdog_ = std::thread([this] { watch(); });
}

WorkerPool::~WorkerPool() { join(); }

bool WorkerPool::submit(std::shared_ptr<Job> job) {
  {
    const std::lock_guard lock(mutex_);
    if (closing_) return false;
    // Free workers take queued jobs at once, so the queue only holds what waits.
    const std::size_t free_workers = threads_.size() - running_.size();
    if (queue_.size() >= capacity_ + free_workers) return false;
    if (stopping_) job->stop = true;
    queue_.push_back(std::move(job));
  }
  ready_.notify_one();
  return true;
}

void WorkerPool::stop_all() {
  const std::lock_guard lock(mutex_);
  stopping_ = true;
  for (const auto& job : queue_) job->stop = true;
  for (const auto& job : running_) job->stop = true;
}

void WorkerPool::join() {
  {
    std::unique_lock lock(mutex_);
    if (closing_ && threads_.empty()) return;
    idle_.wait(lock, [this] { return queue_.empty() && running_.empty(); });
    closing_ = true;
  }
  ready_.notify_all();
  idle_.notify_all();
  for (auto& t : threads_) t.join();
  threads_.clear();
  if (watchdog_.joinable()) watchdog_.join();
}

std::size_t WorkerPool::queued() const {
  const std::lock_guard lock(mutex_);
  return queue_.size();
}

std::size_t WorkerPool::busy() const {
  const std::lock_guard lock(mutex_);
  return running_.size();
}

void WorkerPool::work() {
  for (;;) {
    std::shared_ptr<Job> job;
    {
      std::unique_lock lock(mutex_);
      ready_.wait(lock, [this] { return closing_ || !queue_.empty(); });
      if (queue_.empty()) return;  // closing
      job = std::move(queue_.front());
      queue_.pop_front();
      job->started = std::chrono::steady_clock::now();
      running_.push_back(job);
    }
    {
      // The function goes with the run: what it holds (the connection) is not kept by the job.
      const std::function<void(Job&)> run = std::move(job->run);
      run(*job);
    }
    {
      const std::lock_guard lock(mutex_);
      running_.erase(std::find(running_.begin(), running_.end(), job));
    }
    idle_.notify_all();
  }
}

void WorkerPool::watch() {
  std::unique_lock lock(mutex_);
  while (!closing_) {
    idle_.wait_for(lock, std::chrono::milliseconds(50));
    if (max_run_s_ <= 0) continue;
    const auto now = std::chrono::steady_clock::now();
    for (const auto& job : running_) {
      if (!job->stop && std::chrono::duration<double>(now - job->started).count() > max_run_s_) {
        job->stopped_by_limit = true;
        job->stop = true;
      }
    }
  }
}

}  // namespace routesolve::service
