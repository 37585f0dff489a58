/* The memo keys of a sweep: a bound problem's canonical text, and the
 * exact content of an integer program. */
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

/* The exact content of an integer program: what GLPK is given, without
 * the names, which do not change its answer. */
char *tf_sweep_ilp_key(const tf_ilp *ilp, size_t *len) {
  tf_text t;
  FILE *f = tf_text_open(&t);
  size_t head[3] = {ilp->ncols, ilp->nrows, ilp->nobjs};
  fwrite(head, sizeof head, 1, f);
  for (size_t j = 0; j < ilp->ncols; j++) {
    const tf_ilp_col *c = &ilp->cols[j];
    fwrite(&c->kind, sizeof c->kind, 1, f);
    fwrite(&c->lo, sizeof c->lo, 1, f);
    fwrite(&c->hi, sizeof c->hi, 1, f);
  }
  for (size_t i = 0; i < ilp->nrows; i++) {
    const tf_ilp_row *r = &ilp->rows[i];
    fwrite(&r->sense, sizeof r->sense, 1, f);
    fwrite(&r->rhs, sizeof r->rhs, 1, f);
    fwrite(&r->lin.n, sizeof r->lin.n, 1, f);
    fwrite(r->lin.ind, sizeof *r->lin.ind, r->lin.n, f);
    fwrite(r->lin.val, sizeof *r->lin.val, r->lin.n, f);
  }
  for (size_t o = 0; o < ilp->nobjs; o++) {
    const tf_ilp_obj *ob = &ilp->objs[o];
    fwrite(&ob->maximize, sizeof ob->maximize, 1, f);
    fwrite(&ob->lin.n, sizeof ob->lin.n, 1, f);
    fwrite(ob->lin.ind, sizeof *ob->lin.ind, ob->lin.n, f);
    fwrite(ob->lin.val, sizeof *ob->lin.val, ob->lin.n, f);
  }
  return tf_text_close(&t, len);
}

