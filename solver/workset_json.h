/* A workset in full as one JSON object (the library's "workset" request,
 * tilefit.workset() in Python): what `tilefit worksets NAME` prints as
 * text, in members a program can read:
 *   {"schema", "name", "description", "file", "arch": [...],
 *    "params": {NAME: default}, "choose": {NAME: [values]},
 *    "count": {NAME: {"min": , "max": }}, "let": {NAME: "EXPR"},
 *    "buffers": [{"name", "memory", "place": [...], "size", "align"}],
 *    "require": ["EXPR", ...], "objective": ["max EXPR", ...]}
 * A default that is an integer literal is a number, any other expression
 * its text ("dv": "d"). */
#ifndef TF_SOLVER_WORKSET_JSON_H
#define TF_SOLVER_WORKSET_JSON_H

#include <stdio.h>

#include "model/input/workset.h"

void tf_workset_write_json(FILE *f, const tf_workset *w);

#endif
