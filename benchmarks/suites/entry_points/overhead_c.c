/* The C entry point's overhead: reads a VROOM JSON file, calls rs_solve_json with a progress
 * callback and prints the seconds from the start of main to the first progress report (the
 * first search iteration) and to the return. Built and run by entry_overhead.py. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "routesolve/routesolve_c.h"

static double t0, first = -1;

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void on_progress(void* user, double e, double f, double c, size_t r, size_t u) {
  (void)user, (void)e, (void)f, (void)c, (void)r, (void)u;
  if (first < 0) first = now_s() - t0;
}

int main(int argc, char** argv) {
  t0 = now_s();
  if (argc < 3) return 2;
  FILE* f = fopen(argv[1], "rb");
  if (!f) return 2;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char* text = malloc((size_t)size + 1);
  if (fread(text, 1, (size_t)size, f) != (size_t)size) return 2;
  text[size] = 0;
  fclose(f);
  rs_options o;
  rs_options_init(&o);
  o.backend = "cpu";
  o.time_limit_s = atof(argv[2]);
  o.progress = on_progress;
  char *solution = NULL, *error = NULL;
  rs_status st = rs_solve_json(text, &o, &solution, &error);
  if (st != RS_OK) {
    fprintf(stderr, "%s\n", error);
    return 1;
  }
  printf("first %.4f total %.4f\n", first, now_s() - t0);
  rs_free(solution);
  free(text);
  return 0;
}
