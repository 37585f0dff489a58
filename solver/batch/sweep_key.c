/* The memo keys of a sweep: a bound problem's canonical text, and the
 * exact content of a search problem. */
#include "solver/batch/sweep_internal.h"

#include <stdlib.h>
#include <string.h>

#include "model/text.h"

char *tf_sweep_key(const tf_request *req, const tf_problem *p, int check, size_t *len) {
  tf_text t;
  FILE *f = tf_text_open(&t);
  fprintf(f, "m=%s\037w=%s\037p=", req->machine, req->workset);
  for (size_t i = 0; i < p->workset->nparams; i++)
    fprintf(f, "%lld,", (long long)p->param_values[i]);
  fputs("\037f=", f);
  for (size_t i = 0; i < req->nfixes; i++)
    fprintf(f, "%s=%lld\036", req->fixes[i].name, (long long)req->fixes[i].value);
  fputs("\037d=", f);
  for (size_t i = 0; i < req->ndomains; i++) {
    fprintf(f, "%s:", req->domains[i].name);
    for (size_t k = 0; k < req->domains[i].nvalues; k++)
      fprintf(f, "%lld,", (long long)req->domains[i].values[k]);
    fputc('\036', f);
  }
  fputs("\037r=", f);
  for (size_t i = 0; i < req->nrequires; i++)
    fprintf(f, "%s\036", req->requires[i].text);
  fputs("\037o=", f);
  for (size_t i = 0; i < req->nobjectives; i++)
    fprintf(f, "%s\036", req->objectives[i].text);
  fprintf(f, "\037k=%d", check);
  return tf_text_close(&t, len);
}

/* The exact content of a search problem: what the exact search reads
 * (encode/search.h), without the choose values, which name its answer's
 * combination but do not change which index wins. */
char *tf_sweep_search_key(const tf_problem *p, size_t *len) {
  tf_text t;
  FILE *f = tf_text_open(&t);
  size_t stride = tf_problem_stride(p);
  size_t head[5] = {p->ncombos, (size_t)p->ncounts, p->nbuffers, p->nrequire, p->nobjective};
  fwrite(head, sizeof head, 1, f);
  for (int m = 0; m < TF_NMEM; m++) {
    int64_t cap = tf_memory_capacity_max(p, m);
    fwrite(&cap, sizeof cap, 1, f);
  }
  fwrite(p->count_lo, sizeof *p->count_lo, (size_t)p->ncounts, f);
  fwrite(p->count_hi, sizeof *p->count_hi, (size_t)p->ncounts, f);
  fwrite(p->align, sizeof *p->align, p->nbuffers, f);
  fwrite(p->count_dependent, sizeof *p->count_dependent, p->nbuffers, f);
  fwrite(p->row_kind, sizeof *p->row_kind, p->nrequire, f);
  for (size_t o = 0; o < p->nobjective; o++)
    fwrite(&p->objective[o].maximize, sizeof p->objective[o].maximize, 1, f);
  for (size_t c = 0; c < p->ncombos; c++) { /* where each buffer lives, and each memory's capacity */
    for (size_t b = 0; b < p->nbuffers; b++) {
      int m = tf_memory_of(p, b, c);
      fwrite(&m, sizeof m, 1, f);
    }
    for (int m = 0; m < TF_NMEM; m++) {
      int64_t cap = tf_memory_capacity(p, m, c);
      fwrite(&cap, sizeof cap, 1, f);
    }
  }
  fwrite(p->buf, sizeof *p->buf, p->ncombos * p->nbuffers * stride, f);
  fwrite(p->row, sizeof *p->row, p->ncombos * p->nrequire * stride, f);
  fwrite(p->obj, sizeof *p->obj, p->ncombos * p->nobjective * stride, f);
  return tf_text_close(&t, len);
}
