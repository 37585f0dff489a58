#include "catalog.h"

#include <stdio.h>
#include <string.h>

#include "model/core/json_out.h"
#include "model/input/catalog.h"
#include "solver/cli/fail.h"
#include "solver/cli/frame.h"
#include "solver/cli/options.h"
#include "solver/report.h"

/* The listing: one line per entry, or with --json
 * {"schema":..,"worksets":[{"name":..,"description":..},..]}. */
static int list(FILE *f, const tf_catalog_view *v, int json) {
  size_t n;
  char **names = tf_catalog_list(v->kind, &n);
  int width = 0; /* the longest name sets the first column */
  for (size_t i = 0; i < n; i++)
    if ((int)strlen(names[i]) > width)
      width = (int)strlen(names[i]);
  tf_json_out o;
  tf_json_out_init(&o, f);
  if (json) {
    tf_json_out_object(&o);
    tf_json_out_key_string(&o, "schema", TF_REPORT_SCHEMA);
    tf_json_out_key_array(&o, v->plural);
  }
  for (size_t i = 0; i < n; i++) {
    char path[4096];
    tf_error err;
    tf_error_init(&err);
    if (tf_catalog_find(v->kind, names[i], "", path, sizeof path, &err))
      continue;
    if (!json) {
      v->line(f, names[i], width, path);
      continue;
    }
    tf_json_out_object(&o);
    tf_json_out_key_string(&o, "name", names[i]);
    v->json_item(&o, path);
    tf_json_out_end(&o);
  }
  if (json) {
    tf_json_out_end(&o);
    tf_json_out_end(&o);
    tf_json_out_line(&o);
  }
  tf_catalog_list_free(names, n);
  return TF_EXIT_OK;
}

int tf_cli_catalog(const tf_command *cmd, const tf_catalog_view *v, int argc, char **argv) {
  tf_args a;
  tf_error err;
  tf_args_init(&a);
  tf_error_init(&err);
  int rc = tf_cli_start(cmd, argc, argv, &a);
  int json = a.format == TF_FORMAT_JSON;
  if (rc == TF_CLI_GO && a.npositional == 0) {
    rc = tf_cli_finish(&a, list(tf_cli_out(&a), v, json));
  } else if (rc == TF_CLI_GO) {
    char path[4096];
    rc = tf_catalog_find(v->kind, a.positional[0], argv[0], path, sizeof path, &err) ||
                 (json ? v->show_json : v->show)(tf_cli_out(&a), path, &err)
             ? tf_cli_fail(&err)
             : tf_cli_finish(&a, TF_EXIT_OK);
  }
  tf_args_release(&a);
  return rc;
}
