/* A machine's numbers as rows and as one JSON document. */
#include "solver/machine_json.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "model/core/text.h"
#include "solver/report.h"

size_t tf_machine_rows(const tf_machine *m, tf_machine_row *r) {
  size_t n = 0;
  snprintf(r[n].field, sizeof r[n].field, "arch");
  snprintf(r[n].text, sizeof r[n].text, "%s", m->arch);
  r[n].number = r[n].absent = 0;
  n++;
  int64_t v;
  int rc;
  for (size_t i = 0;
       n < TF_MACHINE_ROWS_MAX - 1 && (rc = tf_machine_field(m, i, r[n].field, sizeof r[n].field, &v)) >= 0; i++) {
    snprintf(r[n].text, sizeof r[n].text, rc ? "-" : "%lld", (long long)v);
    r[n].number = !rc, r[n].absent = rc;
    n++;
  }
  tf_strbuf b = tf_strbuf_of(r[n].text, sizeof r[n].text);
  for (int c = 0; c < m->smem.ncarveouts; c++)
    tf_strbuf_item(&b, ",", "%lld", (long long)m->smem.carveouts_kb[c]);
  snprintf(r[n].field, sizeof r[n].field, "smem.carveouts_kb");
  r[n].number = r[n].absent = 0;
  return n + 1;
}

const char *tf_machine_source_of(const tf_machine *m, const char *field) {
  for (size_t i = 0; i < m->nsources; i++)
    if (!strcmp(m->sources[i].field, field))
      return m->sources[i].text;
  return NULL;
}

int tf_machine_sources_file(const tf_machine *m, char *buf, size_t size) {
  const char *slash = strrchr(m->file, '/');
  snprintf(buf, size, "%.*sSOURCES.md", slash ? (int)(slash - m->file + 1) : 0, m->file);
  struct stat st;
  return !stat(buf, &st) && S_ISREG(st.st_mode);
}

void tf_machine_row_value(tf_json_out *w, const tf_machine_row *r) {
  if (r->absent)
    tf_json_out_null(w);
  else if (r->number)
    tf_json_out_raw(w, r->text, strlen(r->text));
  else
    tf_json_out_string(w, r->text);
}

void tf_machine_write_json(FILE *f, const tf_machine *m) {
  tf_machine_row r[TF_MACHINE_ROWS_MAX];
  size_t n = tf_machine_rows(m, r);
  tf_json_out w;
  tf_json_out_init(&w, f);
  tf_json_out_object(&w);
  tf_json_out_key_string(&w, "schema", TF_REPORT_SCHEMA);
  tf_json_out_key_string(&w, "name", m->name);
  tf_json_out_key_string(&w, "description", m->description);
  tf_json_out_key_string(&w, "file", m->file);
  tf_json_out_key_array(&w, "fields");
  for (size_t i = 0; i < n; i++) {
    tf_json_out_object(&w);
    tf_json_out_key_string(&w, "field", r[i].field);
    tf_json_out_key(&w, "value");
    tf_machine_row_value(&w, &r[i]);
    tf_json_out_key_string(&w, "source", tf_machine_source_of(m, r[i].field)); /* NULL: null */
    tf_json_out_end(&w);
  }
  tf_json_out_end(&w);
  char path[4200];
  tf_json_out_key_string(&w, "sources_file", tf_machine_sources_file(m, path, sizeof path) ? path : NULL);
  tf_json_out_end(&w);
  tf_json_out_line(&w);
}
