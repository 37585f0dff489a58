/* The exact search: the K lexicographically best points of a bound
 * problem, proven in integers.
 *
 * Nodes are (combination, box of counts).  Every node carries exact
 * bounds (bound.c; its objective levels lowered by relax.c's relaxation): a node no point of which fits is dropped; a node whose
 * every point fits yields its best point directly; any other node is split
 * in two along its widest count range.  Each objective level is bounded on
 * its own, so a node's bound vector is lexicographically at least as good
 * as every point in it, and a node whose bound cannot beat the K-th best
 * point found so far is dropped.  The combinations with the best bound
 * over their full box are searched first, for an incumbent; then each
 * other combination is opened only when its bound can still win, and its
 * boxes are opened best bound first; most combinations are never opened.
 *
 * The order is total: objective values lexicographically (each level in
 * its own sense), then, on ties, the combination that comes first in
 * enumeration order, then the lexicographically smallest counts -- the
 * order in which the exhaustive oracle (oracle.c) meets points, so both
 * name the same point.
 *
 * A problem of at most 16 count values per combination (no counts, or
 * ranges of a few values) is scanned instead: the same best-bounded
 * combination first and the same pass, but an opened combination's box is
 * narrowed once and its points visited one by one, each scored exactly and
 * classified only when it beats the K-th best so far (compared by the
 * whole key, so the order of the visit does not matter): there the boxes
 * cost more than the points (bench/engine.md).  Both give the same
 * points. */
#ifndef TF_ENCODE_SEARCH_H
#define TF_ENCODE_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "model/bind/problem.h"
#include "model/core/error.h"

typedef struct tf_found {
  size_t combo;
  int64_t counts[TF_MAX_COUNTS];
} tf_found;

typedef struct tf_search_stats {
  size_t nodes;  /* boxes bounded */
  size_t opened; /* boxes taken from the queue */
  int scanned;   /* 1: scanned point by point (nodes: points scored) */
} tf_search_stats;

/* Finds the k best points (k >= 1) into found[0..*n-1], best first; *n is
 * 0 when no point fits.  time_limit_s > 0 bounds the whole search in
 * wall-clock seconds (CLOCK_MONOTONIC), the problem's binding
 * (p->bind_seconds) included: past it the search stops with TF_ESOLVER
 * (nothing unproven is returned).  stats may be NULL. */
int tf_search(const tf_problem *p, size_t k, double time_limit_s, tf_found *found, size_t *n, tf_search_stats *stats,
              tf_error *err);

/* The same, by boxes whatever the problem's size (no scan): what tests
 * hold the scan to. */
int tf_search_boxes(const tf_problem *p, size_t k, double time_limit_s, tf_found *found, size_t *n,
                    tf_search_stats *stats, tf_error *err);

#endif
