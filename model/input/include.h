/* A workset's "include": fragments of lets that several worksets share, so
 * that one rule is written once (model/worksets/include/: the GEMM tile
 * waves and their HBM traffic, attention's CTAs and causal K/V blocks).
 *
 *   "include": ["include/gemm-waves.json"]
 *
 * names files relative to the workset's own folder (the current directory
 * for a workset read from standard input).  A fragment is an object of
 * "comment" and "let"; its lets join the workset's after its own, as if the
 * workset declared them, and may use any name the workset has (an unknown
 * one is an error at binding, as in the workset).  A name the workset and
 * a fragment, or two fragments, both define is an error: a rule comes from
 * one place.  Each let's errors name the fragment ("include/x.json:
 * $.let.NAME") in the workset's file. */
#ifndef TF_MODEL_INCLUDE_H
#define TF_MODEL_INCLUDE_H

#include "model/core/error.h"
#include "model/input/workset.h"

struct cJSON;

/* Reads $.include, after the workset's own lets; nothing without it. */
int tf_include_read(tf_workset *w, const struct cJSON *root, tf_error *err);

#endif
