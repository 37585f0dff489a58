/* The memo keys of a sweep: a bound problem's canonical text, and the
 * exact content of a search problem. */
#include "solver/batch/sweep_internal.h"

#include <stdlib.h>
#include <string.h>

#include "model/bind/memory.h"
#include "model/core/json.h"
#include "model/core/json_out.h"
#include "model/core/text.h"

/* The bound params: every param of the workset, defaults filled, in the
 * workset's order, so that "d=64" and "d=64 dv=64" (dv defaulting to d)
 * and either order of them are one problem. */
static void bound_params(tf_json_out *w, const tf_problem *p) {
  tf_json_out_object(w);
  for (size_t i = 0; i < p->workset->nparams; i++)
    tf_json_out_key_int(w, p->workset->params[i].name, p->param_values[i]);
  tf_json_out_end(w);
}

/* The canonical serialisation of the whole request (model/input/request.h's
 * table): every field the table puts in the memo key, as a problem line
 * writes it, params as bound; then whether it is a check.  A field added
 * to the table is in the key unless its row says it must not be. */
char *tf_sweep_key(const tf_request *req, const tf_problem *p, int check, size_t *len) {
  tf_text t;
  tf_json_out w;
  tf_json_out_init(&w, tf_text_open(&t));
  tf_json_out_object(&w);
  for (size_t i = 0; i < TF_NREQUEST_FIELDS; i++) {
    const tf_request_field *fd = &tf_request_fields[i];
    if (fd->memo == TF_RQ_NO)
      continue;
    tf_json_out_key(&w, fd->key);
    if (fd->memo == TF_RQ_BOUND)
      bound_params(&w, p);
    else
      tf_request_write_field(&w, req, i);
  }
  tf_json_out_key_bool(&w, "check", check);
  tf_json_out_end(&w);
  return tf_text_close(&t, len);
}

/* The exact content of a search problem: what the exact search reads
 * (solver/search/search.h), without the choose values, which name its answer's
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
  for (size_t b = 0; b < p->nbuffers; b++) /* lifetimes change what a memory is charged (model/bind/memory.h) */
    fwrite(&p->workset->buffers[b].lifetime, sizeof p->workset->buffers[b].lifetime, 1, f);
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
  /* every combination's forms, buffers then rows then objectives, as they
   * were laid out before the forms were shared (the same key bytes) */
  for (size_t c = 0; c < p->ncombos; c++)
    for (size_t b = 0; b < p->nbuffers; b++)
      fwrite(tf_problem_buf(p, c, b), sizeof(int64_t), stride, f);
  for (size_t c = 0; c < p->ncombos; c++)
    for (size_t r = 0; r < p->nrequire; r++)
      fwrite(tf_problem_row(p, c, r), sizeof(int64_t), stride, f);
  for (size_t c = 0; c < p->ncombos; c++)
    for (size_t o = 0; o < p->nobjective; o++)
      fwrite(tf_problem_obj(p, c, o), sizeof(int64_t), stride, f);
  return tf_text_close(&t, len);
}
