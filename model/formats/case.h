/* A problem written as one JSON object (a line of a validation file or of
 * a sweep's problem list):
 *   {"id": "fa4-d128", "machine": "b200", "workset": "fa4-fwd",
 *    "params": {"d": 128}, "fix": {"B_r": 128}, "domain": {"B_c": [64, 128]},
 *    "require": ["stages <= 32"], "objective": ["max stages"],
 *    "place": {"P": "smem", "Q": ["smem", "rf"]}, "any_arch": true,
 *    "expect": {"stages": 3, "placement": {"P": "rf"}} | {"fits": false},
 *    "kind": "formula|tuned|fits|measured",
 *    "comment": "..."}
 * Only id, machine and workset are required.  A measured line (one with
 * "measured": model/formats/measured.h) has a group, a config and where
 * its number is from instead of expect, fix and objective. */
#ifndef TF_MODEL_CASE_H
#define TF_MODEL_CASE_H

#include <stddef.h>
#include <stdio.h>

#include "model/bind/problem.h"
#include "model/core/error.h"
#include "model/core/json_out.h"
#include "model/formats/measured.h"

enum tf_case_kind { TF_KIND_FORMULA, TF_KIND_TUNED, TF_KIND_FITS, TF_KIND_MEASURED };

typedef struct tf_case {
  tf_request req;
  int has_kind;
  int kind;          /* enum tf_case_kind; default: measured with "measured", fits when expect has "fits", else
                          formula */
  int expect_fits;   /* -1: none; 0 or 1 */
  tf_assign *expect; /* expected variable values */
  size_t nexpect;
  tf_place_req *expect_place; /* "expect": {"placement": {"P": "rf"}}: one memory each */
  size_t nexpect_place, capexpect_place;
  char *comment;
  tf_measured measured; /* kind measured */
} tf_case;

void tf_case_init(tf_case *c);
void tf_case_release(tf_case *c);

/* Parses one object.  `line` (1-based) prefixes every JSON path in errors
 * ("line 12: $.params.d"); 0 leaves the paths bare.  `file` names the file. */
int tf_case_parse(const char *text, size_t len, const char *file, size_t line, tf_case *c, tf_error *err);
/* The same for an object inside another (a problem of a list the library
 * was given): every path is under `root` ("$.problems[3]"), with no line,
 * so errors found when the request is bound name it too. */
int tf_case_parse_at(const char *text, size_t len, const char *file, const char *root, tf_case *c, tf_error *err);
/* The same for an object already parsed (a member of the library's
 * request): read where it is, without writing it out as text again. */
struct cJSON;
int tf_case_read(const struct cJSON *obj, const char *file, const char *root, tf_case *c, tf_error *err);
/* Only the request fields an object holds (its keys checked by the
 * caller; none required), read under `root` and laid over req
 * (tf_request_overlay): what a handle's call or a CUTLASS name's problem
 * adds to a problem. */
int tf_case_read_fields(const struct cJSON *obj, const char *root, tf_request *req, tf_error *err);

const char *tf_case_kind_name(int kind);

/* The other direction: a request as the object tf_case_parse reads back
 * (params, fix, domain, require, objective, place, any_arch, and "kind":
 * "fits" when `fits`),
 * keys that are empty left out; no id, machine or workset. */
/* The object is a value of w. */
void tf_case_write_input(tf_json_out *w, const tf_request *req, int fits);

#endif
