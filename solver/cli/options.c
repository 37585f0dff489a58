#include "options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/alloc.h"
#include "solver/report.h"

void tf_args_init(tf_args *a) {
  memset(a, 0, sizeof *a);
  tf_request_init(&a->req);
  a->time_limit = 60;
  a->jobs = 1;
}

void tf_args_release(tf_args *a) {
  tf_request_release(&a->req);
  free(a->positional);
  memset(a, 0, sizeof *a);
}

int tf_parse_int(const char *text, int64_t *value) {
  char *end;
  errno = 0;
  long long v = strtoll(text, &end, 10);
  if (!*text || *end || errno == ERANGE || end == text)
    return -1;
  *value = v;
  return 0;
}

int tf_parse_assignment(const char *text, const char *where, char *name, size_t size, int64_t *value,
                        tf_error *err) {
  const char *eq = strchr(text, '=');
  if (!eq || eq == text || (size_t)(eq - text) >= size)
    return tf_error_set(err, TF_EINPUT, where, "expected NAME=INTEGER, got '%s'", text);
  memcpy(name, text, (size_t)(eq - text));
  name[eq - text] = 0;
  if (tf_parse_int(eq + 1, value))
    return tf_error_set(err, TF_EINPUT, where, "expected an integer after '%s=', got '%s'", name, eq + 1);
  return 0;
}

static int parse_domain(tf_args *a, const char *text, tf_error *err) {
  const char *eq = strchr(text, '=');
  if (!eq || eq == text || eq - text >= 128)
    return tf_error_set(err, TF_EINPUT, "--domain", "expected VAR=V1,V2,..., got '%s'", text);
  char name[128];
  memcpy(name, text, (size_t)(eq - text));
  name[eq - text] = 0;
  size_t n = 0, cap = 0;
  int64_t *values = NULL;
  const char *s = eq + 1;
  for (;;) {
    const char *comma = strchr(s, ',');
    size_t len = comma ? (size_t)(comma - s) : strlen(s);
    char item[64];
    int64_t v;
    if (len == 0 || len >= sizeof item) {
      free(values);
      return tf_error_set(err, TF_EINPUT, "--domain", "expected VAR=V1,V2,... with integers, got '%s'", text);
    }
    memcpy(item, s, len);
    item[len] = 0;
    if (tf_parse_int(item, &v)) {
      free(values);
      return tf_error_set(err, TF_EINPUT, "--domain", "'%s' is not an integer in '%s'", item, text);
    }
    TF_PUSH(values, n, cap, v);
    if (!comma)
      break;
    s = comma + 1;
  }
  tf_request_add_domain(&a->req, name, values, n, "--domain");
  free(values);
  return 0;
}

static int parse_shard(tf_args *a, const char *text, tf_error *err) {
  int64_t i, n;
  const char *slash = strchr(text, '/');
  char head[32];
  if (!slash || slash - text >= 32)
    return tf_error_set(err, TF_EINPUT, "--shard", "expected I/N such as 2/8, got '%s'", text);
  memcpy(head, text, (size_t)(slash - text));
  head[slash - text] = 0;
  if (tf_parse_int(head, &i) || tf_parse_int(slash + 1, &n) || n < 1 || n > 1000000 || i < 1 || i > n)
    return tf_error_set(err, TF_EINPUT, "--shard", "expected I/N with 1 <= I <= N, got '%s'", text);
  a->shard_index = (int)i;
  a->shard_count = (int)n;
  return 0;
}

/* Options, once: their spellings, whether they take a value, their group. */
enum opt_id {
  O_MACHINE, O_WORKSET, O_PARAM, O_FIX, O_DOMAIN, O_REQUIRE, O_OBJECTIVE, O_JSON, O_CSV, O_EXPLAIN, O_LP,
  O_MPS, O_TIME, O_NOPRESOLVE, O_TOP, O_JOBS, O_OUT, O_RESUME, O_SHARD, O_FORMAT, O_QUIET, O_HELP
};
static const struct option_spec {
  enum opt_id id;
  char short_name;
  const char *long_name;
  int takes_value;
  unsigned group;
} options[] = {
    {O_MACHINE, 'm', "machine", 1, TF_OPT_PROBLEM},   {O_WORKSET, 'w', "workset", 1, TF_OPT_PROBLEM},
    {O_PARAM, 'p', "param", 1, TF_OPT_PROBLEM},       {O_FIX, 0, "fix", 1, TF_OPT_PROBLEM},
    {O_DOMAIN, 0, "domain", 1, TF_OPT_PROBLEM},       {O_REQUIRE, 0, "require", 1, TF_OPT_PROBLEM},
    {O_OBJECTIVE, 0, "objective", 1, TF_OPT_PROBLEM}, {O_JSON, 0, "json", 0, TF_OPT_FORMAT},
    {O_CSV, 0, "csv", 0, TF_OPT_FORMAT},              {O_EXPLAIN, 0, "explain", 0, TF_OPT_EXPLAIN},
    {O_LP, 0, "lp", 1, TF_OPT_EXPORT},                {O_MPS, 0, "mps", 1, TF_OPT_EXPORT},
    {O_TIME, 0, "time-limit", 1, TF_OPT_SOLVER},      {O_NOPRESOLVE, 0, "no-presolve", 0, TF_OPT_SOLVER},
    {O_TOP, 0, "top", 1, TF_OPT_TOP},                 {O_JOBS, 'j', "jobs", 1, TF_OPT_SWEEP},
    {O_OUT, 'o', "output", 1, TF_OPT_SWEEP},          {O_RESUME, 0, "resume", 0, TF_OPT_SWEEP},
    {O_SHARD, 0, "shard", 1, TF_OPT_SWEEP},           {O_FORMAT, 0, "format", 1, TF_OPT_SWEEP},
    {O_QUIET, 'q', "quiet", 0, TF_OPT_SWEEP},         {O_HELP, 'h', "help", 0, ~0u},
};

static const struct option_spec *find_option(const char *arg, const char **inline_value) {
  *inline_value = NULL;
  for (size_t i = 0; i < sizeof options / sizeof *options; i++) {
    const struct option_spec *o = &options[i];
    if (arg[1] != '-') {
      if (o->short_name && arg[1] == o->short_name) {
        if (arg[2])
          *inline_value = arg + 2; /* -pd=64 */
        return o;
      }
      continue;
    }
    size_t n = strlen(o->long_name);
    if (!strncmp(arg + 2, o->long_name, n) && (arg[2 + n] == 0 || arg[2 + n] == '=')) {
      if (arg[2 + n] == '=')
        *inline_value = arg + 3 + n;
      return o;
    }
  }
  return NULL;
}

static int bounded_int(const char *v, const char *where, int64_t lo, int64_t hi, int64_t *out, tf_error *err) {
  if (tf_parse_int(v, out) || *out < lo || *out > hi)
    return tf_error_set(err, TF_EINPUT, where, "expected an integer from %lld to %lld, got '%s'", (long long)lo,
                        (long long)hi, v);
  return 0;
}

static int apply(tf_args *a, const struct option_spec *o, const char *v, const char *where, tf_error *err) {
  char name[128];
  int64_t x;
  switch (o->id) {
  case O_MACHINE: free(a->req.machine); a->req.machine = tf_strdup(v); return 0;
  case O_WORKSET: free(a->req.workset); a->req.workset = tf_strdup(v); return 0;
  case O_PARAM:
    if (tf_parse_assignment(v, where, name, sizeof name, &x, err))
      return -1;
    tf_request_add_param(&a->req, name, x, where);
    return 0;
  case O_FIX:
    if (tf_parse_assignment(v, "--fix", name, sizeof name, &x, err))
      return -1;
    tf_request_add_fix(&a->req, name, x, "--fix");
    return 0;
  case O_DOMAIN: return parse_domain(a, v, err);
  case O_REQUIRE: tf_request_add_require(&a->req, v, "--require"); return 0;
  case O_OBJECTIVE: tf_request_add_objective(&a->req, v, "--objective"); return 0;
  case O_JSON: a->format = TF_FORMAT_JSON; return 0;
  case O_CSV: a->format = TF_FORMAT_CSV; return 0;
  case O_EXPLAIN: a->explain = 1; return 0;
  case O_LP: a->lp_file = v; return 0;
  case O_MPS: a->mps_file = v; return 0;
  case O_TIME: {
    char *end;
    double t = strtod(v, &end);
    if (*end || !(t > 0) || t > 1e6)
      return tf_error_set(err, TF_EINPUT, where, "expected seconds, a number above 0, got '%s'", v);
    a->time_limit = t;
    return 0;
  }
  case O_NOPRESOLVE: a->no_presolve = 1; return 0;
  case O_TOP:
    if (bounded_int(v, where, 1, 1000, &x, err))
      return -1;
    a->top = (int)x;
    return 0;
  case O_JOBS:
    if (bounded_int(v, where, 1, 256, &x, err))
      return -1;
    a->jobs = (int)x;
    return 0;
  case O_OUT: a->out_file = v; return 0;
  case O_RESUME: a->resume = 1; return 0;
  case O_SHARD: return parse_shard(a, v, err);
  case O_FORMAT:
    if (!strcmp(v, "jsonl") || !strcmp(v, "json"))
      a->format = TF_FORMAT_JSON;
    else if (!strcmp(v, "csv"))
      a->format = TF_FORMAT_CSV;
    else
      return tf_error_set(err, TF_EINPUT, where, "expected jsonl or csv, got '%s'", v);
    return 0;
  case O_QUIET: a->quiet = 1; return 0;
  case O_HELP: a->help = 1; return 0;
  }
  return 0;
}

int tf_args_parse(int argc, char **argv, unsigned groups, int max_positional, tf_args *a, tf_error *err) {
  a->positional = tf_nalloc((size_t)argc + 1, sizeof *a->positional);
  int only_operands = 0;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (only_operands || arg[0] != '-' || !arg[1]) {
      if (a->npositional >= max_positional)
        return tf_error_set(err, TF_EINPUT, arg, "unexpected argument (see --help)");
      a->positional[a->npositional++] = argv[i];
      continue;
    }
    if (!strcmp(arg, "--")) {
      only_operands = 1;
      continue;
    }
    const char *inline_value;
    const struct option_spec *o = find_option(arg, &inline_value);
    if (!o || (!(o->group & groups) && o->id != O_HELP))
      return tf_error_set(err, TF_EINPUT, arg, "unknown option for '%s' (see 'tilefit %s --help')", argv[0], argv[0]);
    char where[64];
    if (o->short_name)
      snprintf(where, sizeof where, "-%c", o->short_name);
    else
      snprintf(where, sizeof where, "--%s", o->long_name);
    const char *v = NULL;
    if (o->takes_value) {
      v = inline_value;
      if (!v && i + 1 >= argc)
        return tf_error_set(err, TF_EINPUT, where, "needs a value");
      if (!v)
        v = argv[++i];
    } else if (inline_value) {
      return tf_error_set(err, TF_EINPUT, where, "takes no value");
    }
    if (apply(a, o, v, where, err))
      return -1;
  }
  return 0;
}
