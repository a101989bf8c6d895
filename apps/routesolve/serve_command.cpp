// `routesolve serve`: the HTTP routing service (service/, docs/SERVICE.md). Parses the flags only.

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "cli_common.hpp"
#include "routesolve/service/service.hpp"

namespace routesolve::app {

void add_serve_command(CLI::App& app, int* exit_status) {
  struct Args {
    service::ServiceOptions options;
    std::vector<std::string> networks;
    bool no_access_log = false;
  };
  auto args = std::make_shared<Args>();
  service::ServiceOptions& o = args->options;
  auto* cmd = app.add_subcommand(
      "serve", "HTTP routing service: VROOM's POST /, OSRM's /table, /matrix, /health, /metrics");
  cmd->add_option("--port", o.port, "TCP port (0: any free port, printed on stderr)")
      ->capture_default_str();
  cmd->add_option("--host", o.host, "Address to listen on (loopback unless told otherwise)")
      ->capture_default_str();
  cmd->add_option("--network", args->networks,
                  "Road network NAME=FILE (or FILE), repeatable; the first is the default, "
                  "?network=NAME picks one");
  cmd->add_option("--workers", o.workers,
                  "Worker threads for solves and matrices (0: the hardware threads)")
      ->capture_default_str();
  cmd->add_option("--queue", o.queue,
                  "Requests that may wait for a worker; beyond: 503 with Retry-After")
      ->capture_default_str();
  cmd->add_option("--max-body", o.max_body, "Largest request body in bytes (larger: 413, unread)")
      ->capture_default_str();
  cmd->add_option("--max-time-limit", o.max_time_limit_s,
                  "Cap of a solve's time limit in seconds (0: none)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--max-locations", o.max_locations,
                  "Most points of one /table or /matrix request")
      ->capture_default_str();
  cmd->add_option("--backend", o.backend, "Search backend")
      ->check(CLI::IsMember(backend_names()))
      ->capture_default_str();
  cmd->add_option("--matrix-engine,--matrix-backend", o.matrix_backend,
                  "Matrix engine on a road network")
      ->check(CLI::IsMember(backend_names()))
      ->capture_default_str();
  cmd->add_option("--threads", o.solve_threads, "Threads of one solve or matrix")
      ->check(CLI::Range(1u, 1024u))
      ->capture_default_str();
  cmd->add_option("--device", o.device, "CUDA device index")
      ->check(CLI::Range(0, 1023))
      ->capture_default_str();
  cmd->add_option("--max-snap", o.max_snap_m, "Farthest a point may be from its road, metres")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--read-timeout", o.read_timeout_s,
                  "Seconds a client has to send a whole request")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--write-timeout", o.write_timeout_s,
                  "Seconds a client has to take a whole answer")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--idle-timeout", o.idle_timeout_s,
                  "Seconds an idle keep-alive connection stays open")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--io-threads", o.io_threads, "Threads running the HTTP connections")
      ->check(CLI::Range(1u, 64u))
      ->capture_default_str();
  cmd->add_flag("--no-access-log", args->no_access_log,
                "No JSON access log line per request on stderr");
  cmd->callback([args, exit_status] {
    args->options.access_log = !args->no_access_log;
    for (const std::string& n : args->networks)
      args->options.networks.push_back(service::parse_network_spec(n));
    *exit_status = service::run_service(args->options);
  });
}

}  // namespace routesolve::app
