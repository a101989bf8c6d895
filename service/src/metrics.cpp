#include "metrics.hpp"

#include <fmt/core.h>

namespace routesolve::service {

void Histogram::observe(double seconds) {
  const std::lock_guard lock(mutex_);
  for (std::size_t i = 0; i < kBounds.size(); ++i)
    if (seconds <= kBounds[i]) ++counts_[i];
  ++count_;
  sum_ += seconds;
}

std::string Histogram::text(const std::string& name, const std::string& help) const {
  const std::lock_guard lock(mutex_);
  std::string out = fmt::format("# HELP {0} {1}\n# TYPE {0} histogram\n", name, help);
  for (std::size_t i = 0; i < kBounds.size(); ++i)
    out += fmt::format("{}_bucket{{le=\"{}\"}} {}\n", name, kBounds[i], counts_[i]);
  out += fmt::format("{0}_bucket{{le=\"+Inf\"}} {1}\n{0}_sum {2}\n{0}_count {1}\n", name, count_,
                     sum_);
  return out;
}

void Metrics::count_request(const std::string& endpoint, unsigned status) {
  const std::lock_guard lock(mutex_);
  ++requests_[{endpoint, status}];
}

void Metrics::count_solve(const std::string& backend, bool fell_back) {
  const std::lock_guard lock(mutex_);
  ++solves_by_backend_[backend];
  if (fell_back) ++device_fallbacks_;
}

std::string Metrics::text(std::size_t queue_length, std::size_t workers_busy, std::size_t workers,
                          bool ready, const std::string& configured_backend) const {
  std::string out;
  {
    const std::lock_guard lock(mutex_);
    out +=
        "# HELP routesolve_requests_total Requests answered, by endpoint and HTTP status.\n"
        "# TYPE routesolve_requests_total counter\n";
    for (const auto& [key, n] : requests_)
      out += fmt::format("routesolve_requests_total{{endpoint=\"{}\",status=\"{}\"}} {}\n",
                         key.first, key.second, n);
    out +=
        "# HELP routesolve_solves_total Solves done, by the backend that ran them.\n"
        "# TYPE routesolve_solves_total counter\n";
    for (const auto& [backend, n] : solves_by_backend_)
      out += fmt::format("routesolve_solves_total{{backend=\"{}\"}} {}\n", backend, n);
    out += fmt::format(
        "# HELP routesolve_device_fallbacks_total Solves that left the device they were given.\n"
        "# TYPE routesolve_device_fallbacks_total counter\nroutesolve_device_fallbacks_total {}\n",
        device_fallbacks_);
  }
  out += fmt::format(
      "# HELP routesolve_backend_info The search backend the service was started with.\n"
      "# TYPE routesolve_backend_info gauge\nroutesolve_backend_info{{backend=\"{}\"}} 1\n"
      "# HELP routesolve_ready 1 once the road networks are loaded.\n# TYPE routesolve_ready "
      "gauge\n"
      "routesolve_ready {}\n"
      "# HELP routesolve_queue_length Requests waiting for a worker.\n# TYPE "
      "routesolve_queue_length gauge\n"
      "routesolve_queue_length {}\n"
      "# HELP routesolve_workers_busy Workers running a solve or a matrix.\n# TYPE "
      "routesolve_workers_busy gauge\n"
      "routesolve_workers_busy {}\n"
      "# HELP routesolve_workers Worker threads.\n# TYPE routesolve_workers "
      "gauge\nroutesolve_workers {}\n"
      "# HELP routesolve_connections_open Open client connections.\n# TYPE "
      "routesolve_connections_open gauge\n"
      "routesolve_connections_open {}\n"
      "# HELP routesolve_rejected_total Requests refused with 503 because the queue was full.\n"
      "# TYPE routesolve_rejected_total counter\nroutesolve_rejected_total {}\n"
      "# HELP routesolve_client_disconnects_total Requests whose client left before the answer.\n"
      "# TYPE routesolve_client_disconnects_total counter\nroutesolve_client_disconnects_total {}\n"
      "# HELP routesolve_stopped_by_limit_total Solves stopped at --max-time-limit.\n"
      "# TYPE routesolve_stopped_by_limit_total counter\nroutesolve_stopped_by_limit_total {}\n",
      configured_backend, ready ? 1 : 0, queue_length, workers_busy, workers,
      connections_open.load(), rejected_queue_full.load(), client_disconnects.load(),
      stopped_by_limit.load());
  out += solve_seconds.text("routesolve_solve_seconds",
                            "Time to answer a solve (parse, matrices, search, write).");
  out += matrix_seconds.text("routesolve_matrix_seconds",
                             "Time to answer a /table or /matrix request.");
  return out;
}

}  // namespace routesolve::service
