/* tilefit worksets [NAME|FILE]: the shipped worksets, or one in full. */
#include <stdio.h>

#include "model/catalog.h"
#include "model/workset.h"
#include "solver/cli/catalog.h"

static void show_workset(const tf_workset *w) {
  printf("%s: %s\n", w->name, w->comment);
  printf("params:\n");
  for (size_t i = 0; i < w->nparams; i++)
    printf("  %-14s = %s\n", w->params[i].name, tf_expr_text(w->params[i].expr));
  printf("choose:\n");
  for (size_t i = 0; i < w->nchoose; i++) {
    printf("  %-14s {", w->choose[i].name);
    for (size_t k = 0; k < w->choose[i].nvalues; k++) {
      if (k == 8 && w->choose[i].nvalues > 10) {
        printf(", ... (%zu values), %lld", w->choose[i].nvalues,
               (long long)w->choose[i].values[w->choose[i].nvalues - 1]);
        break;
      }
      printf("%s%lld", k ? ", " : "", (long long)w->choose[i].values[k]);
    }
    printf("}\n");
  }
  printf("count:\n");
  for (size_t i = 0; i < w->ncounts; i++)
    printf("  %-14s from %s to %s\n", w->counts[i].name, tf_expr_text(w->counts[i].min),
           tf_expr_text(w->counts[i].max));
  if (w->nlets)
    printf("let:\n");
  for (size_t i = 0; i < w->nlets; i++)
    printf("  %-14s = %s\n", w->lets[i].name, tf_expr_text(w->lets[i].expr));
  printf("buffers:\n");
  for (size_t i = 0; i < w->nbuffers; i++)
    printf("  %-14s %-5s %s%s%s\n", w->buffers[i].name, tf_memory_name(w->buffers[i].memory),
           tf_expr_text(w->buffers[i].size), w->buffers[i].align ? "  align " : "",
           w->buffers[i].align ? tf_expr_text(w->buffers[i].align) : "");
  for (size_t i = 0; i < w->nrequire; i++)
    printf("%s  %s\n", i ? "" : "require:\n", tf_expr_text(w->require[i].expr));
  for (size_t i = 0; i < w->nobjective; i++)
    printf("%s  %s\n", i ? "" : "objective:\n", w->objective[i].text);
}

static void line(const char *name, const char *path) {
  tf_error err;
  tf_error_init(&err);
  tf_workset *w = tf_workset_load(path, &err);
  printf("%-32s %.100s\n", name, w ? w->comment : "(does not load)");
  tf_workset_free(w);
}

static int show(const char *path, tf_error *err) {
  tf_workset *w = tf_workset_load(path, err);
  if (w)
    show_workset(w);
  tf_workset_free(w);
  return w ? 0 : -1;
}

static const tf_catalog_view view = {TF_CATALOG_WORKSETS, line, show};

static int run(int argc, char **argv) { return tf_cli_catalog(&tf_cmd_worksets, &view, argc, argv); }

const tf_command tf_cmd_worksets = {
    "worksets", TF_CMD_WORKSETS, run, "list the shipped worksets, or show one", "[NAME|FILE]", 1,
    "Without NAME, lists the shipped worksets; with one, shows its params,\n"
    "variables, buffers, constraints and objectives.\n",
    "0 listed or shown, 2 bad input", 0, NULL};
