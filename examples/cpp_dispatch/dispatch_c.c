/* The C API from the installed package: a VROOM JSON problem in, a VROOM JSON solution out. */
#include <stdio.h>

#include "routesolve/routesolve_c.h"

int main(void) {
  const char* problem =
      "{\"vehicles\": [{\"id\": 1, \"start\": [9.5209, 47.141], \"end\": [9.5209, 47.141], "
      "\"capacity\": [4]}],"
      " \"jobs\": [{\"id\": 1, \"location\": [9.506, 47.23], \"delivery\": [1]},"
      "            {\"id\": 2, \"location\": [9.555, 47.166], \"delivery\": [2]}]}";
  rs_options options;
  rs_options_init(&options);
  options.time_limit_s = 0.2;
  char* solution = NULL;
  char* error = NULL;
  const rs_status status = rs_solve_json(problem, &options, &solution, &error);
  if (status != RS_OK) {
    fprintf(stderr, "routesolve %s: %s\n", rs_status_name(status), error);
    rs_free(error);
    return 1;
  }
  printf("routesolve %s: %s\n", rs_version(), solution);
  rs_free(solution);
  return 0;
}
