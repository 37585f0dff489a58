/* tilefit plot: the pictures, rendered by a real SVG renderer
 * (rsvg-convert, Debian's librsvg2-bin) to PNG, and the pixels read back
 * (tests/png_pixel.py) where the optimum and an infeasible cell are. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/input/workset.h"
#include "solver/plot/cell_style.h"
#include "solver/plot/map.h"
#include "solver/plot/scale.h"
#include "solver/plot/style.h"
#include "tests/suites.h"
#include "tests/svg_boxes.h"
#include "tests/testutil.h"

static char out[1 << 16], err[1 << 14], svg[1 << 18], dir[256];

static void setup(void) { tf_test_temp_dir(dir, sizeof dir, "tf_plot"); }

static void teardown(void) { tf_test_remove_dir(dir); }

static void slurp(const char *path, char *buf, size_t size) {
  FILE *f = fopen(path, "r");
  ck_assert_msg(f, "%s was not written", path);
  size_t n = fread(buf, 1, size - 1, f);
  buf[n] = 0;
  fclose(f);
}

/* The numeric attribute `name` of the element with id `id`. */
static double attr(const char *doc, const char *id, const char *name) {
  char key[96];
  snprintf(key, sizeof key, "id=\"%s\"", id);
  const char *e = strstr(doc, key);
  ck_assert_msg(e, "no element %s", id);
  const char *end = strchr(e, '>');
  snprintf(key, sizeof key, " %s=\"", name);
  const char *a = strstr(e, key);
  ck_assert_msg(a && a < end, "element %s has no %s", id, name);
  return atof(a + strlen(key));
}

/* The centre of marker `id`: a circle's cx, cy; a path's translate(). */
static void center(const char *doc, const char *id, double *x, double *y) {
  char key[96];
  snprintf(key, sizeof key, "id=\"%s\"", id);
  const char *e = strstr(doc, key);
  ck_assert_msg(e, "no element %s", id);
  const char *t = strstr(e, "translate("), *end = strchr(e, '>');
  if (t && t < end) {
    ck_assert_int_eq(sscanf(t, "translate(%lf %lf)", x, y), 2);
  } else {
    *x = attr(doc, id, "cx");
    *y = attr(doc, id, "cy");
  }
}

/* A title that begins with `prefix` and ends there or goes on with " (at
 * ...)": the free variables at the cell's best point. */
static int has_title(const char *doc, const char *prefix) {
  char key[256];
  snprintf(key, sizeof key, "<title>%s", prefix);
  for (const char *t = doc; (t = strstr(t, key)); t++)
    if (t[strlen(key)] == '<' || t[strlen(key)] == ' ')
      return 1;
  return 0;
}

static void fill_of(const char *doc, const char *id, char out_fill[8]) {
  char key[96];
  snprintf(key, sizeof key, "id=\"%s\"", id);
  const char *e = strstr(doc, key);
  ck_assert_msg(e, "no element %s", id);
  const char *f = strstr(e, " fill=\"#");
  ck_assert(f);
  memcpy(out_fill, f + 7, 7);
  out_fill[7] = 0;
}

/* Renders dir/NAME.svg to dir/NAME.png with rsvg-convert. */
static void render(const char *name) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "rsvg-convert -f png -o %s/%s.png %s/%s.svg", dir, name, dir, name);
  ck_assert_msg(system(cmd) == 0, "'%s' failed (is librsvg2-bin installed? make deps)", cmd);
}

/* The colour of the rendered pixel at (x, y) of dir/NAME.png. */
static void pixel(const char *name, double x, double y, char rgb[8]) {
  char cmd[512], line[64];
  snprintf(cmd, sizeof cmd, "/usr/bin/python3 tests/png_pixel.py %s/%s.png %d %d", dir, name, (int)x, (int)y);
  FILE *p = popen(cmd, "r");
  ck_assert(p);
  ck_assert_msg(fgets(line, sizeof line, p), "'%s' printed nothing", cmd);
  ck_assert_int_eq(pclose(p), 0);
  ck_assert_msg(strlen(line) == 8 && line[7] == '\n', "'%s' printed '%s'", cmd, line);
  memcpy(rgb, line, 7);
  rgb[7] = 0;
}

/* The colours of n rendered pixels of dir/NAME.png, one decode. */
static void pixels(const char *name, const double *xy, size_t n, char (*rgb)[8]) {
  size_t size = 128 + 24 * n, len;
  char *cmd = malloc(size), line[64];
  ck_assert_ptr_nonnull(cmd);
  len = (size_t)snprintf(cmd, size, "/usr/bin/python3 tests/png_pixel.py %s/%s.png", dir, name);
  for (size_t i = 0; i < n; i++)
    len += (size_t)snprintf(cmd + len, size - len, " %d %d", (int)xy[2 * i], (int)xy[2 * i + 1]);
  FILE *p = popen(cmd, "r");
  ck_assert(p);
  for (size_t i = 0; i < n; i++) {
    ck_assert_msg(fgets(line, sizeof line, p) && strlen(line) == 8, "'%.80s...' printed too little", cmd);
    memcpy(rgb[i], line, 7);
    rgb[i][7] = 0;
  }
  ck_assert_int_eq(pclose(p), 0);
  free(cmd);
}

/* Runs `args` -o dir/NAME.svg, expecting exit `rc`, and reads the picture
 * into svg. */
static void draw(const char *args, const char *name, int rc) {
  char cmd[1024], path[320];
  snprintf(path, sizeof path, "%s/%s.svg", dir, name);
  snprintf(cmd, sizeof cmd, "%s -o %s", args, path);
  int got = tf_test_run(cmd, out, sizeof out, err, sizeof err);
  ck_assert_msg(got == rc, "%s: exit %d: %s", args, got, err);
  slurp(path, svg, sizeof svg);
}

#define MAP "plot map -m b200 -w fa4-fwd -p d=128 -p dv=128 --fix q_stage=2 --x B_c --y B_r"

/* `tilefit sweep SPEC -q` into DIR/NAME.jsonl. */
static void sweep_to(const char *spec, const char *name) {
  char args[512];
  snprintf(args, sizeof args, "sweep %s -q -o %s/%s.jsonl", spec, dir, name);
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 0);
}

/* `plot sweep DIR/JSONL.jsonl AXES`, drawn as the picture NAME (draw). */
static void plot_sweep(const char *jsonl, const char *axes, const char *name) {
  char args[512];
  snprintf(args, sizeof args, "plot sweep %s/%s.jsonl %s", dir, jsonl, axes);
  draw(args, name, 0);
}

/* The stages solve finds with the cell's variables fixed. */
static int solved_stages(int b_c) {
  char args[512];
  snprintf(args, sizeof args,
           "solve -m b200 -w fa4-fwd -p d=128 -p dv=128 --fix q_stage=2 --fix B_c=%d --fix B_r=128 --json", b_c);
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 0);
  const char *s = strstr(out, "\"stages\":");
  ck_assert(s);
  return atoi(s + 9);
}

START_TEST(test_map_cells) {
  char args[512], title[128];
  snprintf(args, sizeof args, MAP " -o %s/map.svg", dir);
  int rc = tf_test_run(args, out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  ck_assert_str_eq(out, "");
  slurp(strcat(strcpy(args, dir), "/map.svg"), svg, sizeof svg);
  /* every feasible cell holds what solve says at that point */
  static const int cols[] = {16, 64, 128};
  for (size_t i = 0; i < sizeof cols / sizeof *cols; i++) {
    snprintf(title, sizeof title, "B_c=%d B_r=128: stages = %d", cols[i], solved_stages(cols[i]));
    ck_assert_msg(has_title(svg, title), "no %s", title);
  }
  ck_assert_msg(strstr(svg, "<title>B_c=256 B_r=128: infeasible (tmem): "), "%s", svg);
  ck_assert_msg(strstr(svg, "optimum: B_c=128 B_r=128"), "legend");
  ck_assert_msg(strstr(svg, "id=\"legend-tmem\""), "legend");
}
END_TEST

/* --color bound_by / time_bound_by: a binding term per cell, by name, one
 * colour per term and a legend entry for each term that occurs; the cell
 * holds what solve's estimate says binds there.  --color time_us: numbers. */
START_TEST(test_map_bound_by) {
  char args[512], fill[8], legend[8];
  snprintf(
      args, sizeof args,
      "plot map -m h100-sxm -w cutlass-sm90-gemm -p M=128 -p N=8192 -p K=8192 --fix tile_k=64 --x tile_m --y tile_n"
      " --color time_bound_by -o %s/bound.svg",
      dir);
  int rc = tf_test_run(args, out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  slurp(strcat(strcpy(args, dir), "/bound.svg"), svg, sizeof svg);
  ck_assert_msg(has_title(svg, "tile_m=64 tile_n=128: time_bound_by = hbm"), "no hbm cell");
  ck_assert_msg(has_title(svg, "tile_m=128 tile_n=192: time_bound_by = mma"), "no mma cell");
  fill_of(svg, "cell-64-128", fill);
  fill_of(svg, "legend-term-hbm", legend);
  ck_assert_str_eq(fill, legend);
  fill_of(svg, "cell-128-192", fill);
  fill_of(svg, "legend-term-mma", legend);
  ck_assert_str_eq(fill, legend);
  ck_assert_ptr_null(strstr(svg, "legend-term-exp")); /* a GEMM has no exponentials */
  snprintf(
      args, sizeof args,
      "plot map -m h100-sxm -w cutlass-sm90-gemm -p M=128 -p N=8192 -p K=8192 --fix tile_k=64 --x tile_m --y tile_n"
      " --color time_us -o %s/time.svg",
      dir);
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 0);
  slurp(strcat(strcpy(args, dir), "/time.svg"), svg, sizeof svg);
  ck_assert_msg(has_title(svg, "tile_m=128 tile_n=192: time_us = 57"), "no time_us cell");
}
END_TEST

START_TEST(test_map_pixels) {
  char args[512], want[8], got[8];
  snprintf(args, sizeof args, MAP " -o %s/map.svg", dir);
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 0);
  slurp(strcat(strcpy(args, dir), "/map.svg"), svg, sizeof svg);
  render("map");
  /* the optimum: its heat colour inside, the red outline on its edge, where
   * the outline's rectangle is */
  double x = attr(svg, "cell-128-128", "x"), y = attr(svg, "cell-128-128", "y");
  double w = attr(svg, "cell-128-128", "width"), h = attr(svg, "cell-128-128", "height");
  ck_assert(attr(svg, "optimum", "x") > x && attr(svg, "optimum", "x") < x + 3);
  fill_of(svg, "cell-128-128", want);
  pixel("map", x + w / 4, y + h / 4, got);
  ck_assert_msg(!strcmp(got, want), "optimum cell rendered %s, drawn %s", got, want);
  pixel("map", x + 2.5, y + h / 2, got);
  ck_assert_msg(!strcmp(got, "#e31a1c"), "optimum outline rendered %s", got);
  /* an infeasible cell: the grey of tmem, as in the legend */
  x = attr(svg, "cell-256-128", "x");
  y = attr(svg, "cell-256-128", "y");
  pixel("map", x + w / 4, y + h / 4, got);
  ck_assert_str_eq(got, tf_plot_blocked_fill(TF_MEM_TMEM));
  pixel("map", attr(svg, "legend-tmem", "x") + 4, attr(svg, "legend-tmem", "y") + 4, want);
  ck_assert_str_eq(got, want);
  /* and the two differ from the white background */
  ck_assert_str_ne(got, "#ffffff");
}
END_TEST

START_TEST(test_sweep_pixels) {
  char args[512], got[8], path[128];
  sweep_to("tests/data/plots/sweep.json", "sweep");
  snprintf(args, sizeof args, "plot sweep %s/sweep.jsonl --x tile_k --y stages --by machine -o %s/sweep.svg", dir, dir);
  int rc = tf_test_run(args, out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  ck_assert_msg(strstr(err, "4 of 12 lines without a result"), "%s", err);
  snprintf(path, sizeof path, "%s/sweep.svg", dir);
  slurp(path, svg, sizeof svg);
  /* a100 at tile_k = 32 (16 is one warp-level GEMM, which MmaMultistage refuses): the stages the sweep line holds */
  ck_assert_int_eq(tf_test_run("solve -m a100 -w cutlass-sm80-gemm --fix tile_m=128 --fix tile_n=128 --fix tile_k=32 "
                               "--objective 'max stages' --json",
                               out, sizeof out, err, sizeof err),
                   0);
  char title[96];
  snprintf(title, sizeof title, "<title>a100 tile_k=32: stages = %d</title>", atoi(strstr(out, "\"stages\":") + 9));
  ck_assert_msg(strstr(svg, title), "no %s", title);
  ck_assert_msg(strstr(svg, "id=\"pt-2-2\""), "h100-sxm has 3 points");
  ck_assert_msg(!strstr(svg, "id=\"pt-1-2\""), "rtx4090 has 2 points");
  snprintf(args, sizeof args, "plot sweep %s/sweep.jsonl --x nosuch --y stages -o %s/bad.svg", dir, dir);
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 2);
  ck_assert_msg(
      strstr(err,
             "sweep.jsonl: --x: line 1: no 'nosuch' (looked up at the top level, in values, in params, in objectives)"),
      "%s", err);
  render("sweep");
  static const char *const colors[] = {"#1f77b4", "#ff7f0e", "#2ca02c"}; /* tab10 0..2 */
  for (int g = 0; g < 3; g++) {
    char id[16];
    snprintf(id, sizeof id, "pt-%d-0", g);
    double cx, cy;
    center(svg, id, &cx, &cy);
    pixel("sweep", cx, cy, got);
    ck_assert_msg(!strcmp(got, colors[g]), "%s rendered %s, want %s", id, got, colors[g]);
  }
}
END_TEST

#define FA3 "plot map -m h100-sxm -w fa3-fwd --x B_c --y B_r"

static tf_test_box boxes[1024];
static tf_test_cell cells[128];

/* No text over another or out of the picture. */
static void texts_apart(void) {
  size_t n = tf_test_text_boxes(svg, boxes, sizeof boxes / sizeof *boxes);
  ck_assert_uint_lt(n, sizeof boxes / sizeof *boxes);
  const char *root = strstr(svg, "<svg ");
  ck_assert_ptr_nonnull(root);
  tf_test_no_overlap(boxes, n, tf_test_attr(root, "width"), tf_test_attr(root, "height"));
}

/* The value a cell label stands for: "224 KiB", "1.07G", "4171". */
static double label_value(const char *label) {
  char *end;
  double v = strtod(label, &end);
  static const struct {
    const char *unit;
    double times;
  } units[] = {{" KiB", 1024.0}, {" MiB", 1048576.0}, {" GiB", 1073741824.0}, {" B", 1}, {"k", 1e3},
               {"M", 1e6},       {"G", 1e9}};
  for (size_t i = 0; i < sizeof units / sizeof *units; i++)
    if (!strcmp(end, units[i].unit))
      return v * units[i].times;
  ck_assert_msg(!*end, "label '%s': unknown unit", label);
  return v;
}

#define WIDE_B_C \
  "8,16,24,32,40,48,56,64,72,80,88,96,104,112,120,128,136,144,152,160,168,176,184,192,200,208,216,224,232,240,248,256"
static const struct {
  const char *args;
  size_t cells;
} fit_maps[] = {
    {FA3 " --color 'used(smem)'", 16 * 3},
    {FA3 " --color time_us", 16 * 3},
    {FA3 " --color hbm_bytes", 16 * 3},
    /* 32 cells of 28 px in one row: "227 KiB" turned up its cell */
    {"plot map -m b200 -w fa4-fwd -p d=64 --fix q_stage=1 --x B_c --y B_r --color 'used(smem)' --domain B_c=" WIDE_B_C,
     32},
};

/* Every cell of a map labelled inside its cell, the label the value of its
 * title to three digits, no text over another; rendered, the cell's fill
 * at both inner edges beside its label (no ink reaches them). */
START_TEST(test_labels_fit) {
  draw(fit_maps[_i].args, "fa3", 0);
  texts_apart();
  size_t n = tf_test_cells(svg, cells, sizeof cells / sizeof *cells);
  ck_assert_uint_eq(n, fit_maps[_i].cells);
  double opt_x = attr(svg, "optimum", "x"), *xy = calloc(4 * n, sizeof *xy);
  size_t np = 0;
  for (size_t i = 0; i < n; i++) {
    const tf_test_cell *c = &cells[i];
    ck_assert_msg(c->labelled, "%s has no label", c->id);
    ck_assert_msg(c->label.x0 >= c->x && c->label.x1 <= c->x + c->w && c->label.y0 >= c->y &&
                      c->label.y1 <= c->y + c->h,
                  "%s: label '%s' leaves its cell", c->id, c->label.text);
    const char *eq = strstr(c->title, " = ");
    if (eq) { /* feasible: "B_c=16 B_r=64: used(smem) = 40960 (40 KiB)" */
      double exact = atof(eq + 3), shown = label_value(c->label.text);
      ck_assert_msg(shown >= exact * 0.994 && shown <= exact * 1.006, "%s: label '%s' for %.0f", c->id, c->label.text,
                    exact);
    }
    if (c->x < opt_x && opt_x < c->x + 3)
      continue; /* the optimum's outline lies on its edge */
    double mid = (c->label.y0 + c->label.y1) / 2;
    xy[2 * np] = c->x + 2, xy[2 * np + 1] = mid, np++;
    xy[2 * np] = c->x + c->w - 3, xy[2 * np + 1] = mid, np++;
  }
  render("fa3");
  char(*rgb)[8] = malloc(np * sizeof *rgb);
  pixels("fa3", xy, np, rgb);
  for (size_t k = 0, i = 0; i < n; i++) {
    if (cells[i].x < opt_x && opt_x < cells[i].x + 3)
      continue;
    for (int side = 0; side < 2; side++, k++)
      ck_assert_msg(!strcmp(rgb[k], cells[i].fill), "%s ('%s'): rendered %s at its %s edge, filled %s", cells[i].id,
                    cells[i].label.text, rgb[k], side ? "right" : "left", cells[i].fill);
  }
  free(rgb);
  free(xy);
}
END_TEST

/* The distinct values among the feasible cells, and the distinct fills. */
static void distinct(size_t n, size_t *values, size_t *fills) {
  *values = *fills = 0;
  for (size_t i = 0; i < n; i++) {
    const char *eq = strstr(cells[i].title, " = ");
    if (!eq)
      continue;
    int new_value = 1, new_fill = 1;
    for (size_t k = 0; k < i; k++) {
      const char *e2 = strstr(cells[k].title, " = ");
      if (e2 && atof(e2 + 3) == atof(eq + 3))
        new_value = 0;
      if (e2 && !strcmp(cells[k].fill, cells[i].fill))
        new_fill = 0;
    }
    *values += (size_t)new_value;
    *fills += (size_t)new_fill;
  }
}

/* FA3 time_us at B_r 128 and 192: one column at 9817..9832 us, the rest
 * 6528..6986.  Linear would give them all the bottom colour; the rule picks
 * rank, which gives each value its own colour, and the legend says so.
 * used(smem) spreads evenly: linear.  --scale overrides the rule. */
START_TEST(test_scale) {
  size_t values, fills;
  draw(FA3 " --domain B_r=128,192 --color time_us", "time", 0);
  ck_assert_msg(strstr(svg, ">rank scale (auto)</text>"), "no rank scale in the legend");
  ck_assert_msg(strstr(svg, "linear: one step is 86% of the range"), "no reason");
  size_t n = tf_test_cells(svg, cells, sizeof cells / sizeof *cells);
  distinct(n, &values, &fills);
  ck_assert_uint_ge(values, 10);
  ck_assert_uint_eq(fills, values);
  char fill[8];
  fill_of(svg, "cell-16-128", fill); /* 9832: the top of the ramp */
  ck_assert_str_eq(fill, "#fde725");
  draw(FA3 " --domain B_r=128,192 --color time_us --scale linear", "time", 0);
  ck_assert_msg(strstr(svg, ">linear scale</text>"), "no linear scale in the legend");
  n = tf_test_cells(svg, cells, sizeof cells / sizeof *cells);
  fill_of(svg, "cell-32-128", fill); /* 6986, the 9832 column's neighbour: near the bottom under linear */
  ck_assert_msg(fill[1] == '3' || fill[1] == '4', "6986 under linear drawn %s", fill);
  draw(FA3 " --color 'used(smem)'", "smem", 0);
  ck_assert_msg(strstr(svg, ">linear scale (auto)</text>"), "no linear scale in the legend");
  draw(FA3 " --color 'used(smem)' --scale log", "smem", 0);
  ck_assert_msg(strstr(svg, ">log scale</text>"), "no log scale in the legend");
  texts_apart();
}
END_TEST

/* A cell where smem and rf both overflow has a grey of its own, not smem's
 * or rf's, and the legend an entry for the pair. */
START_TEST(test_blocked_combinations) {
  char sr[8], fill[8], got[8];
  draw(FA3 " --color 'used(smem)'", "smem", 0);
  ck_assert_msg(strstr(svg, "<title>B_c=224 B_r=128: infeasible (smem, rf): "), "B_c=224 is not SR");
  fill_of(svg, "legend-SR", sr);
  fill_of(svg, "cell-224-128", fill);
  ck_assert_str_eq(fill, sr);
  ck_assert_str_ne(sr, tf_plot_blocked_fill(TF_MEM_SMEM));
  ck_assert_str_ne(sr, tf_plot_blocked_fill(TF_MEM_RF));
  fill_of(svg, "cell-144-192", fill); /* rf alone */
  ck_assert_str_eq(fill, tf_plot_blocked_fill(TF_MEM_RF));
  ck_assert_msg(strstr(svg, ">smem and rf overflow</text>"), "no legend entry for the pair");
  render("smem");
  pixel("smem", attr(svg, "cell-224-128", "x") + 4, attr(svg, "cell-224-128", "y") + 4, got);
  ck_assert_str_eq(got, sr);
}
END_TEST

/* A map that leaves q_stage free says so; the cells name its value. */
START_TEST(test_free_note) {
  draw("plot map -m b200 -w fa4-fwd -p d=128 -p dv=128 --x B_c --y B_r", "free", 0);
  ck_assert_msg(strstr(svg, "q_stage in {1, 2}"), "no note on q_stage");
  ck_assert_msg(strstr(svg, "B_c=16 B_r=128: stages = ") && strstr(svg, " (at q_stage="), "no q_stage in a cell");
  ck_assert_msg(strstr(svg, "fa4-fwd on b200 (d=128, dv=128): stages"), "title");
  texts_apart();
  draw(MAP, "fixed", 0);
  ck_assert_ptr_null(strstr(svg, "q_stage in"));
  ck_assert_msg(strstr(svg, "fa4-fwd on b200 (d=128, dv=128, q_stage=2): stages"), "title");
}
END_TEST

/* FA4 on b200, gb200, b300: the same SMEM and TMEM, the same stages: the
 * lines are drawn nested (each colour shows), the legend gives each its
 * dash and marker, a note says they coincide; d = 192 and 256 fit nowhere
 * and are an x on the axis with the reason. */
START_TEST(test_sweep_nested) {
  sweep_to("tests/data/plots/fa4-stages.json", "fa4");
  plot_sweep("fa4", "--x d --y stages --by machine", "fa4");
  ck_assert_msg(strstr(svg, "fa4-fwd on b200, gb200, b300: stages against d, one line per machine"), "title");
  ck_assert_msg(strstr(svg, "B_c=128, q_stage=2; objective: max stages"), "subtitle");
  ck_assert_msg(strstr(svg, ">b200, gb200, b300: the same points (drawn nested)</text>"), "no note");
  ck_assert_msg(strstr(svg, "<title>d=192: no result: needs 640 columns of tmem"), "no x at d = 192");
  ck_assert_msg(strstr(svg, "<title>d=256: no result: needs 330752 B of smem"), "no x at d = 256");
  ck_assert_msg(strstr(svg, "<circle id=\"pt-0-0\"") && strstr(svg, "<path id=\"pt-1-0\""), "one marker shape");
  ck_assert_msg(strstr(svg, "stroke-dasharray=\"7 3\""), "no dashes");
  texts_apart();
  double cx, cy, mx, my, last, ly;
  center(svg, "pt-2-0", &cx, &cy);
  center(svg, "miss-1", &mx, &my);
  center(svg, "pt-2-2", &last, &ly);
  ck_assert(mx > last); /* the axis goes on to d = 256 */
  render("fa4");
  double xy[] = {cx, cy, cx + 4.5, cy + 4.5, cx, cy - 7.5, mx, my};
  char rgb[4][8];
  pixels("fa4", xy, 4, rgb);
  ck_assert_str_eq(rgb[0], "#2ca02c"); /* b300 on top */
  ck_assert_str_eq(rgb[1], "#ff7f0e"); /* gb200 around it */
  ck_assert_str_eq(rgb[2], "#1f77b4"); /* b200 around both */
  ck_assert_str_eq(rgb[3], "#b00020");
}
END_TEST

static double text_x(const char *text) {
  size_t n = tf_test_text_boxes(svg, boxes, sizeof boxes / sizeof *boxes);
  for (size_t i = 0; i < n; i++)
    if (!strcmp(boxes[i].text, text))
      return (boxes[i].x0 + boxes[i].x1) / 2;
  ck_abort_msg("no text '%s'", text);
  return 0;
}

/* y as an objective's expression (time_ns, the value of "min time_ns")
 * or a path through an array (objectives.0.value): the same picture; a
 * path past an array's end names what it looked for. */
START_TEST(test_sweep_objective_y) {
  char args[512];
  sweep_to("tests/data/plots/gemm-m.json", "m");
  plot_sweep("m", "--x M --y time_ns", "time");
  ck_assert_msg(strstr(svg, "<title>M=8192: time_ns = 1177940"), "the point at M = 8192");
  plot_sweep("m", "--x M --y objectives.0.value", "path");
  ck_assert_msg(strstr(svg, "<title>M=8192: objectives.0.value = 1177940"), "the same value by its path");
  snprintf(args, sizeof args, "plot sweep %s/m.jsonl --x M --y objectives.9.value", dir);
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 2);
  ck_assert_msg(
      strstr(err, "no 'objectives.9.value' (looked up at the top level, in values, in params, in objectives)"), "%s",
      err);
}
END_TEST

/* tile_k 32..256, powers of two: a log axis with a tick at each value,
 * evenly spaced; --x-scale linear spaces them by value.  A string x is a
 * category axis, in order of appearance. */
START_TEST(test_sweep_axes) {
  char args[512];
  sweep_to("tests/data/plots/sweep.json", "sm80");
  plot_sweep("sm80", "--x tile_k --y stages --by machine", "sm80");
  texts_apart();
  double a = text_x("32"), b = text_x("64"), c = text_x("128"), d = text_x("256");
  ck_assert(fabs((b - a) - (c - b)) < 0.2 && fabs((c - b) - (d - c)) < 0.2);
  ck_assert_msg(strstr(svg, ">tile_k (log scale)</text>"), "axis title");
  ck_assert_msg(strstr(svg, "<title>tile_k=256: no result: "), "no x at 256");
  plot_sweep("sm80", "--x tile_k --y stages --by machine --x-scale linear", "lin");
  ck_assert_ptr_null(strstr(svg, "(log scale)"));
  a = text_x("32"), b = text_x("64"), c = text_x("128");
  ck_assert(fabs((c - b) - 2 * (b - a)) < 0.5);
  plot_sweep("sm80", "--x machine --y stages --by tile_k", "cat");
  texts_apart();
  ck_assert(text_x("a100") < text_x("rtx4090") && text_x("rtx4090") < text_x("h100-sxm"));
  ck_assert_msg(strstr(svg, "<title>tile_k=32 machine=rtx4090: stages = "), "a category point");
  snprintf(args, sizeof args, "plot sweep %s/sm80.jsonl --x tile_k --y stages --scale bogus", dir);
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 2);
  ck_assert_msg(strstr(err, "--scale: expected auto, linear, log or rank, got 'bogus'"), "%s", err);
}
END_TEST

/* The label format (docs/pictures.md, Labels) at its edges. */
START_TEST(test_si) {
  static const struct {
    double v;
    int bytes;
    const char *want;
  } cases[] = {{9999, 0, "9999"},    {10000, 0, "10k"},      {99949, 0, "99.9k"},     {99950, 0, "100k"},
               {232448, 0, "232k"},  {999600, 0, "1M"},      {1.2e6, 0, "1.2M"},      {-12345, 0, "-12.3k"},
               {2.345, 0, "2.35"},   {1e308, 0, "1e+308"},   {1023, 1, "1023 B"},     {1024, 1, "1 KiB"},
               {40960, 1, "40 KiB"}, {229376, 1, "224 KiB"}, {1572864, 1, "1.5 MiB"}, {1073741824, 1, "1 GiB"}};
  char buf[32];
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    tf_plot_si(cases[i].v, cases[i].bytes, buf, sizeof buf);
    ck_assert_msg(!strcmp(buf, cases[i].want), "%g%s: '%s', want '%s'", cases[i].v, cases[i].bytes ? " B" : "", buf,
                  cases[i].want);
  }
}
END_TEST

/* The scale rule (scale.h) on the shapes it is for. */
START_TEST(test_scale_rule) {
  double pow2[11], even[20], outlier[] = {4138, 4146, 4171, 4179, 4204, 4236, 6207, 6256}, two[] = {5, 5, 7};
  for (int i = 0; i < 11; i++)
    pow2[i] = (double)(1 << i);
  for (int i = 0; i < 20; i++)
    even[i] = 40960 + 8192.0 * i;
  const struct {
    const double *v;
    size_t n;
    int want;
  } cases[] = {
      {pow2, 11, TF_SCALE_LOG}, {even, 20, TF_SCALE_LINEAR}, {outlier, 8, TF_SCALE_RANK}, {two, 3, TF_SCALE_LINEAR}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    tf_plot_scale sc;
    tf_plot_scale_make(&sc, TF_SCALE_AUTO, cases[i].v, cases[i].n);
    ck_assert_msg(sc.kind == cases[i].want && sc.automatic, "case %zu: %s", i, tf_plot_scale_name(sc.kind));
    ck_assert(tf_plot_scale_at(&sc, cases[i].v[0]) == 0 && tf_plot_scale_at(&sc, cases[i].v[cases[i].n - 1]) == 1);
    tf_plot_scale_release(&sc);
  }
  tf_plot_scale sc; /* log of values that are not all positive: the rule instead */
  double neg[] = {-1, 0, 1};
  tf_plot_scale_make(&sc, TF_SCALE_LOG, neg, 3);
  ck_assert(sc.kind == TF_SCALE_LINEAR && sc.automatic);
  tf_plot_scale_release(&sc);
}
END_TEST

static const struct {
  const char *args, *want;
} bad[] = {
    {"plot map -m b200 -w fa4-fwd -p d=128 -p dv=128 --fix q_stage=2 --x stages --y B_r",
     "--x: 'stages' is not a choose variable of fa4-fwd (choose: B_r, B_c, q_stage)"},
    {MAP " --x stages", "--x: given twice; it may be given once"},
    {"plot map -m b200 -w fa4-fwd --x B_c", "--y: required"},
    {"plot map -m b200 -w fa4-fwd -p d=128 -p dv=128 --fix q_stage=2 --x B_c --y B_c",
     "--y: 'B_c' is already the x axis"},
    {MAP " --by machine", "--by: unknown option for 'plot map'; it is an option of 'plot sweep'"},
    {MAP " --color 'nosuch + 1'", "--color"},
    {MAP " --scale loglog", "--scale: expected auto, linear, log or rank, got 'loglog'"},
    {MAP " --x-scale log", "--x-scale: unknown option for 'plot map'"},
    {"plot pie", "plot pie: unknown picture"},
    {"plot sweep --x a --y b", "expected one FILE.jsonl"},
    {"plot sweep tests/data/plots/sweep.json --x d --y stages", "sweep.json"},
};

START_TEST(test_bad) {
  char args[512], path[128];
  snprintf(path, sizeof path, "%s/bad.svg", dir);
  snprintf(args, sizeof args, "%s -o %s", bad[_i].args, path);
  int rc = tf_test_run(args, out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 2, "%s: exit %d: %s", bad[_i].args, rc, err);
  ck_assert_msg(strstr(err, bad[_i].want), "%s: want '%s' in %s", bad[_i].args, bad[_i].want, err);
  ck_assert_msg(!strchr(err, '\n') || strchr(err, '\n') == err + strlen(err) - 1, "one line: %s", err);
  ck_assert_msg(access(path, F_OK) != 0, "%s: wrote %s", bad[_i].args, path);
}
END_TEST

START_TEST(test_nothing_fits) {
  char args[512], path[128];
  snprintf(path, sizeof path, "%s/none.svg", dir);
  snprintf(args, sizeof args,
           "plot map -m b200 -w fa4-fwd -p d=512 -p dv=512 --fix q_stage=2 --x B_c --y q_stage -o %s", path);
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 1);
  ck_assert_str_eq(err, "tilefit: infeasible: fa4-fwd on b200: no cell fits (the picture shows why)\n");
  slurp(path, svg, sizeof svg);
  ck_assert_msg(strstr(svg, "<title>B_c=16 q_stage=2: infeasible (smem, tmem): "), "%s", svg);
  ck_assert_msg(!strstr(svg, "id=\"optimum\""), "an optimum drawn where nothing fits");
  ck_assert_int_eq(tf_test_run("plot", out, sizeof out, err, sizeof err), 2);
  ck_assert_str_eq(err, "tilefit: error: plot: expected map or sweep (see 'tilefit plot --help')\n");
}
END_TEST

START_TEST(test_unwritable) {
  int rc = tf_test_run(MAP " -o /nonexistent/dir/map.svg", out, sizeof out, err, sizeof err);
  ck_assert_int_eq(rc, 3); /* an output that cannot be written, as for every command */
  ck_assert_msg(strstr(err, "-o: cannot write /nonexistent/dir/map.svg"), "%s", err);
}
END_TEST

/* Sweep lines a picture must survive: x from -1e308 to 1e308 (the span
 * overflowed: "-nan" coordinates), a --by value with a control character
 * and 300 bytes of two-byte characters (cut at 127 bytes mid-character:
 * XML rsvg-convert refused), and a 20,000-point line (cut at 512 points
 * silently; 10^6 points made 114 MB): finite, valid, thinned with a note. */
START_TEST(test_hostile_lines) {
  char path[128], args[512];
  snprintf(path, sizeof path, "%s/h.jsonl", dir);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  static const double xs[] = {-1e308, 1e308, 0};
  for (int i = 0; i < 3; i++) {
    fprintf(f, "{\"status\": \"optimal\", \"x\": %g, \"y\": %d, \"m\": \"b200\\u001b", xs[i], i);
    for (int k = 0; k < 150; k++)
      fputs("\xc3\xa9", f);
    fputs("\"}\n", f);
  }
  ck_assert_int_eq(fclose(f), 0);
  snprintf(args, sizeof args, "plot sweep %s --x x --y y --by m -o %s/h.svg", path, dir);
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 0);
  snprintf(path, sizeof path, "%s/h.svg", dir);
  slurp(path, svg, sizeof svg);
  ck_assert_msg(!strstr(svg, "nan") && !strstr(svg, "inf"), "a coordinate that is not finite");
  render("h");
  snprintf(path, sizeof path, "%s/long.jsonl", dir);
  f = fopen(path, "w");
  for (int i = 0; i < 20000; i++)
    fprintf(f, "{\"status\": \"optimal\", \"x\": %d, \"y\": %d}\n", i, i % 97);
  ck_assert_int_eq(fclose(f), 0);
  snprintf(args, sizeof args, "plot sweep %s --x x --y y -o %s/long.svg", path, dir);
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 0);
  snprintf(path, sizeof path, "%s/long.svg", dir);
  slurp(path, svg, sizeof svg);
  ck_assert_uint_lt(strlen(svg), sizeof svg - 1); /* all of it read: well under 256 KiB */
  ck_assert_msg(strstr(svg, "lines of more than 512 points drawn at every 40-th point"), "no note");
  ck_assert_msg(strstr(svg, "id=\"pt-0-19999\""), "the last point is drawn");
  render("long");
}
END_TEST

Suite *plot_suite(void) {
  Suite *s = suite_create("plot");
  TCase *core = tcase_create("core");
  tcase_set_timeout(core, 60);
  tcase_add_checked_fixture(core, setup, teardown);
  tcase_add_test(core, test_map_cells);
  tcase_add_test(core, test_map_pixels);
  tcase_add_test(core, test_map_bound_by);
  tcase_add_test(core, test_sweep_pixels);
  tcase_add_loop_test(core, test_bad, 0, sizeof bad / sizeof *bad);
  tcase_add_test(core, test_nothing_fits);
  tcase_add_test(core, test_unwritable);
  tcase_add_test(core, test_hostile_lines);
  tcase_add_loop_test(core, test_labels_fit, 0, sizeof fit_maps / sizeof *fit_maps);
  tcase_add_test(core, test_scale);
  tcase_add_test(core, test_si);
  tcase_add_test(core, test_scale_rule);
  tcase_add_test(core, test_blocked_combinations);
  tcase_add_test(core, test_free_note);
  tcase_add_test(core, test_sweep_nested);
  tcase_add_test(core, test_sweep_axes);
  tcase_add_test(core, test_sweep_objective_y);
  suite_add_tcase(s, core);
  return s;
}
