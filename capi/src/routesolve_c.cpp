// The C API over routesolve::solve, validate and the matrix providers. Every entry point catches
// everything: no C++ exception crosses the boundary.

#include "routesolve/routesolve_c.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "routesolve/capi/embedding.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "routesolve/validator.hpp"
#include "routesolve/version.hpp"

struct rs_cancel {
  std::atomic<bool> flag{false};
};

namespace {

using routesolve::Error;
using routesolve::ErrorCode;

char* copy_out(const std::string& text) {
  char* out = static_cast<char*>(std::malloc(text.size() + 1));
  if (out == nullptr) throw std::bad_alloc();
  std::memcpy(out, text.c_str(), text.size() + 1);
  return out;
}

rs_status status_of(ErrorCode code) {
  switch (code) {
    case ErrorCode::InvalidInput:
      return RS_INVALID_INPUT;
    case ErrorCode::Infeasible:
      return RS_INFEASIBLE;
    case ErrorCode::OutOfMemory:
      return RS_OUT_OF_MEMORY;
    case ErrorCode::Device:
      return RS_DEVICE;
    case ErrorCode::Unsupported:
      return RS_UNSUPPORTED;
    case ErrorCode::Internal:
      return RS_INTERNAL;
  }
  return RS_INTERNAL;
}

/// Runs `body`; turns every exception into a status and, when asked for, a message.
template <class Body>
rs_status guarded(char** error_message, Body&& body) noexcept {
  if (error_message != nullptr) *error_message = nullptr;
  auto fail = [&](rs_status status, const char* message) {
    if (error_message != nullptr) {
      try {
        *error_message = copy_out(message);
      } catch (...) {
        *error_message = nullptr;
      }
    }
    return status;
  };
  try {
    body();
    return RS_OK;
  } catch (const Error& e) {
    return fail(status_of(e.code()), e.what());
  } catch (const std::bad_alloc&) {
    return fail(RS_OUT_OF_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    return fail(RS_INTERNAL, e.what());
  } catch (...) {
    return fail(RS_INTERNAL, "unknown error");
  }
}

/// The options a caller filled, read only up to what its struct_size covers.
rs_options read_options(const rs_options* given) {
  rs_options o;
  rs_options_init(&o);
  if (given != nullptr) {
    const std::size_t size = given->struct_size == 0 ? sizeof(rs_options) : given->struct_size;
    std::memcpy(&o, given, size < sizeof(rs_options) ? size : sizeof(rs_options));
    o.struct_size = sizeof(rs_options);
  }
  return o;
}

routesolve::capi::EmbedOptions embed_options(const rs_options& o) {
  routesolve::capi::EmbedOptions e;
  e.backend = o.backend != nullptr ? o.backend : "auto";
  e.matrix_engine = o.matrix_engine != nullptr ? o.matrix_engine : "";
  e.network = o.network != nullptr ? o.network : "";
  e.objective = o.objective != nullptr ? o.objective : "cost";
  e.time_limit_s = o.time_limit_s;
  e.iterations = o.iterations;
  e.seed = o.seed;
  e.threads = o.threads;
  e.chains = o.chains;
  e.device = o.device;
  e.check = o.check != 0;
  e.timeline = o.timeline != nullptr ? o.timeline : "";
  return e;
}

void require(const char* text, const char* what) {
  if (text == nullptr) throw routesolve::invalid_input(what, "NULL given");
}

}  // namespace

extern "C" {

const char* rs_version(void) { return ROUTESOLVE_VERSION_STRING; }

void rs_options_init(rs_options* options) {
  if (options == nullptr) return;
  *options = rs_options{};
  options->struct_size = sizeof(rs_options);
  options->seed = 1;
  options->threads = 1;
}

rs_status rs_solve_json(const char* problem_json, const rs_options* options, char** solution_json,
                        char** error_message) {
  if (solution_json != nullptr) *solution_json = nullptr;
  return guarded(error_message, [&] {
    require(problem_json, "problem_json");
    if (solution_json == nullptr) throw routesolve::invalid_input("solution_json", "NULL given");
    const rs_options o = read_options(options);
    const auto embed = embed_options(o);
    routesolve::SolveOptions solve = routesolve::capi::solve_options(embed);
    if (o.cancel != nullptr) solve.stop = &o.cancel->flag;
    routesolve::dispatch::SolveRun run;
    if (o.progress != nullptr)
      run.before_solve = [fn = o.progress, user = o.progress_user](
                             const routesolve::Problem& problem, routesolve::SolveOptions& so) {
        so.on_progress = [fn, user, scale = problem.cost_scale()](const routesolve::Progress& p) {
          fn(user, p.elapsed_s, p.fraction, static_cast<double>(p.best_cost) / scale, p.best_routes,
             p.unassigned);
        };
      };
    const auto out =
        routesolve::capi::solve_json(problem_json, "problem", embed, std::move(solve), run);
    *solution_json = copy_out(routesolve::io::vroom_solution_to_string(*out.problem, out.solution));
  });
}

rs_status rs_validate_json(const char* problem_json, const char* solution_json,
                           const rs_options* options, char** report_json, char** error_message) {
  if (report_json != nullptr) *report_json = nullptr;
  return guarded(error_message, [&] {
    require(problem_json, "problem_json");
    require(solution_json, "solution_json");
    if (report_json == nullptr) throw routesolve::invalid_input("report_json", "NULL given");
    const auto embed = embed_options(read_options(options));
    auto problem = routesolve::capi::problem_from_json(problem_json, "problem", embed);
    const routesolve::Solution solution =
        routesolve::io::parse_vroom_solution(solution_json, "solution", *problem);
    const routesolve::ValidationReport report = routesolve::validate(*problem, solution);
    *report_json = copy_out(routesolve::capi::report_to_json(report));
  });
}

rs_status rs_matrix(const char* points_json, const rs_options* options, char** matrices_json,
                    char** error_message) {
  if (matrices_json != nullptr) *matrices_json = nullptr;
  return guarded(error_message, [&] {
    require(points_json, "points_json");
    if (matrices_json == nullptr) throw routesolve::invalid_input("matrices_json", "NULL given");
    const auto embed = embed_options(read_options(options));
    const auto points = routesolve::capi::points_from_json(points_json, "points");
    const auto m = routesolve::capi::travel_matrices(points, embed);
    *matrices_json = copy_out(routesolve::capi::matrices_to_json(m));
  });
}

void rs_free(char* text) { std::free(text); }

rs_cancel* rs_cancel_create(void) { return new (std::nothrow) rs_cancel; }
void rs_cancel_request(rs_cancel* cancel) {
  if (cancel != nullptr) cancel->flag.store(true);
}
int rs_cancel_requested(const rs_cancel* cancel) {
  return cancel != nullptr && cancel->flag.load() ? 1 : 0;
}
void rs_cancel_reset(rs_cancel* cancel) {
  if (cancel != nullptr) cancel->flag.store(false);
}
void rs_cancel_destroy(rs_cancel* cancel) { delete cancel; }

const char* rs_status_name(rs_status status) {
  switch (status) {
    case RS_OK:
      return "ok";
    case RS_INVALID_INPUT:
      return "invalid input";
    case RS_INFEASIBLE:
      return "infeasible";
    case RS_OUT_OF_MEMORY:
      return "out of memory";
    case RS_DEVICE:
      return "device";
    case RS_UNSUPPORTED:
      return "unsupported";
    case RS_INTERNAL:
      return "internal";
  }
  return "unknown";
}

}  // extern "C"
