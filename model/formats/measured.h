/* A published measurement of a real kernel, as a validation line of kind
 * "measured" (model/formats/case.h reads the line; docs/validating.md):
 *   {"id": ..., "group": "fa2-a100-d64-s2048", "machine": "a100",
 *    "workset": "fa2-fwd", "params": {"d": 64}, "config": {"B_r": 128},
 *    "flops": 274877906944, "measured": {"tflops": 784},
 *    "source": "...", "ref": "...", "provenance": "text", "gpu": "...",
 *    "kernel": "...", "note": "..."}
 * `config` is the configuration the kernel ran: choose variables and
 * counts, fixed when the point is solved, freed for the group's ranking;
 * a name that is one of the workset's params is given as a param.
 * `measured` holds exactly one of tflops (with flops), time_ms, or
 * relative_time (comparable within its group only). */
#ifndef TF_MODEL_MEASURED_H
#define TF_MODEL_MEASURED_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "model/core/error.h"
#include "model/input/request.h"

enum tf_measure { TF_MEASURE_TFLOPS, TF_MEASURE_TIME_MS, TF_MEASURE_RELATIVE, TF_NMEASURES };

typedef struct tf_measured {
  int present; /* the line has "measured" */
  char *group, *source, *ref, *provenance, *gpu, *kernel, *note;
  int64_t flops;     /* 0: not given */
  int measure;       /* enum tf_measure */
  double value;      /* positive, finite */
  tf_assign *config; /* name, value, where ("line 3: $.config.B_r") */
  size_t nconfig;
} tf_measured;

/* The line keys this module reads (NULL-terminated), for the case reader's
 * list of allowed keys. */
extern const char *const tf_measured_keys[];
/* The provenances a line may state ("text", "code-comment", ...). */
extern const char *const tf_measured_provenances[];

void tf_measured_init(tf_measured *m);
void tf_measured_release(tf_measured *m);

/* Reads the measured keys of `root`, if it has any; `base` is the path of
 * root itself ("line 3: $").  A line with "measured" must have group,
 * source, ref and provenance; flops with tflops. */
int tf_measured_read(const cJSON *root, const char *base, tf_measured *m, tf_error *err);

/* The measured time in ns; -1 for a relative time (no absolute time). */
double tf_measured_ns(const tf_measured *m);

/* "tflops", "time_ms", "relative_time". */
const char *tf_measure_name(int measure);

#endif
