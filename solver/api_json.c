/* tf_call_json and the JSON handles: the JSON API's framing.  Parse the
 * request, find its command in the table below (checking its keys, which
 * solver/command_options.h's table gives), read its options by that
 * table's kinds (api_request.c), run the command (api_solve.c,
 * api_commands.c) on a FILE * on the answer, and frame the answer in
 * memory, or the error answer: an error names a field or option by its
 * key, and error_answer spells it as the request's member. */
#include "solver/api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/core/json_out.h"
#include "model/core/text.h"
#include "model/input/request.h"
#include "solver/api_commands.h"
#include "solver/api_request.h"
#include "solver/api_solve.h"
#include "solver/backend.h"
#include "solver/command_options.h"
#include "solver/report.h"
#include "solver/run.h"

/* -------------------------------------------------------------- dispatch */

/* What a request of each command may hold besides "cmd": the rows of the
 * command-option table (solver/command_options.h) its JSON takes for
 * `options`, and `extra` (prune's problem fields, at the top level). */
static const char *const prune_extra[] = {"machine", "workset", "params", "any_arch", NULL};
static const char *const name_extra[] = {"name", NULL};

static const struct api_cmd {
  const char *name;
  int (*run)(const cJSON *req, FILE *out, api_ctx *x);
  unsigned options; /* enum tf_cmd_bit: the table's rows for these commands */
  const char *const *extra;
  int on_handle; /* may run on a handle */
} commands[] = {
    {"solve", tf_api_solve, TF_CMD_SOLVE, NULL, 1},
    {"check", tf_api_check, TF_CMD_CHECK, NULL, 1},
    {"sweep", tf_api_sweep, TF_CMD_SWEEP, NULL, 0},
    {"validate", tf_api_validate, TF_CMD_VALIDATE, NULL, 0},
    {"machines", tf_api_machines, 0, NULL, 0},
    {"worksets", tf_api_worksets, 0, NULL, 0},
    {"machine", tf_api_machine, 0, name_extra, 0},
    {"workset", tf_api_workset, 0, name_extra, 0},
    {"version", tf_api_version, 0, NULL, 0},
    {"options", tf_api_options, 0, NULL, 0},
    {"prune", tf_api_prune, TF_CMD_PRUNE, prune_extra, 0},
    {"layout", tf_api_layout, TF_CMD_LAYOUT, NULL, 1},
    {"emit", tf_api_emit, TF_CMD_EMIT, NULL, 1},
    {"plot", tf_api_plot, TF_CMD_PLOT_MAP | TF_CMD_PLOT_SWEEP, NULL, 1},
};

/* The request's members must be the command's. */
static int command_keys(const cJSON *req, const struct api_cmd *c, tf_error *err) {
  const char *keys[TF_NCOMMAND_OPTIONS + 8];
  size_t n = 0;
  keys[n++] = "cmd";
  for (size_t i = 0; i < TF_NCOMMAND_OPTIONS; i++)
    if ((tf_command_options[i].fronts & TF_FRONT_JSON) && (tf_command_options[i].commands & c->options))
      keys[n++] = tf_command_options[i].key;
  for (const char *const *e = c->extra; e && *e; e++)
    keys[n++] = *e;
  keys[n] = NULL;
  return tf_json_keys(req, "$", keys, NULL, err);
}

static const struct api_cmd *command(const cJSON *req, const api_ctx *x, tf_error *err) {
  const char *name = NULL;
  if (!cJSON_IsObject(req))
    return tf_error_set(err, TF_EINPUT, "$", "expected a request object with \"cmd\""), NULL;
  if (tf_json_string(tf_json_member(req, "cmd"), "$.cmd", &name, err))
    return NULL;
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
    if (!strcmp(commands[i].name, name)) {
      if (x->handle && !commands[i].on_handle)
        break;
      return command_keys(req, &commands[i], err) ? NULL : &commands[i];
    }
  tf_error_set(err, TF_EINPUT, "$.cmd",
               x->handle ? "unknown command '%s' on a handle (solve, check, layout, emit, plot)"
                         : "unknown command '%s' (solve, check, layout, emit, plot, sweep, validate, prune, machines, "
                           "machine, worksets, "
                           "workset, version, options)",
               name);
  return NULL;
}

static int dispatch(const char *request, FILE *out, api_ctx *x) {
  cJSON *req = tf_json_parse(request, strlen(request), "", &x->err);
  if (!req)
    return -1;
  const struct api_cmd *c = command(req, x, &x->err);
  int rc = c && !tf_api_read_args(req, c->options, &x->args, &x->err) ? c->run(req, out, x) : -1;
  cJSON_Delete(req);
  return rc;
}

/* The request member an error is in: the field or option the library
 * names (err->at, "time_limit"), else the path's: "$.problem.fix.B_r" is
 * in "fix", "$.top" in "top"; "" for an error elsewhere (a workset file). */
static void error_field(const tf_error *err, char *field, size_t size) {
  const char *p = err->path;
  field[0] = 0;
  if (err->at[0]) {
    snprintf(field, size, "%s", err->at);
    return;
  }
  if (!strncmp(err->file, "$.", 2)) /* an error in a member read as a document of its own: "$.spec" */
    p = err->file;
  else if (err->file[0] || strncmp(p, "$.", 2))
    return;
  p += 2;
  if (!strncmp(p, "problem.", 8))
    p += 8;
  size_t n = strcspn(p, ".[");
  snprintf(field, size, "%.*s", (int)n, p);
}

/* Is `key` a request field's (a problem's member)? */
static int request_key(const char *key) {
  for (size_t i = 0; i < TF_NREQUEST_FIELDS; i++)
    if (!strcmp(tf_request_fields[i].key, key))
      return 1;
  return 0;
}

/* The request member an error is in, as a JSON path. */
static void error_path(const api_ctx *x, char *path, size_t size) {
  const tf_error *err = &x->err;
  if (!strncmp(err->file, "$.", 2) && err->path[0] == '$') /* "$.spec" and "$.params.zz": "$.spec.params.zz" */
    snprintf(path, size, "%s%s", err->file, err->path + 1);
  else if (!err->path[0] && err->at[0]) /* a field or option the library names: its member */
    snprintf(path, size, "$.%s%s", x->problem_fields && request_key(err->at) ? "problem." : "", err->at);
  else
    snprintf(path, size, "%s", err->path);
}

/* {"error": the line, "status": N, "message": without its place, "path":
 * the JSON path, "field": the request member, "free": [check's free
 * variables]}: a binding names its own keyword from "field". */
static char *error_answer(const api_ctx *x, int status) {
  tf_error e = x->err; /* a field or option the library names is spelled as its member */
  char msg[1024], field[64], path[512];
  error_path(x, path, sizeof path);
  if (!e.path[0] && e.at[0])
    snprintf(e.path, sizeof e.path, "%s", path);
  tf_error_spell(&e, NULL); /* "@{fix}" in a message: the member's name */
  const tf_error *err = &e;
  tf_error_format(err, msg, sizeof msg);
  error_field(err, field, sizeof field);
  if (!strcmp(field, "any_arch"))
    snprintf(msg + strlen(msg), sizeof msg - strlen(msg), " (\"any_arch\": true solves it anyway)");
  tf_text t;
  tf_json_out w;
  tf_json_out_init(&w, tf_text_open(&t));
  tf_json_out_object(&w);
  tf_json_out_key_string(&w, "error", msg);
  tf_json_out_key_int(&w, "status", status);
  tf_json_out_key_string(&w, "message", err->msg);
  tf_json_out_key_string(&w, "path", path);
  tf_json_out_key_string(&w, "field", field);
  if (!strcmp(err->path, "$.problem.fix") && x->nfree) {
    tf_json_out_key_array(&w, "free");
    for (size_t i = 0; i < x->nfree; i++)
      tf_json_out_string(&w, x->free_vars[i]);
    tf_json_out_end(&w);
  }
  tf_json_out_end(&w);
  return tf_text_close(&t, NULL);
}

/* The answer when memory ran out: static, so it needs none (tf_free
 * knows it). */
static char out_of_memory[] = "{\"error\":\"out of memory\",\"status\":3}";

/* One call on a handle or none: `run` writes the answer to `out` and
 * returns an exit status, or -1 with x->err set. */
static char *answer(api_ctx *x, int (*run)(const char *, FILE *, api_ctx *, void *), const char *request, void *arg,
                    int *status) {
  tf_text t;
  jmp_buf here;
  jmp_buf *volatile outer = tf_alloc_recovery(&here);
  if (setjmp(here)) { /* an allocation failed: what this call held is lost, the process goes on */
    tf_alloc_recovery(outer);
    if (status)
      *status = API_INTERNAL;
    return out_of_memory;
  }
  FILE *out = tf_text_open(&t);
  int rc = -1;
  if (!request)
    tf_error_set(&x->err, TF_EINPUT, "$", "no request (NULL)");
  else
    rc = run(request, out, x, arg);
  char *text = tf_text_close(&t, NULL);
  tf_backend_thread_done(); /* GLPK keeps an environment per thread: leave none behind */
  if (rc < 0) {
    free(text);
    rc = x->err.code == TF_EINPUT ? API_USAGE : API_INTERNAL;
    text = error_answer(x, rc);
  }
  tf_alloc_recovery(outer);
  if (status)
    *status = rc;
  return text;
}

static void ctx_init(api_ctx *x, const tf_json_handle *h) {
  tf_error_init(&x->err);
  x->handle = h;
  x->problem_fields = 1;
  x->nfree = 0;
}

static int run_request(const char *request, FILE *out, api_ctx *x, void *arg) {
  (void)arg;
  return dispatch(request, out, x);
}

char *tf_call_json(const char *request, int *status) {
  api_ctx x;
  ctx_init(&x, NULL);
  return answer(&x, run_request, request, NULL, status);
}

char *tf_json_handle_call(const tf_json_handle *h, const char *request, int *status) {
  api_ctx x;
  ctx_init(&x, h);
  if (!h) {
    tf_error_set(&x.err, TF_EINPUT, "$", "no handle (NULL)");
    return answer(&x, run_request, NULL, NULL, status);
  }
  return answer(&x, run_request, request, NULL, status);
}

/* ---------------------------------------------------------------- handles */

/* Loads and binds the problem into *(tf_json_handle **)arg; the answer
 * names what it bound: {"machine": , "workset": }. */
static int make_handle(const char *problem, FILE *out, api_ctx *x, void *arg) {
  tf_error *err = &x->err;
  tf_json_handle *h = tf_nalloc(1, sizeof *h);
  tf_case_init(&h->base);
  if (tf_api_bind_handle(problem, h, err)) {
    tf_json_handle_free(h);
    return -1;
  }
  tf_json_out w;
  tf_json_out_init(&w, out);
  tf_json_out_object(&w);
  tf_json_out_key_string(&w, "schema", TF_REPORT_SCHEMA);
  tf_json_out_key_string(&w, "machine", h->run.loaded.machine->name);
  tf_json_out_key_string(&w, "workset", h->run.loaded.workset->name);
  tf_json_out_end(&w);
  *(tf_json_handle **)arg = h;
  return API_OK;
}

tf_json_handle *tf_json_handle_new(const char *problem, char **answer_out, int *status) {
  api_ctx x;
  ctx_init(&x, NULL);
  tf_json_handle *h = NULL;
  char *text = answer(&x, make_handle, problem, &h, status);
  if (answer_out)
    *answer_out = text;
  else
    tf_free(text);
  return h;
}

void tf_json_handle_free(tf_json_handle *h) {
  if (!h)
    return;
  tf_run_release(&h->run);
  tf_case_release(&h->base);
  cJSON_Delete(h->problem);
  free(h);
}

void tf_free(void *p) {
  if (p != out_of_memory)
    free(p);
}
