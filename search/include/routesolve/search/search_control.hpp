#pragma once
// Time budget and stop flag of one solve.

#include <atomic>
#include <chrono>

namespace routesolve::search {

class Deadline {
 public:
  Deadline(double limit_s, const std::atomic<bool>* stop)
      : start_(std::chrono::steady_clock::now()), limit_s_(limit_s), stop_(stop) {}

  /// Seconds since the solve started.
  [[nodiscard]] double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  /// True once the stop flag is set or the time limit (if any) is reached.
  [[nodiscard]] bool expired() const {
    if (stop_ && stop_->load(std::memory_order_relaxed)) return true;
    return limit_s_ > 0.0 && elapsed() >= limit_s_;
  }
  [[nodiscard]] double limit() const noexcept { return limit_s_; }
  /// The same clock and stop flag with a limit no later than `limit_s` (a stage's share of the
  /// budget; limit_s <= 0 keeps this one's).
  [[nodiscard]] Deadline sooner(double limit_s) const {
    Deadline d = *this;
    if (limit_s > 0.0 && (d.limit_s_ <= 0.0 || limit_s < d.limit_s_)) d.limit_s_ = limit_s;
    return d;
  }

 private:
  std::chrono::steady_clock::time_point start_;
  double limit_s_;
  const std::atomic<bool>* stop_;
};

}  // namespace routesolve::search
