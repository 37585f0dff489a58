/* A machine in full, shared by `tilefit machines` and the library's
 * "machine" request (solver/api.h): its numbers as rows (by source key,
 * in the loader's order) and as one JSON document. */
#ifndef TF_SOLVER_MACHINE_JSON_H
#define TF_SOLVER_MACHINE_JSON_H

#include <stddef.h>
#include <stdio.h>

#include "model/core/json_out.h"
#include "model/input/machine.h"

#define TF_MACHINE_ROWS_MAX 64

/* One number of a machine, by its source key, as text ("-": the machine
 * has no such field); `number` when it is a JSON number. */
typedef struct tf_machine_row {
  char field[48];
  char text[128];
  int number, absent;
} tf_machine_row;

/* arch, every integer field in the loader's order, the carveouts, into
 * r[] (room for TF_MACHINE_ROWS_MAX); returns how many. */
size_t tf_machine_rows(const tf_machine *m, tf_machine_row *r);

/* The source the machine's file gives for a field, or NULL. */
const char *tf_machine_source_of(const tf_machine *m, const char *field);

/* SOURCES.md beside the machine's file, which lists the source keys the
 * files cite (S1, S9, ...), into buf; 0 when there is none. */
int tf_machine_sources_file(const tf_machine *m, char *buf, size_t size);

/* A row's value: its number as written, null when absent, else its text. */
void tf_machine_row_value(tf_json_out *w, const tf_machine_row *r);

/* `tilefit machines NAME --json`: name, description, file, every field
 * with its value and source, the sources file; newline-terminated. */
void tf_machine_write_json(FILE *f, const tf_machine *m);

#endif
