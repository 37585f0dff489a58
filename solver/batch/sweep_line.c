/* The framing of a sweep line, written (tf_sweep_line_prefix) and read
 * back (tf_sweep_line_position: resume and merge): its index in the whole
 * sweep, the sweep's total and the point's id, then the body. */
#include "solver/batch/sweep_internal.h"

#include <stdlib.h>
#include <string.h>

#include "model/json.h"
#include "model/json_out.h"

void tf_sweep_line_prefix(FILE *f, int format, size_t index, size_t total, const char *id) {
  if (format == TF_FORMAT_CSV) {
    fprintf(f, "%zu,%zu,", index, total);
    tf_csv_field(f, id);
    fputc(',', f);
  } else {
    fprintf(f, "{\"index\":%zu,\"total\":%zu,\"id\":", index, total);
    tf_json_write_string(f, id);
    fputs(",\"schema\":\"" TF_REPORT_SCHEMA "\",", f);
  }
}

/* "{"index":N,"total":T," or "N,T," at the start of a line. */
int tf_sweep_line_position(const char *line, int csv, size_t *index, size_t *total) {
  const char *p = line;
  if (!csv) {
    if (strncmp(p, "{\"index\":", 9))
      return -1;
    p += 9;
  }
  char *end;
  if (*p < '0' || *p > '9')
    return -1;
  *index = strtoull(p, &end, 10);
  p = end;
  const char *sep = csv ? "," : ",\"total\":";
  if (strncmp(p, sep, strlen(sep)))
    return -1;
  p += strlen(sep);
  if (*p < '0' || *p > '9')
    return -1;
  *total = strtoull(p, &end, 10);
  return *end == ',' ? 0 : -1;
}

