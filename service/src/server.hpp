#pragma once
// The HTTP side of the service (Boost.Beast): the listener, one session per connection, the
// access log and graceful shutdown. Work that takes time goes to the worker pool.

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "endpoints.hpp"
#include "worker_pool.hpp"

namespace routesolve::service {

/// What the sessions share.
struct ServerState {
  ServerState(Context c, WorkerPool& p) : context(std::move(c)), pool(p) {}
  Context context;
  WorkerPool& pool;
  std::atomic<bool> stopping{false};
  std::atomic<std::size_t> active{0};  ///< requests received and not yet answered
  std::mutex log_mutex;
};

/// Which endpoint a request is for ("solve", "table", "matrix", "health", "metrics", "other").
std::string endpoint_of(const std::string& method, const std::string& path);

/// Listens on host:port and serves until SIGTERM/SIGINT; then drains and returns.
void serve_http(ServerState& state, const std::function<void(unsigned short)>& on_listening);

}  // namespace routesolve::service
