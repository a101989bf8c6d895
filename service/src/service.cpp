// run_service: the networks loaded in the background, the worker pool, the HTTP loop; the
// pool is drained before the loop's objects go away.

#include <fmt/core.h>

#include <algorithm>
#include <thread>

#include "networks.hpp"
#include "routesolve/error.hpp"
#include "server.hpp"
#include "worker_pool.hpp"

namespace routesolve::service {

int run_service(const ServiceOptions& options,
                const std::function<void(unsigned short)>& on_listening) {
  ServiceOptions o = options;
  if (o.workers == 0) o.workers = std::max(1u, std::thread::hardware_concurrency());
  if (o.max_time_limit_s < 0) throw invalid_input("--max-time-limit", "must not be negative");
  (void)parse_backend(o.backend);
  Networks networks(o.networks, parse_backend(o.matrix_backend), o.device, o.solve_threads,
                    o.max_snap_m);
  Metrics metrics;
  // A solve without a time limit (the fixed work) is stopped a second after --max-time-limit.
  WorkerPool pool(o.workers, o.queue, o.max_time_limit_s > 0 ? o.max_time_limit_s + 1.0 : 0.0);
  ServerState state(Context{o, networks, metrics}, pool);
  std::thread loader([&networks] {
    networks.load();
    if (!networks.error().empty())
      fmt::print(stderr, "{{\"event\":\"networks_failed\",\"error\":{}}}\n",
                 json_string(networks.error()));
    else
      fmt::print(stderr, "{{\"event\":\"ready\",\"networks\":{}}}\n", networks.specs().size());
  });
  try {
    serve_http(state, on_listening);
  } catch (...) {
    pool.stop_all();
    pool.join();
    loader.join();
    throw;
  }
  pool.stop_all();
  pool.join();
  loader.join();
  return 0;
}

}  // namespace routesolve::service
