/* A map cell's colour and letters, which the cells (map_draw.c) and the
 * legend (map_legend.c) both draw: the grey and letters of a cell that
 * memories (or a constraint) rule out, and the colour of a binding term. */
#ifndef TF_SOLVER_PLOT_CELL_STYLE_H
#define TF_SOLVER_PLOT_CELL_STYLE_H

#include <stddef.h>
#include <stdint.h>

/* The fill and letter of a memory that overflows (TF_NMEM: a constraint
 * rules the cell out). */
const char *tf_plot_blocked_fill(int memory);
const char *tf_plot_blocked_letter(int memory);

/* The fill of a cell blocked by the memories of `mask` (bit m: memory m;
 * 0: a constraint): one grey per combination, a single memory's the one
 * tf_plot_blocked_fill gives. */
const char *tf_plot_blocked_mask_fill(unsigned mask);

/* A blocked cell's letters ("SR") and memory list ("smem, rf"). */
void tf_plot_blocked_text(unsigned mask, char *letters, size_t lsize, char *names, size_t nsize);

/* A binding term's colour (bound_by 1 .. TF_TERM_HBM, model/input/roofline.h), one per term. */
const char *tf_plot_term_fill(int64_t term);

#endif
