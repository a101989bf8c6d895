/* routesolve's C API: a small, stable ABI for any language with a C FFI (C, Java, Go, C#, Python
 * ctypes...). JSON in, JSON out: problems are VROOM-style JSON documents, solutions are VROOM
 * output JSON, exactly what the `routesolve` tool reads and writes.
 *
 * Rules:
 *  - every function returns an rs_status (RS_OK = 0) or a value; none throws or aborts;
 *  - a string the library returns (solution, report, error message) is owned by the caller and
 *    freed with rs_free(); an error message, when asked for, names the JSON path and field;
 *  - every function may be called from several threads at once on different arguments;
 *    rs_cancel_request() may be called from any thread while a solve runs with that handle.
 *
 * Link: find_package(routesolve CONFIG) and target_link_libraries(app routesolve::c), or
 * -lroutesolve_c. */
#ifndef ROUTESOLVE_ROUTESOLVE_C_H
#define ROUTESOLVE_ROUTESOLVE_C_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define RS_API __declspec(dllexport)
#else
#define RS_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** Status of a call: the error codes of the C++ API (routesolve::ErrorCode), plus RS_OK. */
typedef enum rs_status {
  RS_OK = 0,
  RS_INVALID_INPUT = 1, /**< malformed or inconsistent input; the message names path and field */
  RS_INFEASIBLE = 2,    /**< the problem admits no solution under the requested rules */
  RS_OUT_OF_MEMORY = 3, /**< host or device allocation failed */
  RS_DEVICE = 4,        /**< CUDA device missing or failing where one was required */
  RS_UNSUPPORTED = 5,   /**< a valid feature this build or backend does not provide */
  RS_INTERNAL = 6       /**< a bug in routesolve */
} rs_status;

/** A cancellation handle: create it, pass it in rs_options.cancel, and call rs_cancel_request()
 * from any thread to stop the solves using it; they return RS_OK with the best solution found so
 * far. Destroy it only once no solve uses it. */
typedef struct rs_cancel rs_cancel;

/** Called on the solving thread from time to time (at least once, after the construction).
 * best_cost is in the problem's cost units. Must not call back into a solve with the same handle.
 */
typedef void (*rs_progress_fn)(void* user, double elapsed_s, double fraction, double best_cost,
                               size_t routes, size_t unassigned);

/** Solve and matrix options. Always initialise with rs_options_init(): fields added in later
 * versions go at the end and struct_size tells the library which ones the caller knows. */
typedef struct rs_options {
  uint32_t struct_size;  /**< sizeof(rs_options), set by rs_options_init */
  const char* backend;   /**< a name --backend takes (docs/CLI.md); NULL: "auto" */
  double time_limit_s;   /**< 0: a fixed amount of work (iterations) instead */
  uint64_t iterations;   /**< search iterations per chain; 0: the default (1,000 without a limit) */
  uint64_t seed;         /**< default 1 */
  uint32_t threads;      /**< default 1 */
  uint32_t chains;       /**< 0: one per thread */
  const char* objective; /**< "cost" (NULL) or "vehicles-then-cost" */
  const char* network;   /**< road network file (.rsnet, .osm.pbf, .gr...) for a problem or
                              points given as coordinates; NULL: great-circle at 50 km/h */
  int32_t device;        /**< CUDA device index, default 0 */
  rs_cancel* cancel;     /**< NULL or a cancellation handle */
  rs_progress_fn progress; /**< NULL or a progress callback */
  void* progress_user;     /**< passed to progress */
  /** Plan mode (VROOM's -c): nonzero makes rs_solve_json take every vehicle's `steps` as its
   *  whole route and report what the plan breaks in VROOM's `violations` (per step, route and
   *  summary) instead of solving; a plan with violations is still RS_OK. */
  int32_t check;
  /** The matrix engine on a road network: "auto", "cpu", "cuda-host" or "cuda"; NULL: as
   *  backend. */
  const char* matrix_engine;
  /** The reported times: "vroom" (NULL: the problem's "options": {"timeline"}, else VROOM's: the
   *  earliest end, every step as late as it allows) or "earliest" (an extension: every step at its
   *  earliest instant from the shift start). The routes do not depend on it. */
  const char* timeline;
} rs_options;

/** The library's version, "major.minor.patch" (static storage, never freed). */
RS_API const char* rs_version(void);

/** Fills *options with the defaults. */
RS_API void rs_options_init(rs_options* options);

/** Solves a VROOM-style JSON problem. On RS_OK, *solution_json gets the VROOM output JSON (the
 * solution has passed the validator). On failure, *error_message (when error_message is not
 * NULL) gets the message, e.g. "problem: vehicles[1].capacity[0]: expected a non-negative
 * integer, got -3". options may be NULL (the defaults). */
RS_API rs_status rs_solve_json(const char* problem_json, const rs_options* options,
                               char** solution_json, char** error_message);

/** Validates a VROOM output JSON solution against a problem. On RS_OK, *report_json gets
 * {"ok": bool, "violations": [{"where": ..., "kind": ..., "message": ...}]}: a solution with
 * violations is still RS_OK (the call worked); errors are for unreadable input. */
RS_API rs_status rs_validate_json(const char* problem_json, const char* solution_json,
                                  const rs_options* options, char** report_json,
                                  char** error_message);

/** Travel matrices between points given as a JSON array of [lon, lat]: on the road network of
 * options->network (engine chosen by options->backend), else great-circle. *matrices_json gets
 * {"matrices": {"car": {"durations": [[...]], "distances": [[...]]}}} (seconds, metres; the
 * `routesolve matrix` format, 2147483647 for a pair without a road path). */
RS_API rs_status rs_matrix(const char* points_json, const rs_options* options, char** matrices_json,
                           char** error_message);

/** Frees a string the library returned (NULL is fine). */
RS_API void rs_free(char* text);

/** Cancellation handles. rs_cancel_create returns NULL only when out of memory. */
RS_API rs_cancel* rs_cancel_create(void);
RS_API void rs_cancel_request(rs_cancel* cancel);
RS_API int rs_cancel_requested(const rs_cancel* cancel);
RS_API void rs_cancel_reset(rs_cancel* cancel);
RS_API void rs_cancel_destroy(rs_cancel* cancel);

/** "ok", "invalid input", "infeasible", ... (static storage). */
RS_API const char* rs_status_name(rs_status status);

#ifdef __cplusplus
}
#endif

#endif /* ROUTESOLVE_ROUTESOLVE_C_H */
