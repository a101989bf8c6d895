#pragma once
// `routesolve serve`: an HTTP routing service, a drop-in for a VROOM + OSRM stack.
//
//   POST /                       VROOM problem in, VROOM solution out ({"code", "error"} on
//   failure) GET  /table/v1/driving/...   OSRM's table service (durations, distances, snapped
//   locations) POST /matrix                 {"locations": [[lon, lat], ...]}: the `routesolve
//   matrix` output,
//                                JSON, or the binary format with Accept: application/octet-stream
//   GET  /health                 200 once the networks are loaded, 503 before
//   GET  /metrics                Prometheus text format
//
// Solves and matrices run on a bounded worker pool behind a bounded queue (503 + Retry-After
// beyond it); HTTP runs on its own I/O threads. docs/SERVICE.md describes the behaviour.

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace routesolve::service {

/// A road network the service holds, under the name requests use (`?network=NAME`).
struct NetworkSpec {
  std::string name;
  std::string file;
};

/// "NAME=FILE", or "FILE" (named after the file without its extensions). Throws invalid_input.
NetworkSpec parse_network_spec(const std::string& text);

struct ServiceOptions {
  std::string host = "127.0.0.1";
  unsigned short port = 3000;           ///< 0: any free port (reported by on_listening)
  std::vector<NetworkSpec> networks;    ///< the first is the default
  unsigned workers = 0;                 ///< solve/matrix workers; 0: the hardware threads
  std::size_t queue = 16;               ///< requests waiting for a worker, beyond: 503
  std::size_t max_body = 64u << 20;     ///< bytes; larger bodies get 413 unread
  double max_time_limit_s = 30.0;       ///< cap of a solve's time limit (and of its run time)
  std::size_t max_locations = 1000;     ///< points of one /table or /matrix request
  std::string backend = "auto";         ///< search backend: a name of backend_names()
  std::string matrix_backend = "auto";  ///< matrix engine on a road network
  unsigned solve_threads = 1;           ///< threads of one solve (and of one matrix)
  int device = 0;                       ///< CUDA device index
  double max_snap_m = 1000.0;           ///< farthest a point may be from its road
  double read_timeout_s = 10.0;   ///< a whole request (header and body) must arrive within this
  double write_timeout_s = 30.0;  ///< a whole response must be taken within this
  double idle_timeout_s = 30.0;   ///< a keep-alive connection with no request is closed after this
  unsigned io_threads = 2;        ///< threads running the HTTP connections
  unsigned retry_after_s = 1;     ///< the Retry-After of a 503
  bool access_log = true;         ///< one JSON line per request on stderr
};

/// Runs the service until SIGTERM or SIGINT: then it stops accepting, stops the running solves
/// (each answered with its best solution), answers what it holds and returns 0. Loads the
/// networks in the background (GET /health says when they are ready). `on_listening` gets the
/// bound port once the socket listens. Throws Error when it cannot listen.
int run_service(const ServiceOptions& options,
                const std::function<void(unsigned short)>& on_listening = {});

}  // namespace routesolve::service
