/* The model's measured error on a workset's kernel, per machine:
 *
 *   "measured_error": {"h100-sxm": {"points": 26, "rms_permille": 57,
 *                                   "source": "tests/data/measured ..."}}
 *
 * the root mean square of log(predicted / measured time) over the published
 * times of that kernel on that machine, in per mille (docs/cost-model.md,
 * against published measurements).  `make measured-report` computes it from
 * tests/data/measured and refuses a workset whose numbers differ, so it is
 * the report's number, kept where `--top --explain` can read it. */
#ifndef TF_MODEL_MEASURED_ERROR_H
#define TF_MODEL_MEASURED_ERROR_H

#include "model/core/error.h"
#include "model/input/workset.h"

struct cJSON;

/* Reads $.measured_error (absent: none). */
int tf_measured_error_read(tf_workset *w, const struct cJSON *root, tf_error *err);

#endif
