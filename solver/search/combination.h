/* Internal to solver/search/: the search of one combination over its boxes
 * of counts, which both the search of a bound problem (search.c) and the
 * search over boxes of combinations (space.c) run for each combination
 * they open.  Not part of the API. */
#ifndef TF_SEARCH_COMBINATION_H
#define TF_SEARCH_COMBINATION_H

#include "solver/search/search_internal.h"

/* Searches combination c (a kept slot) to the end when its bound over the
 * counts' box `full` can still win; score is scratch (nobj).  The k best
 * points go into s->best. */
void tf_search_open_root(struct search *s, size_t c, const tf_box *full, tf_wide *score);

#endif
