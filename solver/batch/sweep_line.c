/* The framing of a sweep line, written (tf_sweep_line_prefix) and read
 * back (tf_sweep_line_position: resume and merge): its index in the whole
 * sweep, the sweep's total and the point's id, then the body. */
#include "solver/batch/sweep_internal.h"

#include <stdlib.h>
#include <string.h>

#include "model/core/json_out.h"

void tf_sweep_line_prefix(tf_json_out *w, FILE *f, int format, size_t index, size_t total, const char *id) {
  tf_json_out_init(w, f);
  if (format == TF_FORMAT_CSV) {
    fprintf(f, "%zu,%zu,", index, total);
    tf_csv_field(f, id);
    fputc(',', f);
    return;
  }
  tf_json_out_object(w);
  tf_json_out_key_int(w, "index", (int64_t)index);
  tf_json_out_key_int(w, "total", (int64_t)total);
  tf_json_out_key_string(w, "id", id);
  tf_json_out_key_string(w, "schema", TF_REPORT_SCHEMA);
}

void tf_sweep_line_end(tf_json_out *w, int format) {
  if (format == TF_FORMAT_CSV)
    return; /* a CSV row ends its own line */
  tf_json_out_end(w);
  tf_json_out_line(w);
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
