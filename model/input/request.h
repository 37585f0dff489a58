/* What a user asks of a workset on a machine: param values, fixes,
 * narrowed domains, extra constraints and objectives, each with where it
 * came from ("-p d", "line 3: $.params.d") so that errors can name it.
 * Built by the option parser or from a JSON problem line. */
#ifndef TF_MODEL_REQUEST_H
#define TF_MODEL_REQUEST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/core/json_out.h"
#include "model/input/memory_kind.h"

typedef struct tf_assign {
  char *name;
  int64_t value;
  char *where; /* "-p d", "$.params.d": names the origin in errors */
} tf_assign;

typedef struct tf_domain_req {
  char *name;
  int64_t *values;
  size_t nvalues;
  char *where;
} tf_domain_req;

typedef struct tf_text_req {
  char *text;
  char *where;
} tf_text_req;

/* A placement pin: buffer `buffer` may live only in mems[0..nmems) ("P=smem"
 * pins it, "P=rf,smem" narrows its candidates), by memory id. */
#define TF_PLACE_MAX_MEMS TF_NMEM /* each memory at most once */
typedef struct tf_place_req {
  char *buffer;
  int mems[TF_PLACE_MAX_MEMS];
  int nmems;
  char *where;
} tf_place_req;

/* The request's fields, one row each, in the order they are written:
 *   member   the C member (a list also has n<member> and cap<member>)
 *   key      its JSON key in a problem line (model/formats/case.h)
 *   flag     its long command-line option, "" when it has none (--solver,
 *            which also names every point's solver in a sweep, is a command
 *            option, solver/command_options.h, that writes this field)
 *   spec     its key in a sweep spec (model/formats/spec.h), "" when a spec
 *            cannot sweep it
 *   kind     STRING, ASSIGNS, DOMAINS, TEXTS, PLACES or FLAG: its type,
 *            how it is read, written, copied and freed
 *   memo     what the memo key of a sweep takes of it (solver/batch):
 *            NO (it names the problem, not what it asks), YES (as
 *            written), BOUND (params: the bound values, defaults filled)
 *   line     written in a sweep line's "input" (tf_case_write_input)
 * The struct below is generated from this table, and every reader and
 * writer of a request walks it, so a field cannot be left out of one. */
#define TF_REQUEST_FIELDS(X)                                           \
  X(id, "id", "", "", STRING, NO, 0)                                   \
  X(machine, "machine", "machine", "machines", STRING, YES, 0)         \
  X(workset, "workset", "workset", "worksets", STRING, YES, 0)         \
  X(params, "params", "param", "params", ASSIGNS, BOUND, 1)            \
  X(fixes, "fix", "fix", "fix", ASSIGNS, YES, 1)                       \
  X(domains, "domain", "domain", "domain", DOMAINS, YES, 1)            \
  X(requires, "require", "require", "require", TEXTS, YES, 1)          \
  X(objectives, "objective", "objective", "objectives", TEXTS, YES, 1) \
  X(places, "place", "place", "", PLACES, YES, 1)                      \
  X(any_arch, "any_arch", "any-arch", "any_arch", FLAG, YES, 1)        \
  X(solver, "solver", "", "solver", STRING, YES, 1)

enum tf_request_kind {
  TF_RQ_STRING,
  TF_RQ_ASSIGNS,
  TF_RQ_DOMAINS,
  TF_RQ_TEXTS,
  TF_RQ_PLACES,
  TF_RQ_FLAG,
  TF_RQ_NKINDS
};
enum tf_request_memo { TF_RQ_NO, TF_RQ_YES, TF_RQ_BOUND };

#define TF_RQ_LIST_(type, m) \
  type *m;                   \
  size_t n##m, cap##m;
#define TF_RQ_MEMBER_STRING(m) char *m;
#define TF_RQ_MEMBER_ASSIGNS(m) TF_RQ_LIST_(tf_assign, m)
#define TF_RQ_MEMBER_DOMAINS(m) TF_RQ_LIST_(tf_domain_req, m)
#define TF_RQ_MEMBER_TEXTS(m) TF_RQ_LIST_(tf_text_req, m)
#define TF_RQ_MEMBER_PLACES(m) TF_RQ_LIST_(tf_place_req, m)
#define TF_RQ_MEMBER_FLAG(m) int m;
#define TF_RQ_MEMBER(m, key, flag, spec, kind, memo, line) TF_RQ_MEMBER_##kind(m)

typedef struct tf_request {
  TF_REQUEST_FIELDS(TF_RQ_MEMBER)
} tf_request;

#define TF_RQ_ENUM(m, key, flag, spec, kind, memo, line) TF_RQF_##m,
enum tf_request_field_id { TF_REQUEST_FIELDS(TF_RQ_ENUM) TF_NREQUEST_FIELDS };

/* One row of the table, with where its member (and a list's count) is. */
typedef struct tf_request_field {
  const char *member, *key, *flag, *spec;
  int kind, memo, line;
  size_t offset, count_offset, cap_offset; /* the last two: lists only */
} tf_request_field;

extern const tf_request_field tf_request_fields[TF_NREQUEST_FIELDS];

/* Appends a deep copy of *item (the list field's item type) to list
 * field i. */
void tf_request_add(tf_request *r, size_t i, const void *item);
/* Is field i empty (no string, an empty list, a false flag)? */
int tf_request_field_empty(const tf_request *r, size_t i);
/* Field i's value as JSON (an object, a list, a string or true/false),
 * in the form a problem line reads back. */
void tf_request_write_field(tf_json_out *w, const tf_request *r, size_t i);
/* The fields with line set that are not empty, as members of the object
 * w stands in ("KEY":VALUE,...); returns how many. */
int tf_request_write_members(tf_json_out *w, const tf_request *r);

void tf_request_init(tf_request *r);
void tf_request_release(tf_request *r);
void tf_request_add_param(tf_request *r, const char *name, int64_t value, const char *where);
void tf_request_add_fix(tf_request *r, const char *name, int64_t value, const char *where);
void tf_request_add_domain(tf_request *r, const char *name, const int64_t *values, size_t n, const char *where);
void tf_request_add_require(tf_request *r, const char *text, const char *where);
void tf_request_add_objective(tf_request *r, const char *text, const char *where);
void tf_request_add_place(tf_request *r, const char *buffer, const int *mems, int n, const char *where);

/* Appends everything in src to dst (initialised, usually empty): a deep copy. */
void tf_request_copy(tf_request *dst, const tf_request *src);
/* src's fields over dst's, as a later problem object's members over an
 * earlier one's: a keyed list's items (params, fix, domain, place) by
 * key, the later one moved last; requires appended; objectives, a string
 * or a flag replaced.  What src leaves empty stays. */
void tf_request_overlay(tf_request *dst, const tf_request *src);

#endif
