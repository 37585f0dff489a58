/* tilefit plot map | sweep: pictures as SVG (solver/plot/).  'plot' picks
 * the kind; each kind is a command of its own in the option table. */
#include <stdio.h>
#include <string.h>

#include "solver/cli/cmd_problem.h"
#include "solver/cli/command.h"
#include "solver/cli/fail.h"
#include "solver/cli/frame.h"
#include "solver/plot/map.h"
#include "solver/plot/scale.h"
#include "solver/plot/series.h"

static int run_plot(int argc, char **argv);
static int run_map(int argc, char **argv);
static int run_sweep(int argc, char **argv);

const tf_command tf_cmd_plot = {
    "plot",
    TF_CMD_PLOT,
    run_plot,
    "draw a feasible region or a sweep as an SVG picture",
    "map|sweep ...",
    -1,
    "Draws an SVG picture: 'tilefit plot map --help' and 'tilefit plot sweep --help'\n"
    "describe the two kinds.\n",
    "0 drawn, 1 drawn but no cell of the map fits, 2 bad input, 3 solver or internal failure",
    0,
    NULL,
    TF_OPERANDS_KINDS};

const tf_command tf_cmd_plot_map = {"plot map",
                                    TF_CMD_PLOT_MAP,
                                    run_map,
                                    "the feasible region of two choose variables",
                                    "-m MACHINE -w WORKSET --x VAR --y VAR [-o FILE.svg]",
                                    0,
                                    "Draws the feasible region of two choose variables as an SVG heat map\n"
                                    "(standard output without -o).  Each cell is solved with --x and --y fixed,\n"
                                    "everything else as given: a feasible cell shows the colour value at its best\n"
                                    "point, an infeasible one a letter for each memory that overflows (S smem,\n"
                                    "T tmem, R rf; C a constraint) on one grey per combination.  The optimum of\n"
                                    "the whole problem is outlined.  Labels are whole below 10^4, else three\n"
                                    "digits and k, M, G (KiB, MiB, GiB for bytes); --scale auto takes the first\n"
                                    "of linear, log, rank under which no step between neighbouring values is\n"
                                    "over half the range.\n",
                                    "0 drawn, 1 drawn but no cell fits, 2 bad input, 3 solver or internal failure",
                                    0,
                                    NULL,
                                    TF_OPERANDS_NONE};

const tf_command tf_cmd_plot_sweep = {
    "plot sweep",
    TF_CMD_PLOT_SWEEP,
    run_sweep,
    "a sweep's results as lines",
    "FILE.jsonl --x NAME --y NAME",
    1,
    "Draws the lines 'tilefit sweep' wrote as points joined in x order, one line per\n"
    "value of --by (standard output without -o).  Lines that are not optimal or\n"
    "fits are left out, and stderr says how many; each one whose x is known is an\n"
    "x on the axis with its reason below.  A string x makes a category axis; x\n"
    "values that are powers of two a log axis.  Lines that share points are drawn\n"
    "nested and noted.\n",
    "0 drawn, 2 bad input, 3 the picture cannot be written",
    1,
    "expected one FILE.jsonl (what 'tilefit sweep' writes)",
    TF_OPERANDS_FILES};

static int need(const char *value, const char *option, tf_error *err) {
  if (!value)
    return tf_error_set(err, TF_EINPUT, option, "required (see 'tilefit plot --help')");
  return 0;
}

static int run_map(int argc, char **argv) {
  tf_cmd_problem c;
  int rc = tf_cmd_problem_open(&c, argc, argv, &tf_cmd_plot_map);
  if (rc != TF_CLI_GO)
    return tf_cmd_problem_close(&c), rc;
  tf_solve_opts opts;
  tf_args_solve_opts(&c.args, &opts);
  tf_plot_map_opts o = {c.args.plot_x, c.args.plot_y, c.args.plot_color, 0, &opts};
  tf_plot_map m = {0};
  tf_svg svg = {0};
  if (need(o.x, "--x", &c.err) || need(o.y, "--y", &c.err) ||
      (o.scale = tf_plot_scale_parse(c.args.plot_scale, "--scale", &c.err)) < 0 ||
      tf_plot_map_compute(c.run.problem, &c.args.req, &o, &m, &c.err)) {
    rc = tf_cli_fail(&c.err);
  } else {
    tf_plot_map_draw(&m, &svg);
    rc = tf_svg_write(&svg, c.args.out_file, "-o", &c.err) ? tf_cli_fail(&c.err) : TF_EXIT_OK;
    if (rc == TF_EXIT_OK && !m.has_best) {
      fprintf(stderr, "tilefit: infeasible: %s on %s: no cell fits (the picture shows why)\n",
              c.run.loaded.workset->name, c.run.loaded.machine->name);
      rc = TF_EXIT_NO;
    }
  }
  tf_svg_release(&svg);
  tf_plot_map_release(&m);
  tf_cmd_problem_close(&c);
  return rc;
}

static int run_sweep(int argc, char **argv) {
  tf_args a;
  tf_error err;
  tf_args_init(&a);
  tf_error_init(&err);
  int rc = tf_cli_start(&tf_cmd_plot_sweep, argc, argv, &a);
  if (rc != TF_CLI_GO)
    return tf_args_release(&a), rc;
  tf_plot_series s = {0};
  tf_svg svg = {0};
  int y_scale = 0, x_scale = 0;
  if (need(a.plot_x, "--x", &err) || need(a.plot_y, "--y", &err) ||
      (y_scale = tf_plot_scale_parse(a.plot_scale, "--scale", &err)) < 0 ||
      (x_scale = tf_plot_scale_parse(a.plot_x_scale, "--x-scale", &err)) < 0 ||
      tf_plot_series_read(a.positional[0], a.plot_x, a.plot_y, a.plot_by, &s, &err)) {
    rc = tf_cli_fail(&err);
  } else {
    s.x_scale = x_scale;
    s.y_scale = y_scale;
    if (s.skipped)
      fprintf(stderr, "tilefit: plot sweep: %s: %zu of %zu lines without a result (not optimal or fits) left out\n",
              a.positional[0], s.skipped, s.lines);
    tf_plot_series_draw(&s, &svg);
    rc = tf_svg_write(&svg, a.out_file, "-o", &err) ? tf_cli_fail(&err) : TF_EXIT_OK;
  }
  tf_svg_release(&svg);
  tf_plot_series_release(&s);
  tf_args_release(&a);
  return rc;
}

/* 'plot KIND ...': KIND becomes argv[0], so that errors and --help say
 * "plot map" or "plot sweep". */
static int run_plot(int argc, char **argv) {
  if (argc < 2) {
    fputs("tilefit: error: plot: expected map or sweep (see 'tilefit plot --help')\n", stderr);
    return TF_EXIT_USAGE;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    tf_cli_help(stdout, &tf_cmd_plot_map);
    fputc('\n', stdout);
    tf_cli_help(stdout, &tf_cmd_plot_sweep);
    return TF_EXIT_OK;
  }
  const tf_command *kind = !strcmp(argv[1], "map")     ? &tf_cmd_plot_map
                           : !strcmp(argv[1], "sweep") ? &tf_cmd_plot_sweep
                                                       : NULL;
  if (!kind) {
    fprintf(stderr, "tilefit: error: plot %s: unknown picture; expected map or sweep (see 'tilefit plot --help')\n",
            argv[1]);
    return TF_EXIT_USAGE;
  }
  char *saved = argv[1];
  argv[1] = (char *)kind->name; /* read only: the parser names the command by it */
  int rc = kind->run(argc - 1, argv + 1);
  argv[1] = saved;
  return rc;
}
