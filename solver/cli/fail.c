#include "solver/cli/fail.h"

#include <stdio.h>
#include <string.h>

#include "solver/cli/command.h"
#include "solver/cli/options.h"

/* What the command line adds to an error about a field whose place is
 * elsewhere (the workset's $.arch for any_arch): how to say it. */
static const struct {
  const char *key, *hint;
} hints[] = {
    {"any_arch", " (--any-arch, or \"any_arch\": true in a problem line, to solve it anyway)"},
};

int tf_cli_fail(const tf_error *err) {
  char buf[1024];
  tf_error e = *err; /* the library names a field or option by its key: spelled as an option here */
  tf_error_spell(&e, tf_cli_spelling);
  const char *hint = "";
  for (size_t i = 0; e.path[0] && e.at[0] && i < sizeof hints / sizeof *hints; i++)
    if (!strcmp(e.at, hints[i].key))
      hint = hints[i].hint;
  tf_error_format(&e, buf, sizeof buf);
  fprintf(stderr, "tilefit: error: %s%s\n", buf, hint);
  return err->code == TF_EINPUT ? TF_EXIT_USAGE : TF_EXIT_INTERNAL;
}
