/* The C API called from C, as another language's FFI would: solve, validate, matrices, errors,
 * cancellation from another thread, progress. Plain C11 with pthreads; exits 1 on the first
 * failed check. */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "routesolve/routesolve_c.h"
#include "routesolve/version.hpp"

static int failures = 0;
#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* n jobs on a grid around Vaduz, coordinates only (great-circle matrices), 1 + n / 10 vehicles. */
static char* grid_problem(int n) {
  size_t size = 256 + (size_t)n * 160;
  char* text = malloc(size);
  size_t at = 0;
  at += (size_t)snprintf(text + at, size - at, "{\"vehicles\": [");
  for (int v = 0; v <= n / 10; ++v)
    at += (size_t)snprintf(text + at, size - at,
                           "%s{\"id\": %d, \"start\": [9.52, 47.14], \"end\": [9.52, 47.14], "
                           "\"capacity\": [12]}",
                           v ? ", " : "", v + 1);
  at += (size_t)snprintf(text + at, size - at, "], \"jobs\": [");
  for (int j = 0; j < n; ++j)
    at += (size_t)snprintf(text + at, size - at,
                           "%s{\"id\": %d, \"location\": [%.4f, %.4f], \"delivery\": [1]}",
                           j ? ", " : "", j + 1, 9.45 + 0.004 * (j % 37), 47.05 + 0.003 * (j / 37));
  snprintf(text + at, size - at, "]}");
  return text;
}

static const char* kSmall =
    "{\"vehicles\": [{\"id\": 1, \"start_index\": 0, \"end_index\": 0, \"capacity\": [4]}],"
    " \"jobs\": [{\"id\": 1, \"location_index\": 1, \"delivery\": [1]},"
    "            {\"id\": 2, \"location_index\": 2, \"delivery\": [1]}],"
    " \"matrices\": {\"car\": {\"durations\": [[0, 100, 200], [100, 0, 150], [200, 150, 0]]}}}";

/* A plan (every vehicle's steps its whole route) that overloads the vehicle and serves job 2 late.
 */
static const char* kPlan =
    "{\"vehicles\": [{\"id\": 1, \"start_index\": 0, \"end_index\": 0, \"capacity\": [1],"
    "  \"steps\": [{\"type\": \"start\"}, {\"type\": \"job\", \"id\": 1}, {\"type\": \"job\", "
    "\"id\": 2},"
    "             {\"type\": \"end\"}]}],"
    " \"jobs\": [{\"id\": 1, \"location_index\": 1, \"delivery\": [1]},"
    "            {\"id\": 2, \"location_index\": 2, \"delivery\": [1], \"time_windows\": [[0, "
    "200]]},"
    "            {\"id\": 3, \"location_index\": 2}],"
    " \"matrices\": {\"car\": {\"durations\": [[0, 100, 200], [100, 0, 150], [200, 150, 0]]}}}";

struct canceller {
  rs_cancel* cancel;
  double after_s;
};

static void* cancel_later(void* arg) {
  struct canceller* c = arg;
  struct timespec wait = {0, (long)(c->after_s * 1e9)};
  nanosleep(&wait, NULL);
  rs_cancel_request(c->cancel);
  return NULL;
}

static void count_progress(void* user, double elapsed_s, double fraction, double best_cost,
                           size_t routes, size_t unassigned) {
  (void)elapsed_s, (void)fraction, (void)best_cost, (void)routes, (void)unassigned;
  ++*(int*)user;
}

int main(void) {
  CHECK(strcmp(rs_version(), ROUTESOLVE_VERSION_STRING) == 0);

  /* A solve, its validation, and the options' defaults. */
  rs_options o;
  rs_options_init(&o);
  CHECK(o.struct_size == sizeof(rs_options) && o.seed == 1 && o.threads == 1);
  o.backend = "cpu";
  int reports = 0;
  o.progress = count_progress;
  o.progress_user = &reports;
  char* solution = NULL;
  char* error = NULL;
  CHECK(rs_solve_json(kSmall, &o, &solution, &error) == RS_OK);
  CHECK(error == NULL && solution != NULL);
  CHECK(reports >= 1);
  if (solution != NULL) {
    CHECK(strstr(solution, "\"routes\"") != NULL);
    CHECK(strstr(solution, "\"cost\":450") != NULL || strstr(solution, "\"cost\": 450") != NULL);
    char* report = NULL;
    CHECK(rs_validate_json(kSmall, solution, NULL, &report, &error) == RS_OK);
    CHECK(report != NULL && strstr(report, "\"ok\":true") != NULL);
    rs_free(report);
  }
  rs_free(solution);

  /* A solution that breaks the capacity is reported, not an error. */
  const char* overloaded =
      "{\"code\": 0, \"summary\": {\"cost\": 0, \"routes\": 1, \"unassigned\": 0}, \"unassigned\": "
      "[],"
      " \"routes\": [{\"vehicle\": 1, \"steps\": [{\"type\": \"start\"}, {\"type\": \"job\", "
      "\"id\": 1},"
      " {\"type\": \"end\"}]}]}";
  char* report = NULL;
  CHECK(rs_validate_json(kSmall, overloaded, NULL, &report, &error) == RS_OK);
  CHECK(report != NULL && strstr(report, "\"ok\":false") != NULL);
  rs_free(report);

  /* Bad input: the code and a message naming the JSON path and field. */
  const char* bad = "{\"vehicles\": [{\"id\": 1, \"capacity\": [-3]}], \"jobs\": []}";
  solution = NULL;
  CHECK(rs_solve_json(bad, NULL, &solution, &error) == RS_INVALID_INPUT);
  CHECK(solution == NULL);
  CHECK(error != NULL && strstr(error, "vehicles[0].capacity") != NULL);
  rs_free(error);
  error = NULL;
  CHECK(rs_solve_json("{not json", NULL, &solution, &error) == RS_INVALID_INPUT);
  rs_free(error);
  CHECK(rs_solve_json(NULL, NULL, &solution, NULL) == RS_INVALID_INPUT);
  o.backend = "gpu-please";
  CHECK(rs_solve_json(kSmall, &o, &solution, &error) == RS_INVALID_INPUT);
  rs_free(error);
  CHECK(strcmp(rs_status_name(RS_INVALID_INPUT), "invalid input") == 0);

  /* Plan mode: the steps are checked, not solved; violations are reported with RS_OK. */
  rs_options_init(&o);
  CHECK(o.check == 0);
  o.check = 1;
  solution = NULL;
  CHECK(rs_solve_json(kPlan, &o, &solution, &error) == RS_OK);
  if (solution != NULL) {
    CHECK(strstr(solution, "\"violations\":[{\"cause\":\"load\"") != NULL);
    CHECK(strstr(solution, "{\"cause\":\"delay\",\"duration\":50}") != NULL);
    CHECK(strstr(solution, "\"unassigned\":[{\"id\":3") != NULL); /* in no vehicle's steps */
    report = NULL;
    CHECK(rs_validate_json(kPlan, solution, NULL, &report, &error) == RS_OK);
    CHECK(report != NULL &&
          strstr(report, "\"ok\":false") != NULL); /* the validator agrees: it breaks rules */
    rs_free(report);
  }
  rs_free(solution);
  /* A caller compiled before `check` existed (a smaller struct_size) solves as before. */
  o.struct_size = (uint32_t)offsetof(rs_options, check);
  solution = NULL;
  CHECK(rs_solve_json(kSmall, &o, &solution, &error) == RS_OK);
  CHECK(solution != NULL && strstr(solution, "\"violations\":[]") != NULL);
  rs_free(solution);

  /* The timeline: one job 107 s away with window [1000, 2000]. VROOM's (the default) leaves at 893
     and does not wait; "earliest" leaves at 0 and waits 893 at the job. */
  const char* windowed =
      "{\"vehicles\": [{\"id\": 1, \"start_index\": 0, \"end_index\": 0}],"
      " \"jobs\": [{\"id\": 10, \"location_index\": 1, \"time_windows\": [[1000, 2000]]}],"
      " \"matrices\": {\"car\": {\"durations\": [[0, 107], [107, 0]]}}}";
  rs_options_init(&o);
  CHECK(o.timeline == NULL);
  solution = NULL;
  CHECK(rs_solve_json(windowed, &o, &solution, &error) == RS_OK);
  CHECK(solution != NULL && strstr(solution, "\"arrival\":893") != NULL);
  CHECK(solution != NULL && strstr(solution, "\"waiting_time\":893") == NULL);
  rs_free(solution);
  o.timeline = "earliest";
  solution = NULL;
  CHECK(rs_solve_json(windowed, &o, &solution, &error) == RS_OK);
  CHECK(solution != NULL && strstr(solution, "\"waiting_time\":893") != NULL);
  CHECK(solution != NULL && strstr(solution, "\"arrival\":893") == NULL);
  rs_free(solution);
  o.timeline = "latest";
  CHECK(rs_solve_json(windowed, &o, &solution, &error) == RS_INVALID_INPUT);
  CHECK(error != NULL && strstr(error, "timeline") != NULL);
  rs_free(error);
  error = NULL;
  /* A caller compiled before `timeline` existed gets VROOM's. */
  o.struct_size = (uint32_t)offsetof(rs_options, timeline);
  solution = NULL;
  CHECK(rs_solve_json(windowed, &o, &solution, &error) == RS_OK);
  CHECK(solution != NULL && strstr(solution, "\"arrival\":893") != NULL);
  rs_free(solution);

  /* Matrices: great-circle between three points. */
  char* matrices = NULL;
  CHECK(rs_matrix("[[9.52, 47.14], [9.50, 47.23], [9.55, 47.17]]", NULL, &matrices, &error) ==
        RS_OK);
  CHECK(matrices != NULL && strstr(matrices, "\"durations\":[[0,") != NULL);
  rs_free(matrices);
  CHECK(rs_matrix("[[9.52]]", NULL, &matrices, &error) == RS_INVALID_INPUT);
  CHECK(error != NULL && strstr(error, "points[0]") != NULL);
  rs_free(error);

  /* Cancellation from another thread: a solve given a fixed amount of work far beyond a test's
     patience (no time limit) stops with a valid solution. Returning at all is the cancellation (a
     solve that ignored it would run into ctest's timeout); no clock is asserted on. */
  char* big = grid_problem(300);
  rs_options_init(&o);
  o.backend = "cpu";
  o.time_limit_s = 0.0;
  o.iterations = 1000000000u;
  o.cancel = rs_cancel_create();
  CHECK(o.cancel != NULL && !rs_cancel_requested(o.cancel));
  struct canceller c = {o.cancel, 0.5};
  pthread_t thread;
  pthread_create(&thread, NULL, cancel_later, &c);
  const double t0 = now_s();
  solution = NULL;
  CHECK(rs_solve_json(big, &o, &solution, &error) == RS_OK);
  const double seconds = now_s() - t0;
  pthread_join(thread, NULL);
  CHECK(rs_cancel_requested(o.cancel));
  if (solution != NULL) {
    report = NULL;
    CHECK(rs_validate_json(big, solution, NULL, &report, &error) == RS_OK);
    CHECK(report != NULL && strstr(report, "\"ok\":true") != NULL);
    rs_free(report);
  }
  rs_free(solution);
  rs_cancel_reset(o.cancel);
  CHECK(!rs_cancel_requested(o.cancel));
  rs_cancel_destroy(o.cancel);
  free(big);

  if (failures == 0)
    printf("c_api_test: all checks passed (cancelled solve returned after %.2f s)\n", seconds);
  return failures == 0 ? 0 : 1;
}
