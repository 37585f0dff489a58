/* A map cell's colour and letters (cell_style.h). */
#include "solver/plot/cell_style.h"

#include <stdio.h>
#include <string.h>

#include "model/input/memory_kind.h"
#include "model/input/roofline.h"

const char *tf_plot_blocked_fill(int memory) {
  static const char *const fills[] = {"#9e9e9e", "#c8c8c8", "#6e6e6e", "#e6e6e6"}; /* smem tmem rf, constraint */
  return fills[memory >= 0 && memory < TF_NMEM ? memory : TF_NMEM];
}

const char *tf_plot_blocked_letter(int memory) {
  static const char *const letters[] = {"S", "T", "R", "C"};
  return letters[memory >= 0 && memory < TF_NMEM ? memory : TF_NMEM];
}

const char *tf_plot_blocked_mask_fill(unsigned mask) {
  /* by mask: constraint, S, T, ST, R, SR, TR, STR; the single memories as tf_plot_blocked_fill */
  static const char *const fills[] = {"#e6e6e6", "#9e9e9e", "#c8c8c8", "#b3b3b3",
                                      "#6e6e6e", "#858585", "#5a5a5a", "#464646"};
  return fills[mask < 8 ? mask : 7];
}

void tf_plot_blocked_text(unsigned mask, char *letters, size_t lsize, char *names, size_t nsize) {
  letters[0] = names[0] = 0;
  for (int m = 0; m < TF_NMEM; m++)
    if (mask & (1u << m)) {
      snprintf(letters + strlen(letters), lsize - strlen(letters), "%s", tf_plot_blocked_letter(m));
      snprintf(names + strlen(names), nsize - strlen(names), "%s%s", names[0] ? ", " : "", tf_memory_name(m));
    }
  if (!mask) {
    snprintf(letters, lsize, "%s", tf_plot_blocked_letter(TF_NMEM));
    snprintf(names, nsize, "constraint");
  }
}

/* A binding term's colour (bound_by 1 .. TF_TERM_HBM), one per term. */
const char *tf_plot_term_fill(int64_t term) {
  static const char *const fill[TF_TERM_HBM + 1] = {"#bbbbbb", "#4e79a7", "#f28e2b", "#59a14f",
                                                    "#b07aa1", "#76b7b2", "#e15759"};
  return fill[term >= 1 && term <= TF_TERM_HBM ? (int)term : 0];
}
