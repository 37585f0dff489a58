#include "map.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/bind/memory.h"
#include "model/bind/place_bind.h"
#include "model/bind/value.h"
#include "model/core/alloc.h"
#include "solver/plot/scale.h"

static int find_choose(const tf_problem *p, const char *name, const char *where, tf_error *err) {
  for (size_t i = 0; i < tf_place_nnumeric(p); i++) /* placements are not axes */
    if (!strcmp(p->choose_names[i], name))
      return (int)i;
  char list[256] = "";
  for (size_t i = 0; i < tf_place_nnumeric(p); i++)
    snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", p->choose_names[i]);
  return tf_error_set(err, TF_EINPUT, where, "'%s' is not a choose variable of %s (choose: %s)", name, p->workset->name,
                      list);
}

/* The user's request plus x and y fixed (unless the user fixed them). */
static void cell_request(const tf_request *src, const char *x, int64_t xv, const char *y, int64_t yv, tf_request *dst) {
  tf_request_init(dst);
  tf_request_copy(dst, src);
  int fixed_x = 0, fixed_y = 0;
  for (size_t i = 0; i < src->nfixes; i++) {
    fixed_x |= !strcmp(src->fixes[i].name, x);
    fixed_y |= !strcmp(src->fixes[i].name, y);
  }
  if (!fixed_x)
    tf_request_add_fix(dst, x, xv, "@x");
  if (!fixed_y)
    tf_request_add_fix(dst, y, yv, "@y");
}

/* Which memories the point overflows (bit m: memory m), and by how much
 * the first of them does; 0 and excess 0 when every memory fits. */
static unsigned point_blocked(const tf_problem *p, const tf_point *pt, int64_t *excess) {
  unsigned mask = 0;
  *excess = 0;
  for (int m = TF_NMEM; m-- > 0;) {
    int64_t cap = tf_memory_capacity_at(p, m, pt->choose);
    if (pt->used[m] > cap) {
      mask |= 1u << m;
      *excess = pt->used[m] - cap;
    }
  }
  return mask;
}

/* Why an infeasible cell is: over every combination of the other choose
 * variables at the smallest counts, the overflows of the one closest to
 * fitting (none, a constraint, when one of them fits every memory). */
static unsigned cell_blocked(const tf_problem *p) {
  size_t idx[TF_MAX_CHOOSE] = {0}, total = 1;
  for (size_t i = 0; i < p->nchoose; i++)
    total *= p->ndomain[i]; /* bounded by TF_MAX_COMBINATIONS when p was built */
  int64_t choose[TF_MAX_CHOOSE], best_excess = INT64_MAX;
  unsigned best = 0;
  tf_point pt;
  tf_point_init(&pt, p);
  for (size_t n = 0; n < total; n++) {
    for (size_t i = 0; i < p->nchoose; i++)
      choose[i] = p->domain[i][idx[i]];
    tf_error e;
    tf_error_init(&e);
    int64_t excess;
    if (!tf_problem_eval_point(p, choose, p->count_lo, &pt, &e)) {
      unsigned mask = point_blocked(p, &pt, &excess);
      if (excess < best_excess) {
        best_excess = excess;
        best = mask;
      }
    }
    for (size_t i = p->nchoose; i-- > 0;) {
      if (++idx[i] < p->ndomain[i])
        break;
      idx[i] = 0;
    }
  }
  tf_point_release(&pt);
  return best;
}

/* The colour value of an answer: the expression, else the first count,
 * else the first objective. */
static int answer_value(const tf_problem *p, const tf_answer *a, const tf_expr *color, int64_t *v, tf_error *err) {
  if (color)
    return tf_problem_value(p, a->choose, a->counts, color, v, err);
  if (p->ncounts > 0) {
    *v = a->counts[0];
    return 0;
  }
  *v = a->point.objective[0];
  return 0;
}

/* A choose variable the map leaves free: neither axis, more than one value. */
static int is_free(const tf_problem *p, const tf_plot_map_opts *o, size_t i) {
  return p->ndomain[i] > 1 && strcmp(p->choose_names[i], o->x) && strcmp(p->choose_names[i], o->y);
}

/* The free variables at `choose`: "q_stage=2 P=rf" (a placement by its memory). */
static void free_values(const tf_problem *p, const tf_plot_map_opts *o, const int64_t *choose, char *out, size_t size) {
  size_t n = 0;
  out[0] = 0;
  for (size_t i = 0; i < p->nchoose && n < size; i++) {
    if (!is_free(p, o, i))
      continue;
    if (tf_place_is_var(p, i))
      n += (size_t)snprintf(out + n, size - n, "%s%s=%s", n ? " " : "", p->choose_names[i],
                            tf_memory_name(tf_place_memory(p, i, choose[i])));
    else
      n += (size_t)snprintf(out + n, size - n, "%s%s=%lld", n ? " " : "", p->choose_names[i], (long long)choose[i]);
  }
}

/* "q_stage {1, 2}, P {rf, smem}": the free variables and their values, ""
 * when none. */
static void free_note(const tf_problem *p, const tf_plot_map_opts *o, char *out, size_t size) {
  size_t n = 0;
  out[0] = 0;
  for (size_t i = 0; i < p->nchoose && n < size; i++) {
    if (!is_free(p, o, i))
      continue;
    n += (size_t)snprintf(out + n, size - n, "%s%s in {", n ? ", " : "", p->choose_names[i]);
    for (size_t k = 0; k < p->ndomain[i] && n < size; k++) {
      int64_t v = p->domain[i][k];
      if (k == 6) {
        n += (size_t)snprintf(out + n, size - n, ", ...");
        break;
      }
      if (tf_place_is_var(p, i))
        n += (size_t)snprintf(out + n, size - n, "%s%s", k ? ", " : "", tf_memory_name(tf_place_memory(p, i, v)));
      else
        n += (size_t)snprintf(out + n, size - n, "%s%lld", k ? ", " : "", (long long)v);
    }
    if (n < size)
      n += (size_t)snprintf(out + n, size - n, "}");
  }
}

/* Whether the colour is a size in bytes: used/slack/capacity of a memory
 * counted in bytes, or a name ending in "bytes". */
static int bytes_valued(const char *color) {
  char mem[32];
  size_t len = strlen(color);
  if (len >= 5 && !strcmp(color + len - 5, "bytes"))
    return 1;
  for (int m = 0; m < TF_NMEM; m++) {
    static const char *const fns[] = {"used", "slack", "capacity"};
    for (size_t f = 0; f < 3; f++) {
      snprintf(mem, sizeof mem, "%s(%s)", fns[f], tf_memory_name(m));
      if (!strcmp(color, mem))
        return !strcmp(tf_memory_unit(m), "B");
    }
  }
  return 0;
}

static int solve_cell(const tf_problem *p0, const tf_request *req, const tf_plot_map_opts *o, const tf_expr *color,
                      tf_plot_map *m, size_t ix, size_t iy, tf_error *err) {
  tf_request cr;
  cell_request(req, o->x, m->xs[ix], o->y, m->ys[iy], &cr);
  tf_problem *p = tf_problem_new(p0->machine, p0->workset, &cr, err);
  tf_plot_cell *cell = &m->cells[iy * m->nx + ix];
  int rc = p ? 0 : -1;
  tf_answer a;
  if (p) {
    tf_answer_init(&a, p);
    rc = tf_solve(p, o->solve, NULL, &a, err);
    if (!rc && a.status == TF_ANSWER_OPTIMAL) {
      cell->feasible = 1;
      free_values(p0, o, a.choose, cell->free_at, sizeof cell->free_at);
      rc = answer_value(p, &a, color, &cell->value, err);
    } else if (!rc) {
      snprintf(cell->why, sizeof cell->why, "%s", a.why);
      cell->blocked = cell_blocked(p);
    }
    tf_answer_release(&a);
  }
  tf_problem_free(p);
  tf_request_release(&cr);
  return rc;
}

static void axis_values(const tf_problem *p, int i, int64_t *vals, size_t *n) {
  *n = p->ndomain[i];
  memcpy(vals, p->domain[i], *n * sizeof *vals);
  /* ascending, so that the axes read left to right and bottom to top */
  for (size_t a = 1; a < *n; a++)
    for (size_t b = a; b > 0 && vals[b - 1] > vals[b]; b--) {
      int64_t t = vals[b];
      vals[b] = vals[b - 1];
      vals[b - 1] = t;
    }
}

/* "fa4-fwd on b200 (d=128, q_stage=2): stages at the best point of each
 * cell" and "objective: ...". */
static void titles(const tf_problem *p, const tf_request *req, tf_plot_map *m) {
  char given[192] = "";
  size_t n = 0;
  for (size_t i = 0; i < req->nparams + req->nfixes && n < sizeof given; i++) {
    int param = i < req->nparams;
    const char *name = param ? req->params[i].name : req->fixes[i - req->nparams].name;
    long long v = param ? (long long)req->params[i].value : (long long)req->fixes[i - req->nparams].value;
    n += (size_t)snprintf(given + n, sizeof given - n, "%s%s=%lld", n ? ", " : " (", name, v);
  }
  if (n && n + 2 < sizeof given)
    strcat(given, ")");
  snprintf(m->title, sizeof m->title, "%s on %s%s: %s at the best point of each cell", p->workset->name,
           p->machine->name, given, m->color_label);
  n = 0;
  for (size_t i = 0; i < p->nobjective_shown && n < sizeof m->subtitle; i++)
    n += (size_t)snprintf(m->subtitle + n, sizeof m->subtitle - n, "%s%s",
                          i ? ", " : "objective: ", p->objective[i].text);
}

/* The axes and the outlined optimum, from the problem as the user gave it. */
static int map_frame(const tf_problem *p, const tf_plot_map_opts *o, tf_plot_map *m, tf_error *err) {
  int ix = find_choose(p, o->x, "@x", err), iy = ix < 0 ? -1 : find_choose(p, o->y, "@y", err);
  if (ix < 0 || iy < 0)
    return -1;
  if (ix == iy)
    return tf_error_set(err, TF_EINPUT, "@y", "'%s' is already the x axis", o->y);
  if (p->ndomain[ix] > TF_PLOT_MAX_AXIS || p->ndomain[iy] > TF_PLOT_MAX_AXIS)
    return tf_error_set(err, TF_EINPUT, p->ndomain[ix] > TF_PLOT_MAX_AXIS ? "@x" : "@y",
                        "more than %d values on the axis; narrow it with @{domain}", TF_PLOT_MAX_AXIS);
  snprintf(m->x_name, sizeof m->x_name, "%s", o->x);
  snprintf(m->y_name, sizeof m->y_name, "%s", o->y);
  axis_values(p, ix, m->xs, &m->nx);
  axis_values(p, iy, m->ys, &m->ny);
  tf_answer a;
  tf_answer_init(&a, p);
  int rc = tf_solve(p, o->solve, NULL, &a, err);
  if (!rc && a.status == TF_ANSWER_OPTIMAL) {
    m->has_best = 1;
    for (size_t i = 0; i < m->nx; i++)
      if (m->xs[i] == a.choose[ix])
        m->best_ix = i;
    for (size_t i = 0; i < m->ny; i++)
      if (m->ys[i] == a.choose[iy])
        m->best_iy = i;
  }
  tf_answer_release(&a);
  return rc;
}

int tf_plot_map_compute(const tf_problem *p, const tf_request *req, const tf_plot_map_opts *o, tf_plot_map *m,
                        tf_error *err) {
  memset(m, 0, sizeof *m);
  tf_objective color = {0};
  int rc = map_frame(p, o, m, err);
  if (!rc && o->color) {
    char text[512];
    snprintf(text, sizeof text, "max %s", o->color);
    rc = tf_workset_parse_objective(p->workset, text, "@color", &color, err);
    snprintf(m->color_label, sizeof m->color_label, "%s", o->color);
    m->categorical = !strcmp(o->color, "bound_by") || !strcmp(o->color, "time_bound_by");
    m->bytes = bytes_valued(o->color);
  } else if (!rc) {
    snprintf(m->color_label, sizeof m->color_label, "%s",
             p->ncounts      ? p->count_names[0]
             : p->nobjective ? p->objective[0].text
                             : "value");
  }
  if (!rc) {
    m->scale = o->scale;
    free_note(p, o, m->free_note, sizeof m->free_note);
    titles(p, req, m);
    m->cells = tf_nalloc(m->nx * m->ny, sizeof *m->cells);
  }
  for (size_t iy = 0; iy < m->ny && !rc; iy++)
    for (size_t ix = 0; ix < m->nx && !rc; ix++)
      rc = solve_cell(p, req, o, color.expr, m, ix, iy, err);
  if (color.expr)
    tf_objective_release(&color);
  return rc;
}

void tf_plot_map_release(tf_plot_map *m) {
  free(m->cells);
  memset(m, 0, sizeof *m);
}
