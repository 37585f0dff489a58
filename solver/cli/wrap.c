/* Help text wrapped to 79 columns (wrap.h). */
#include "solver/cli/wrap.h"

#include <string.h>

void tf_cli_wrapped(FILE *f, const char *text, int col, int indent) {
  while (*text) {
    size_t word = strcspn(text, " ");
    if (col > indent && col + 1 + (int)word > 79) {
      fprintf(f, "\n%*s", indent, "");
      col = indent;
    } else if (col > indent) {
      fputc(' ', f);
      col++;
    }
    fwrite(text, 1, word, f);
    col += (int)word;
    text += word;
    text += strspn(text, " ");
  }
  fputc('\n', f);
}
