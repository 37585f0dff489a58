/* A sweep spec: a JSON object of lists whose Cartesian product is a set of
 * problems, read next to the problem-line reader (case.h):
 *   {"machines": ["b200", "h100-sxm"] | "*",   "worksets": ["fa4-fwd"] | "*",
 *    "params": {"d": [64, 128], "dv": [64, 128]},  "fix": {"B_r": [64, 128]},
 *    "domain": {"B_c": [64, 128]},  "require": ["stages <= 32"],
 *    "objectives": [[], "max stages", ["max B_r*B_c", "max stages"]],
 *    "where": ["dv <= d"], "comment": "..."}
 * Points are machines x worksets x params x fix x objectives, last varying
 * fastest.  A param, fix, domain or require applies to the worksets that
 * have the names it uses and is skipped for the others; an objective list
 * applies to the worksets it binds in ([] is the workset's own); a `where`
 * filter naming a param or fix the point does not set is skipped.  Each
 * must apply to at least one workset (a typo is an input error). */
#ifndef TF_MODEL_SPEC_H
#define TF_MODEL_SPEC_H

#include <stddef.h>
#include <stdint.h>

#include "model/core/error.h"
#include "model/expr/expr.h"
#include "model/input/request.h"
#include "model/input/workset.h"

typedef struct tf_spec_values { /* a swept list, or a domain */
  char *name;
  int64_t *v;
  size_t n;
} tf_spec_values;

typedef struct tf_spec_objectives { /* one lexicographic list; n == 0: the workset's own */
  char **texts;
  size_t n;
} tf_spec_objectives;

typedef struct tf_spec {
  char **machines;
  size_t nmachines;
  char **worksets;
  size_t nworksets;
  tf_spec_values *params;
  size_t nparams;
  tf_spec_values *fixes;
  size_t nfixes;
  tf_spec_values *domains;
  size_t ndomains;
  char **requires;
  size_t nrequires;
  tf_spec_objectives *objectives;
  size_t nobjectives; /* 0: no "objectives" key */
  tf_expr **where;
  size_t nwhere;
  int any_arch; /* "any_arch": true: every point solves across architectures */
  char *solver; /* "solver": every point's (solver/backend.h), or NULL */
  /* from tf_spec_expand */
  unsigned char *applies; /* per workset: params, fixes, domains, requires, objectives */
  size_t napplies;
  int32_t *sel; /* per point: machine, workset, objective, param value idx..., fix value idx... */
  size_t stride, npoints, capsel;
  size_t skipped_arch; /* points left out: their machine is not an architecture their workset models */
} tf_spec;

#define TF_SPEC_MAX_POINTS 10000000 /* larger sweeps are refused */

/* Reads the spec's lists (names not yet checked against worksets); `file`
 * names it in errors.  Release with tf_spec_release, also after -1. */
int tf_spec_parse(tf_spec *s, const char *text, size_t len, const char *file, tf_error *err);
/* The same from a spec already parsed (the library's "spec" member, the
 * command line's lists), without writing it out as text again. */
struct cJSON;
int tf_spec_read(tf_spec *s, const struct cJSON *root, const char *file, tf_error *err);

/* Decides what applies where and lists the points.  ws[i] is worksets[i]
 * loaded, or NULL when it does not load (its points become error lines).
 * arch_ok[mi * nworksets + wi] 0 leaves that pair's points out, counted
 * in skipped_arch (NULL: every pair is kept). */
int tf_spec_expand(tf_spec *s, const tf_workset *const *ws, const unsigned char *arch_ok, tf_error *err);

void tf_spec_release(tf_spec *s);

/* Point i's stable id, "b200/fa4-fwd/d=64,dv=64/fix:B_r=128/o2" (segments
 * left out when the spec has none); the caller frees it. */
char *tf_spec_id(const tf_spec *s, size_t i);

/* Point i as a request (into an initialised request the caller releases),
 * each field's where its JSON path in the spec. */
void tf_spec_request(const tf_spec *s, size_t i, tf_request *req);

#endif
