/* tilefit worksets [NAME|FILE]: the shipped worksets, or one in full. */
#include <stdio.h>
#include <string.h>

#include "model/core/json_out.h"
#include "model/input/catalog.h"
#include "model/input/workset.h"
#include "solver/cli/catalog.h"
#include "solver/workset_json.h"

/* "  P   rf   SIZE  align A  place rf,smem  pin pv_rs  alias V  lifetime L": a placed
 * buffer's candidates in order of preference (the machine's MMA table when
 * the workset names none), its pin and the buffer it may share space with. */
static void buffer_line(FILE *f, const tf_buffer *b) {
  fprintf(f, "  %-14s %-5s %s", b->name, tf_memory_name(b->memory), tf_expr_text(b->size));
  if (b->align)
    fprintf(f, "  align %s", tf_expr_text(b->align));
  for (int k = 0; k < b->nplace; k++)
    fprintf(f, "%s%s", k ? "," : "  place ", tf_memory_name(b->place[k]));
  if (b->from_table)
    fputs(" (the machine's mma table)", f);
  if (b->pin)
    fprintf(f, "  pin %s", tf_expr_text(b->pin));
  if (b->alias_name)
    fprintf(f, "  alias %s", b->alias_name);
  if (b->lifetime_name)
    fprintf(f, "  lifetime %s", b->lifetime_name);
  fputc('\n', f);
}

static void show_workset(FILE *f, const tf_workset *w) {
  fprintf(f, "%s: %s\n", w->name, w->comment);
  fprintf(f, "params:\n");
  for (size_t i = 0; i < w->nparams; i++)
    fprintf(f, "  %-14s = %s\n", w->params[i].name, tf_expr_text(w->params[i].expr));
  fprintf(f, "choose:\n");
  for (size_t i = 0; i < w->nchoose; i++) {
    fprintf(f, "  %-14s {", w->choose[i].name);
    for (size_t k = 0; k < w->choose[i].nvalues; k++) {
      if (k == 8 && w->choose[i].nvalues > 10) {
        fprintf(f, ", ... (%zu values), %lld", w->choose[i].nvalues,
                (long long)w->choose[i].values[w->choose[i].nvalues - 1]);
        break;
      }
      fprintf(f, "%s%lld", k ? ", " : "", (long long)w->choose[i].values[k]);
    }
    fprintf(f, "}\n");
  }
  fprintf(f, "count:\n");
  for (size_t i = 0; i < w->ncounts; i++)
    fprintf(f, "  %-14s from %s to %s\n", w->counts[i].name, tf_expr_text(w->counts[i].min),
            tf_expr_text(w->counts[i].max));
  if (w->nlets)
    fprintf(f, "let:\n");
  for (size_t i = 0; i < w->nlets; i++) {
    /* a let from an included fragment: its path is "FRAGMENT: $.let.NAME" */
    const char *path = w->lets[i].path, *from = path ? strstr(path, ": $.let.") : NULL;
    fprintf(f, "  %-14s = %s", w->lets[i].name, tf_expr_text(w->lets[i].expr));
    if (from && path[0] != '$')
      fprintf(f, "   (%.*s)", (int)(from - path), path);
    fputc('\n', f);
  }
  fprintf(f, "buffers:\n");
  for (size_t i = 0; i < w->nbuffers; i++)
    buffer_line(f, &w->buffers[i]);
  for (size_t i = 0; i < w->nrequire; i++)
    fprintf(f, "%s  %s\n", i ? "" : "require:\n", tf_expr_text(w->require[i].expr));
  for (size_t i = 0; i < w->nobjective; i++)
    fprintf(f, "%s  %s\n", i ? "" : "objective:\n", w->objective[i].text);
  for (size_t i = 0; i < w->nshow; i++)
    fprintf(f, "%s  %s\n", i ? "" : "show:\n", w->lets[w->show[i]].name);
  for (size_t i = 0; i < w->nrules; i++)
    fprintf(f, "%s  %-8s %s\n", i ? "" : "rule:\n", w->rule_archs[i], w->rules[i]);
}

/* The listing's descriptions are cut to ABOUT characters at the last
 * space before it, with "...", never mid-word. */
#define ABOUT 100

static void line(FILE *f, const char *name, int width, const char *path) {
  tf_error err;
  tf_error_init(&err);
  tf_workset *w = tf_workset_load(path, &err);
  const char *about = w ? w->comment : "(does not load)";
  int n = (int)strlen(about);
  if (n > ABOUT) {
    n = ABOUT - 3;
    while (n > 0 && about[n] != ' ')
      n--;
    while (n > 0 && strchr(" ,:;@(", about[n - 1]))
      n--;
  }
  fprintf(f, "%-*s  %.*s%s\n", width, name, n, about, n < (int)strlen(about) ? "..." : "");
  tf_workset_free(w);
}

static int show(FILE *f, const char *path, tf_error *err) {
  tf_workset *w = tf_workset_load(path, err);
  if (w)
    show_workset(f, w);
  tf_workset_free(w);
  return w ? 0 : -1;
}

/* "description":"..." (the whole comment; null when it does not load) */
static void json_item(tf_json_out *o, const char *path) {
  tf_error err;
  tf_error_init(&err);
  tf_workset *w = tf_workset_load(path, &err);
  tf_json_out_key_string(o, "description", w ? w->comment : NULL);
  tf_workset_free(w);
}

static int show_json(FILE *f, const char *path, tf_error *err) {
  tf_workset *w = tf_workset_load(path, err);
  if (w)
    tf_workset_write_json(f, w), fputc('\n', f);
  tf_workset_free(w);
  return w ? 0 : -1;
}

static const tf_catalog_view view = {TF_CATALOG_WORKSETS, line, show, json_item, show_json, "worksets"};

static int run(int argc, char **argv) { return tf_cli_catalog(&tf_cmd_worksets, &view, argc, argv); }

const tf_command tf_cmd_worksets = {"worksets",
                                    TF_CMD_WORKSETS,
                                    run,
                                    "list the shipped worksets, or show one",
                                    "[NAME|FILE]",
                                    1,
                                    "Without NAME, lists the shipped worksets; with one, shows its params,\n"
                                    "variables, buffers, constraints and objectives.\n",
                                    "0 listed or shown, 2 bad input",
                                    0,
                                    NULL,
                                    TF_OPERANDS_WORKSETS};
