// routesolve: the batch tool. Thin main: each subcommand lives in its own file.
//   routesolve solve INPUT [-o OUT] ...          one fleet file
//   routesolve batch INPUT... --out-dir DIR ...  many fleet files or folders, with a summary
//   routesolve validate INPUT SOLUTION           check a solution, print each violation
//   routesolve reoptimise PROBLEM PLAN --now T   re-optimise a plan under way
//   routesolve network build|info, matrix        road networks and travel matrices
//   routesolve device-check                      self-test of every CUDA device
//   routesolve serve --port P --network NAME=FILE  the HTTP routing service
// Under mpirun, batch, matrix and solve --decompose spread their work over the ranks
// (docs/SCALING.md).

#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <exception>
#include <new>
#include <string>

#include "cli_common.hpp"
#include "routesolve/distributed/world.hpp"
#include "routesolve/error.hpp"

namespace {

/// An error on one rank under mpirun ends every rank (the others may wait in a collective).
int fail(int rc) {
  routesolve::distributed::abort_world(rc);
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace routesolve;
  // MPI only when started by mpirun (distributed/world.hpp); a plain process otherwise.
  const distributed::Session mpi(&argc, &argv);
  CLI::App app{"routesolve: fleet route optimization (CPU and CUDA backends)", "routesolve"};
  app.set_version_flag("--version", std::string("routesolve 0.1.0"));
  app.require_subcommand(1);

  int exit_status = 0;
  app::add_fleet_commands(app, &exit_status);
  app::add_network_commands(app, &exit_status);
  app::add_matrix_command(app, &exit_status);
  app::add_generate_command(app, &exit_status);
  app::add_device_check_command(app, &exit_status);
  app::add_serve_command(app, &exit_status);
  app::add_reoptimise_command(app, &exit_status);
  app::install_signal_handlers();

  try {
    app.parse(argc, argv);  // runs the chosen subcommand's callback
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : fail(2);
  } catch (const Error& e) {
    fmt::print(stderr, "error ({}): {}\n", to_string(e.code()), e.what());
    return fail(exit_code(e.code()));
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "error (out of memory)\n");
    return fail(exit_code(ErrorCode::OutOfMemory));
  } catch (const std::exception& e) {
    fmt::print(stderr, "error (internal): {}\n", e.what());
    return fail(1);
  }
  distributed::set_exit_status(exit_status);  // should MPI_Finalize hang after a rank was lost
  return exit_status;
}
