/* The let tables (let_table.h). */
#include "model/input/let_table.h"

#include <stdlib.h>
#include <string.h>

#include "model/core/text.h"
#include "model/input/let_add.h"

/* The row's text with each "{K}" replaced by vals[K] (a K past nvals is
 * the table's bug, kept as written so that the let's error shows it). */
static char *expand(const char *text, const char *const *vals, size_t nvals) {
  tf_text t;
  FILE *f = tf_text_open(&t);
  for (const char *s = text; *s; s++) {
    size_t k = (size_t)(s[1] - '0');
    if (s[0] == '{' && s[1] >= '0' && s[1] <= '9' && s[2] == '}' && k < nvals) {
      fputs(vals[k], f);
      s += 2;
    } else {
      fputc(*s, f);
    }
  }
  return tf_text_close(&t, NULL);
}

int tf_let_rows_add(tf_workset *w, const tf_let_row *rows, size_t n, unsigned have, const char *const *vals,
                    size_t nvals, const char *path, tf_error *err) {
  for (size_t i = 0; i < n; i++) {
    if ((rows[i].when & ~have) != 0)
      continue;
    char *text = expand(rows[i].text, vals, nvals); /* never NULL: tf_text_close (text.h) */
    int r = tf_workset_add_let(w, rows[i].name, text, path, err);
    free(text);
    if (r)
      return -1;
  }
  return 0;
}

int tf_let_rows_define(const tf_let_row *rows, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(rows[i].name, name))
      return 1;
  return 0;
}
