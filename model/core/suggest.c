#include "model/core/suggest.h"

#include <string.h>

#define MAXLEN 63

int tf_edit_distance(const char *a, const char *b) {
  size_t n = strlen(a), m = strlen(b);
  const int far = TF_SUGGEST_MAX_DISTANCE + 1;
  if (n > MAXLEN || m > MAXLEN)
    return far;
  if ((n > m ? n - m : m - n) >= (size_t)far)
    return far; /* every edit changes the length by at most one */
  /* d[i][j]: distance between the first i bytes of a and the first j of b */
  int d[MAXLEN + 1][MAXLEN + 1];
  for (size_t i = 0; i <= n; i++)
    d[i][0] = (int)i;
  for (size_t j = 0; j <= m; j++)
    d[0][j] = (int)j;
  for (size_t i = 1; i <= n; i++)
    for (size_t j = 1; j <= m; j++) {
      int cost = a[i - 1] != b[j - 1];
      int best = d[i - 1][j - 1] + cost;
      if (d[i - 1][j] + 1 < best)
        best = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < best)
        best = d[i][j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
        best = d[i - 2][j - 2] + 1; /* a transposition, "slove" -> "solve" */
      d[i][j] = best;
    }
  return d[n][m] < far ? d[n][m] : far;
}

const char *tf_suggest(const char *word, const char *const *candidates, size_t n) {
  const char *best = NULL;
  int best_d = TF_SUGGEST_MAX_DISTANCE + 1, ties = 0;
  for (size_t i = 0; i < n; i++) {
    if (!candidates[i] || !strcmp(candidates[i], word))
      continue;
    int d = tf_edit_distance(word, candidates[i]);
    if (d < best_d)
      best = candidates[i], best_d = d, ties = 0;
    else if (best && d == best_d && strcmp(candidates[i], best))
      ties++;
  }
  if (!best || ties || (size_t)best_d >= strlen(word))
    return NULL;
  return best;
}
