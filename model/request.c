#include "request.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"

void tf_request_init(tf_request *r) { memset(r, 0, sizeof *r); }

void tf_request_release(tf_request *r) {
  free(r->id);
  free(r->machine);
  free(r->workset);
  for (size_t i = 0; i < r->nparams; i++)
    free(r->params[i].name), free(r->params[i].where);
  for (size_t i = 0; i < r->nfixes; i++)
    free(r->fixes[i].name), free(r->fixes[i].where);
  for (size_t i = 0; i < r->ndomains; i++)
    free(r->domains[i].name), free(r->domains[i].values), free(r->domains[i].where);
  for (size_t i = 0; i < r->nrequires; i++)
    free(r->requires[i].text), free(r->requires[i].where);
  for (size_t i = 0; i < r->nobjectives; i++)
    free(r->objectives[i].text), free(r->objectives[i].where);
  for (size_t i = 0; i < r->nplaces; i++)
    free(r->places[i].buffer), free(r->places[i].where);
  free(r->places);
  free(r->params);
  free(r->fixes);
  free(r->domains);
  free(r->requires);
  free(r->objectives);
  tf_request_init(r);
}

void tf_request_add_param(tf_request *r, const char *name, int64_t value, const char *where) {
  tf_assign a = {tf_strdup(name), value, tf_strdup(where)};
  TF_PUSH(r->params, r->nparams, r->capparams, a);
}

void tf_request_add_fix(tf_request *r, const char *name, int64_t value, const char *where) {
  tf_assign a = {tf_strdup(name), value, tf_strdup(where)};
  TF_PUSH(r->fixes, r->nfixes, r->capfixes, a);
}

void tf_request_add_domain(tf_request *r, const char *name, const int64_t *values, size_t n,
                           const char *where) {
  tf_domain_req d = {tf_strdup(name), tf_nalloc(n, sizeof *values), n, tf_strdup(where)};
  memcpy(d.values, values, n * sizeof *values);
  TF_PUSH(r->domains, r->ndomains, r->capdomains, d);
}

void tf_request_add_require(tf_request *r, const char *text, const char *where) {
  tf_text_req t = {tf_strdup(text), tf_strdup(where)};
  TF_PUSH(r->requires, r->nrequires, r->caprequires, t);
}

void tf_request_add_objective(tf_request *r, const char *text, const char *where) {
  tf_text_req t = {tf_strdup(text), tf_strdup(where)};
  TF_PUSH(r->objectives, r->nobjectives, r->capobjectives, t);
}


void tf_request_add_place(tf_request *r, const char *buffer, const int *mems, int n, const char *where) {
  tf_place_req q = {tf_strdup(buffer), {0}, n < TF_PLACE_MAX_MEMS ? n : TF_PLACE_MAX_MEMS, tf_strdup(where)};
  memcpy(q.mems, mems, (size_t)q.nmems * sizeof *mems);
  TF_PUSH(r->places, r->nplaces, r->capplaces, q);
}

void tf_request_copy(tf_request *dst, const tf_request *src) {
  dst->id = src->id ? tf_strdup(src->id) : NULL;
  dst->machine = src->machine ? tf_strdup(src->machine) : NULL;
  dst->workset = src->workset ? tf_strdup(src->workset) : NULL;
  for (size_t i = 0; i < src->nparams; i++)
    tf_request_add_param(dst, src->params[i].name, src->params[i].value, src->params[i].where);
  for (size_t i = 0; i < src->nfixes; i++)
    tf_request_add_fix(dst, src->fixes[i].name, src->fixes[i].value, src->fixes[i].where);
  for (size_t i = 0; i < src->ndomains; i++)
    tf_request_add_domain(dst, src->domains[i].name, src->domains[i].values, src->domains[i].nvalues,
                          src->domains[i].where);
  for (size_t i = 0; i < src->nrequires; i++)
    tf_request_add_require(dst, src->requires[i].text, src->requires[i].where);
  for (size_t i = 0; i < src->nobjectives; i++)
    tf_request_add_objective(dst, src->objectives[i].text, src->objectives[i].where);
  for (size_t i = 0; i < src->nplaces; i++)
    tf_request_add_place(dst, src->places[i].buffer, src->places[i].mems, src->places[i].nmems, src->places[i].where);
  dst->any_arch = src->any_arch;
}
