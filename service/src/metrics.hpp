#pragma once
// The service's counters, gauges and latency histograms, written in the Prometheus text format.

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace routesolve::service {

/// A latency histogram with fixed buckets (seconds), thread-safe.
class Histogram {
 public:
  static constexpr std::array<double, 14> kBounds = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
                                                     0.25,  0.5,    1.0,   2.5,  5.0,   10.0, 30.0};
  void observe(double seconds);
  /// The metric's lines (buckets, sum, count) under `name`.
  [[nodiscard]] std::string text(const std::string& name, const std::string& help) const;

 private:
  mutable std::mutex mutex_;
  std::array<std::uint64_t, kBounds.size()> counts_{};
  std::uint64_t count_ = 0;
  double sum_ = 0.0;
};

class Metrics {
 public:
  void count_request(const std::string& endpoint, unsigned status);
  void count_solve(const std::string& backend, bool fell_back);
  Histogram solve_seconds, matrix_seconds;
  std::atomic<std::uint64_t> rejected_queue_full{0}, client_disconnects{0}, stopped_by_limit{0};
  std::atomic<std::uint64_t> connections_open{0};

  /// The whole exposition; the gauges that live elsewhere come as arguments.
  [[nodiscard]] std::string text(std::size_t queue_length, std::size_t workers_busy,
                                 std::size_t workers, bool ready,
                                 const std::string& configured_backend) const;

 private:
  mutable std::mutex mutex_;
  std::map<std::pair<std::string, unsigned>, std::uint64_t> requests_;
  std::map<std::string, std::uint64_t> solves_by_backend_;
  std::uint64_t device_fallbacks_ = 0;
};

}  // namespace routesolve::service
