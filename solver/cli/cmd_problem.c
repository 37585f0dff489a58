#include "cmd_problem.h"

#include <stdio.h>
#include <string.h>

int tf_cmd_problem_open(tf_cmd_problem *c, int argc, char **argv, unsigned groups, const char *help) {
  memset(c, 0, sizeof *c);
  tf_args_init(&c->args);
  tf_error_init(&c->err);
  if (tf_args_parse(argc, argv, groups, 0, &c->args, &c->err))
    return -1;
  if (c->args.help) {
    fputs(help, stdout);
    return 1;
  }
  if (tf_load(&c->args.req, "-m", "-w", &c->loaded, &c->err))
    return -1;
  c->problem = tf_problem_new(c->loaded.machine, c->loaded.workset, &c->args.req, &c->err);
  return c->problem ? 0 : -1;
}

void tf_cmd_problem_close(tf_cmd_problem *c) {
  tf_problem_free(c->problem);
  tf_loaded_release(&c->loaded);
  tf_args_release(&c->args);
}
