#include "solver/solution.h"

#include <stdlib.h>
#include <string.h>

void tf_solution_release(tf_solution *s) {
  free(s->x);
  free(s->objval);
  memset(s, 0, sizeof *s);
}
