/* "Did you mean": the nearest of a list of names to a misspelt one, by
 * edit distance.  One rule for every name a user types: commands, options,
 * machines, worksets, params and variables. */
#ifndef TF_MODEL_SUGGEST_H
#define TF_MODEL_SUGGEST_H

#include <stddef.h>

#define TF_SUGGEST_MAX_DISTANCE 2

/* Damerau-Levenshtein distance (optimal string alignment: insert, delete,
 * substitute, swap two adjacent characters), counted up to
 * TF_SUGGEST_MAX_DISTANCE + 1; words longer than 63 bytes count as far. */
int tf_edit_distance(const char *a, const char *b);

/* The candidate nearest to `word` when it is within TF_SUGGEST_MAX_DISTANCE,
 * closer than the word is long, and the only one at that distance; else
 * NULL.  NULL entries of `candidates` are skipped. */
const char *tf_suggest(const char *word, const char *const *candidates, size_t n);

#endif
