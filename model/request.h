/* What a user asks of a workset on a machine: param values, fixes,
 * narrowed domains, extra constraints and objectives, each with where it
 * came from ("-p d", "line 3: $.params.d") so that errors can name it.
 * Built by the option parser or from a JSON problem line. */
#ifndef TF_MODEL_REQUEST_H
#define TF_MODEL_REQUEST_H

#include <stddef.h>
#include <stdint.h>

typedef struct tf_assign {
  char *name;
  int64_t value;
  char *where;   /* "-p d", "$.params.d": names the origin in errors */
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
#define TF_PLACE_MAX_MEMS 3
typedef struct tf_place_req {
  char *buffer;
  int mems[TF_PLACE_MAX_MEMS];
  int nmems;
  char *where;
} tf_place_req;

typedef struct tf_request {
  char *id;                     /* optional, from a problem line */
  char *machine, *workset;      /* shipped name or path */
  tf_assign *params;      size_t nparams, capparams;
  tf_assign *fixes;       size_t nfixes, capfixes;
  tf_domain_req *domains; size_t ndomains, capdomains;
  tf_text_req *requires;  size_t nrequires, caprequires;
  tf_text_req *objectives; size_t nobjectives, capobjectives;
  tf_place_req *places;   size_t nplaces, capplaces;
  int any_arch;                 /* solve a workset on an architecture it does not declare */
} tf_request;

void tf_request_init(tf_request *r);
void tf_request_release(tf_request *r);
void tf_request_add_param(tf_request *r, const char *name, int64_t value, const char *where);
void tf_request_add_fix(tf_request *r, const char *name, int64_t value, const char *where);
void tf_request_add_domain(tf_request *r, const char *name, const int64_t *values, size_t n,
                           const char *where);
void tf_request_add_require(tf_request *r, const char *text, const char *where);
void tf_request_add_objective(tf_request *r, const char *text, const char *where);
/* A deep copy into an initialised, empty dst. */
void tf_request_copy(tf_request *dst, const tf_request *src);
void tf_request_add_place(tf_request *r, const char *buffer, const int *mems, int n, const char *where);

/* Appends everything in src to dst (initialised, usually empty): a deep copy. */
void tf_request_copy(tf_request *dst, const tf_request *src);

#endif
