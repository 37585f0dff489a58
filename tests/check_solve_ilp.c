/* --solver glpk (solver/solve_ilp.c) and the exports (solver/export.c):
 * GLPK's answer equals the exact one where GLPK is right, and where it is
 * wrong (the large-coefficient engine cases) the answer is exit 3 with
 * both sides' values; glpsol reads the exported level files of shipped
 * worksets and generated multi-count problems back to the optima tilefit
 * prints. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/input/catalog.h"
#include "solver/export.h"
#include "tests/oracle_ref.h"
#include "tests/propgen.h"
#include "tests/suites.h"
#include "tests/testutil.h"

static char out[1 << 17], err[1 << 14];

#define D "tests/data/engine-cases/"
#define MW(name) "-m " D name "/m.json -w " D name "/w.json"
#define FA4 "solve -m b200 -w fa4-fwd -p d=128 -p dv=128 --json"

/* The JSON answer up to its "solver" member: what both solvers share. */
static size_t shared_part(const char *json) {
  const char *s = strstr(json, ",\"solver\":");
  ck_assert_msg(s != NULL, "no solver member in %s", json);
  return (size_t)(s - json);
}

START_TEST(test_glpk_equals_exact) {
  static char exact[1 << 17];
  ck_assert_int_eq(tf_test_run(FA4, exact, sizeof exact, err, sizeof err), 0);
  ck_assert_int_eq(tf_test_run(FA4 " --solver glpk", out, sizeof out, err, sizeof err), 0);
  size_t n = shared_part(exact);
  ck_assert_uint_eq(shared_part(out), n);
  ck_assert_msg(!strncmp(exact, out, n), "exact:\n%s\nglpk:\n%s", exact, out);
  ck_assert_msg(strstr(exact, ",\"solver\":{\"name\":\"exact\"}}"), "%s", exact);
  ck_assert_msg(strstr(out, ",\"solver\":{\"name\":\"glpk\",\"objectives\":[{\"objective\":\"max q_stage * B_r * B_c\","
                            "\"value\":32768},{\"objective\":\"max stages\",\"value\":3}],\"seconds\":"),
                "%s", out);
  /* text says the same */
  ck_assert_int_eq(
      tf_test_run("solve -m b200 -w fa4-fwd -p d=128 -p dv=128 --solver glpk", out, sizeof out, err, sizeof err), 0);
  ck_assert_msg(
      strstr(out,
             "solver       glpk: max q_stage * B_r * B_c = 32768, max stages = 3; certified: the point fits and equals "
             "the exact optimum"),
      "%s", out);
}
END_TEST

/* A placed buffer rounded to its align whose size depends on a count: its
 * granules have a column per memory, so at the smem combination nothing
 * is charged to rf, and GLPK takes smem (the first place) as the exact
 * search does, at the tie-break level alone and after an objective. */
/* Every shipped workset on every shipped machine it models, at its
 * default request: GLPK's answer is the exact search's, point and all
 * (the search order's last levels decide ties no objective decides:
 * triton-matmul on b200 had BLOCK_M 64 from GLPK, 16 from the search). */
START_TEST(test_glpk_every_shipped_problem) {
  static char exact[1 << 17];
  size_t nw, nm;
  char **ws = tf_catalog_list(TF_CATALOG_WORKSETS, &nw), **ms = tf_catalog_list(TF_CATALOG_MACHINES, &nm), cmd[512];
  int pairs = 0, stride = 1, at = 0;
#ifdef TF_TEST_ASAN
  stride = 4; /* each run of the sanitized binary costs some 80 ms: a quarter of the pairs there */
#endif
  for (size_t w = 0; w < nw; w++)
    for (size_t m = 0; m < nm; m++) {
      if (at++ % stride)
        continue;
      snprintf(cmd, sizeof cmd, "solve -m %s -w %s --json", ms[m], ws[w]);
      int rc = tf_test_run(cmd, exact, sizeof exact, err, sizeof err);
      if (rc == 2 && strstr(err, "$.arch: "))
        continue; /* a machine the workset does not model */
      ck_assert_msg(rc == 0 || rc == 1, "%s: exit %d: %s", cmd, rc, err);
      snprintf(cmd, sizeof cmd, "solve -m %s -w %s --json --solver glpk", ms[m], ws[w]);
      ck_assert_msg(tf_test_run(cmd, out, sizeof out, err, sizeof err) == rc, "%s: %s", cmd, err);
      size_t n = rc ? strlen(exact) : shared_part(exact);
      ck_assert_msg((rc ? strlen(out) : shared_part(out)) == n && !strncmp(exact, out, n), "%s:\nexact:\n%s\nglpk:\n%s",
                    cmd, exact, out);
      pairs++;
    }
  ck_assert_int_gt(pairs, 100 / stride);
  tf_catalog_list_free(ws, nw);
  tf_catalog_list_free(ms, nm);
}
END_TEST

START_TEST(test_glpk_placed_units) {
  static char exact[1 << 17];
  static const char *const extra[] = {"", " --objective 'max c_stages'"};
  char args[512];
  snprintf(args, sizeof args, "solve %s --json%s", MW("glpk_placed_units"), extra[_i]);
  ck_assert_int_eq(tf_test_run(args, exact, sizeof exact, err, sizeof err), 0);
  ck_assert_msg(strstr(exact, "\"placement\":{\"buf_0\":\"smem\"}"), "%s", exact);
  strcat(args, " --solver glpk");
  int rc = tf_test_run(args, out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 0, "%s: exit %d\n%s", args, rc, err);
  size_t n = shared_part(exact);
  ck_assert_msg(shared_part(out) == n && !strncmp(exact, out, n), "exact:\n%s\nglpk:\n%s", exact, out);
}
END_TEST

/* Where GLPK is wrong: exit 3, nothing on stdout, both values on stderr. */
static const struct wrong {
  const char *args, *glpk, *exact;
} wrong[] = {
    {"solve -m b200 -w " D "shipped_wrong_optimum/w.json",
     "glpk: max 100000000 * (s + s) + c * c = 2200000064 at c=8, s=11",
     "exact optimum: max 100000000 * (s + s) + c * c = 2200000081 at c=9, s=11"},
    {"solve " MW("wrong_optimum_realcap") " --require 'stages + stages + stages >= 23'",
     "glpk: max 100000000 * (stages + stages) + c0 * c0 = 2200000064 at c0=8, stages=11",
     "exact optimum: max 100000000 * (stages + stages) + c0 * c0 = 2200000081 at c0=9, stages=11"},
    {"solve " MW("wrong_status_presolve"), "glpk: infeasible",
     "exact optimum: max s1 * 100000000 - s0 = 199999998, max (-(c1 - c1)) * s1 + s0 = 2, max s1 + s1 = 4 at c1=8, "
     "s0=2, s1=2"},
    {"solve " MW("wrong_optimum_large"), "glpk: max (-7 % 3) * s0 + s0 = 9 at s0=3",
     "exact optimum: max (-7 % 3) * s0 + s0 = 12 at s0=4"},
};

START_TEST(test_glpk_wrong_is_exit_3) {
  const struct wrong *w = &wrong[_i];
  char args[512];
  snprintf(args, sizeof args, "%s --solver glpk --json", w->args);
  int rc = tf_test_run(args, out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 3, "%s: exit %d\n%s%s", args, rc, out, err);
  ck_assert_msg(out[0] == 0, "%s: stdout %s", args, out);
  const char *g = strstr(err, w->glpk), *e = strstr(err, w->exact);
  ck_assert_msg(g && e && g < e, "%s: stderr\n%s\nwants '%s' then '%s'", args, err, w->glpk, w->exact);
  /* the exact solver answers the same problem */
  snprintf(args, sizeof args, "%s --json", w->args);
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 0);
}
END_TEST

/* A sweep's point that fails certification is an error line with both
 * values; the others are GLPK's answers. */
START_TEST(test_glpk_sweep_error_line) {
  char dir[256], path[300], args[512];
  tf_test_temp_dir(dir, sizeof dir, "tilefit-ilp");
  snprintf(path, sizeof path, "%s/p.jsonl", dir);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs("{\"id\":\"fa4\",\"machine\":\"b200\",\"workset\":\"fa4-fwd\",\"params\":{\"d\":128,\"dv\":128}}\n"
        "{\"id\":\"big\",\"machine\":\"b200\",\"workset\":\"" D "shipped_wrong_optimum/w.json\"}\n"
        "{\"id\":\"own\",\"machine\":\"b200\",\"workset\":\"fa4-fwd\",\"solver\":\"exact\"}\n",
        f);
  fclose(f);
  snprintf(args, sizeof args, "sweep %s --solver glpk -q", path);
  tf_test_run(args, out, sizeof out, err, sizeof err);
  TF_TEST_CONTAINS(out, "\"id\":\"fa4\"", "\"solver\":{\"name\":\"glpk\"");
  ck_assert_msg(strstr(out, "\"status\":\"error\""), "%s", out);
  ck_assert_msg(strstr(out, "glpk: max 100000000 * (s + s) + c * c = 2200000064 at c=8, s=11; exact optimum: max "
                            "100000000 * (s + s) + c * c = 2200000081 at c=9, s=11"),
                "%s", out);
  const char *own = strstr(out, "\"id\":\"own\"");
  ck_assert_msg(own && strstr(own, "\"solver\":{\"name\":\"exact\"}"), "%s", out); /* the line's own key wins */
  remove(path);
  rmdir(dir);
}
END_TEST

/* An infeasible problem: GLPK agrees, and says so. */
START_TEST(test_glpk_infeasible) {
  int rc = tf_test_run(FA4 " --require 'stages >= 41' --solver glpk", out, sizeof out, err, sizeof err);
  ck_assert_int_eq(rc, 1);
  TF_TEST_CONTAINS(out, "\"status\":\"infeasible\"", "\"solver\":{\"name\":\"glpk\",\"objectives\":[]");
}
END_TEST

START_TEST(test_level_names) {
  char buf[64];
  static const char *const cases[][3] = {{"m.lp", "m.lp", "m.level2.lp"},
                                         {"out/m.lp", "out/m.lp", "out/m.level2.lp"},
                                         {"model", "model", "model.level2"},
                                         {"a.b/model", "a.b/model", "a.b/model.level2"},
                                         {".lp", ".lp", ".lp.level2"}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    ck_assert_int_eq(tf_export_level_name(cases[i][0], 0, buf, sizeof buf), 0);
    ck_assert_str_eq(buf, cases[i][1]);
    ck_assert_int_eq(tf_export_level_name(cases[i][0], 1, buf, sizeof buf), 0);
    ck_assert_str_eq(buf, cases[i][2]);
  }
  ck_assert_int_eq(tf_export_level_name("m.lp", 11, buf, sizeof buf), 0);
  ck_assert_str_eq(buf, "m.level12.lp");
  ck_assert_int_eq(tf_export_level_name("m.lp", 1, buf, 8), -1);
}
END_TEST

/* glpsol's optimum of one exported level file (CPLEX LP, or free MPS,
 * which has no objective sense: `sense` is glpsol's --max or --min); 1
 * when it finds none. */
static int glpsol_value(const char *file, const char *sense, long long *v) {
  char cmd[1024], line[512];
  snprintf(cmd, sizeof cmd, "glpsol %s %s '%s' -o /dev/stdout 2>&1", sense ? "--freemps" : "--lp", sense ? sense : "",
           file);
  FILE *p = popen(cmd, "r");
  ck_assert_ptr_nonnull(p);
  int found = 0, none = 0;
  while (fgets(line, sizeof line, p)) {
    if (sscanf(line, "Objective: %*s = %lld", v) == 1)
      found = 1;
    none |= strstr(line, "NO INTEGER FEASIBLE") || strstr(line, "INTEGER EMPTY") || strstr(line, "UNDEFINED") != NULL;
  }
  pclose(p);
  return found && !none ? 0 : 1;
}

/* The optimum values of a JSON answer's "objectives", in order, and
 * whether each maximizes. */
static int answer_values(const char *json, long long *v, int *max, int size) {
  int n = 0;
  const char *s = strstr(json, "\"objectives\":["), *stop = s ? strstr(s, "}],") : NULL;
  for (const char *at = s; at && n < size && (at = strstr(at, "{\"objective\":\"")) && at < stop; n++) {
    max[n] = !strncmp(at + 14, "max", 3);
    at = strstr(at, "\"value\":");
    v[n] = strtoll(at + 8, NULL, 10);
  }
  return n;
}

/* Pick columns in an LP file's integer sections. */
static long long picks_in(const char *file) {
  char cmd[512];
  long long n = -1;
  snprintf(cmd, sizeof cmd, "awk '/^Generals|^Binary/{g=1;next} /^End/{g=0} g' '%s' | tr ' ' '\\n' | grep -c '^pick('",
           file);
  FILE *p = popen(cmd, "r");
  ck_assert_ptr_nonnull(p);
  ck_assert(fscanf(p, "%lld", &n) == 1);
  pclose(p);
  return n;
}

/* Exports `args` to dir/m.lp and dir/m.mps; glpsol reads every level
 * file back to the optimum tilefit printed (and the level after the shown
 * ones to `porder`, the optimum's placement_order, when it is >= 0); pick
 * columns: one per kept combination.  Returns 1 when no combination is
 * left to model (exit 2, no file), else 0. */
static int export_agrees(const char *dir, const char *args, int check_binaries, long long porder) {
  char cmd[2048], file[300];
  snprintf(cmd, sizeof cmd, "%s --json --lp %s/m.lp --mps %s/m.mps", args, dir, dir);
  int rc = tf_test_run(cmd, out, sizeof out, err, sizeof err);
  if (rc == 2 && strstr(err, "no model to write: every combination was ruled out"))
    return 1;
  ck_assert_msg(rc == 0 || rc == 1, "%s: exit %d\n%s", cmd, rc, err);
  long long want[16], got;
  int max[16];
  int n = answer_values(out, want, max, 16);
  if (rc == 1) { /* infeasible: level 1 only, and glpsol finds no point */
    snprintf(file, sizeof file, "%s/m.lp", dir);
    ck_assert_msg(glpsol_value(file, NULL, &got) == 1, "%s: glpsol found %lld", cmd, got);
    ck_assert_int_eq(access(file, F_OK), 0);
    remove(file);
    snprintf(file, sizeof file, "%s/m.mps", dir);
    remove(file);
    return 0;
  }
  for (int mps = 0; mps < 2; mps++)
    for (int level = 0;; level++) {
      char base[256];
      snprintf(base, sizeof base, "%s/m.%s", dir, mps ? "mps" : "lp");
      ck_assert_int_eq(tf_export_level_name(base, (size_t)level, file, sizeof file), 0);
      if (access(file, F_OK)) {
        ck_assert_msg(level >= n, "%s: %d levels printed, %d files", cmd, n, level);
        break;
      }
      const char *sense = !mps ? NULL : level < n && max[level] ? "--max" : "--min"; /* past n: placement order */
      ck_assert_msg(glpsol_value(file, sense, &got) == 0, "%s: glpsol finds no optimum in %s", cmd, file);
      if (level < n)
        ck_assert_msg(got == want[level], "%s: %s: glpsol %lld, tilefit %lld", cmd, file, got, want[level]);
      if (level == n && porder >= 0)
        ck_assert_msg(got == porder, "%s: %s: glpsol's placement_order %lld, the reference's %lld", cmd, file, got,
                      porder);
      const char *kept = strstr(out, "\"kept\":");
      ck_assert_ptr_nonnull(kept);
      if (check_binaries && level == 0 && !mps) /* one binary per kept combination */
        ck_assert_int_eq(picks_in(file), strtoll(kept + 7, NULL, 10));
      remove(file);
    }
  return 0;
}

START_TEST(test_export_shipped) {
  static const char *const problems[] = {
      ("solve -m h100-sxm -w cutlass-sm90-gemm -p epilogue_bytes=33792 --objective 'max tile_m*tile_n' "
       "--objective 'max stages'"), /* one string: the parentheses tell clang so */
      "solve -m b200 -w fa4-fwd -p d=128 -p dv=128",
      "solve -m h100-sxm -w fa3-fwd -p d=128",
      "solve -m b200 -w fa4-bwd --fix dO_stage=1",
      "solve -m b200 -w fa4-fwd -p d=128 -p dv=128 --require 'stages >= 41'",
      /* lifetimes: one capacity row per phase */
      "solve -m a100 -w cutlass-sm80-gemm -p epilogue_bytes=100000",
      "solve -m a100 -w tests/data/worksets/lifetimes.json",
  };
  char dir[256];
  tf_test_temp_dir(dir, sizeof dir, "tilefit-lp");
  ck_assert_int_eq(export_agrees(dir, problems[_i], 1, -1), 0);
  ck_assert_int_eq(rmdir(dir), 0); /* every level file was read and removed */
}
END_TEST

/* A memory with lifetimes has one capacity row per phase (always-live +
 * that phase), and no row of the always-live buffers alone, which both
 * hold; a memory without keeps its one row. */
START_TEST(test_lifetime_rows) {
  char dir[256], cmd[1024], file[300];
  tf_test_temp_dir(dir, sizeof dir, "tilefit-lp");
  snprintf(cmd, sizeof cmd,
           "solve -m a100 -w tests/data/worksets/lifetimes.json --fix tile=128 --fix tile_k=32 --lp %s/m.lp", dir);
  ck_assert_msg(tf_test_run(cmd, out, sizeof out, err, sizeof err) == 0, "%s", err);
  snprintf(file, sizeof file, "%s/m.lp", dir);
  FILE *f = fopen(file, "r");
  ck_assert_ptr_nonnull(f);
  static char text[1 << 16];
  text[fread(text, 1, sizeof text - 1, f)] = 0;
  fclose(f);
  TF_TEST_CONTAINS(text, "capacity(smem,mainloop):", "capacity(smem,epilogue):");
  ck_assert_msg(!strstr(text, "capacity(smem):") && strstr(text, "capacity(rf):"), "%s", text);
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* Its exported tie-break level: both units columns, and glpsol finds
 * placement_order 0 (smem) once the earlier level is pinned. */
START_TEST(test_export_placed_units) {
  char dir[256], cmd[1024], file[300];
  tf_test_temp_dir(dir, sizeof dir, "tilefit-lp");
  snprintf(cmd, sizeof cmd, "solve %s --objective 'max c_stages' --lp %s/m.lp", MW("glpk_placed_units"), dir);
  ck_assert_msg(tf_test_run(cmd, out, sizeof out, err, sizeof err) == 0, "%s", err);
  snprintf(file, sizeof file, "%s/m.level2.lp", dir);
  FILE *f = fopen(file, "r");
  ck_assert_ptr_nonnull(f);
  static char text[1 << 16];
  text[fread(text, 1, sizeof text - 1, f)] = 0;
  fclose(f);
  ck_assert_msg(strstr(text, "round(buf_0,smem):") && strstr(text, "capacity(rf): + 8 units(buf_0,rf) <= 255"), "%s",
                text);
  long long v = -1;
  ck_assert_int_eq(glpsol_value(file, NULL, &v), 0);
  ck_assert_int_eq(v, 0);
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* Generated problems with two or three counts, in GLPK's range, and
 * placement problems whose placement_order decides: its level reads back
 * to the reference's optimum's. */
START_TEST(test_export_generated) {
  char dir[256], mfile[300], wfile[300], store[8192], text[1 << 15];
  tf_test_temp_dir(dir, sizeof dir, "tilefit-lp");
  snprintf(mfile, sizeof mfile, "%s/m.json", dir);
  snprintf(wfile, sizeof wfile, "%s/w.json", dir);
  int done = 0, placed = 0;
  for (unsigned long long seed = 1; (done < 12 || placed < 8) && seed < 4000; seed++) {
    static pg_problem p;
    static ref_result r;
    pg_generate(&p, seed);
    int tie = pg_has_placement_tie_break(&p);
    if ((tie ? placed >= 8 : p.ncounts < 2 || done >= 12) || p.top || p.check ||
        (p.features & (1ull << PF_WEIGHT_1E9 | 1ull << PF_CAP_2_40)))
      continue;
    ref_solve(&p, 0, &r);
    if (r.out_of_range)
      continue;
    FILE *f = fopen(mfile, "w");
    pg_machine_json(&p, text, sizeof text);
    fputs(text, f);
    fclose(f);
    f = fopen(wfile, "w");
    pg_workset_json(&p, text, sizeof text);
    fputs(text, f);
    fclose(f);
    char *argv[64], args[4096];
    int argc = pg_args(&p, mfile, wfile, argv, store, sizeof store);
    size_t len = 0;
    for (int i = 1; i < argc && strcmp(argv[i], "--jsonl"); i++) /* after "tilefit", shell words, quoted */
      len += (size_t)snprintf(args + len, sizeof args - len, i > 1 ? " '%s'" : "%s", argv[i]);
    ck_assert_uint_lt(len, sizeof args);
    int agrees = !export_agrees(dir, args, 0, tie && r.nfeasible ? r.best.objective[r.nobjective] : -1);
    *(tie ? &placed : &done) += agrees;
  }
  ck_assert_int_eq(done, 12);
  ck_assert_int_eq(placed, 8);
  remove(mfile);
  remove(wfile);
  ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

Suite *solve_ilp_suite(void) {
  Suite *s = suite_create("solve_ilp");
  TCase *tc = tcase_create("glpk");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_glpk_equals_exact);
  tcase_add_test(tc, test_glpk_every_shipped_problem);
  tcase_add_loop_test(tc, test_glpk_wrong_is_exit_3, 0, (int)(sizeof wrong / sizeof *wrong));
  tcase_add_test(tc, test_glpk_sweep_error_line);
  tcase_add_test(tc, test_glpk_infeasible);
  tcase_add_loop_test(tc, test_glpk_placed_units, 0, 2);
  suite_add_tcase(s, tc);
  TCase *ex = tcase_create("export");
  tcase_set_timeout(ex, 300);
  tcase_add_test(ex, test_level_names);
  tcase_add_loop_test(ex, test_export_shipped, 0, 7);
  tcase_add_test(ex, test_lifetime_rows);
  tcase_add_test(ex, test_export_placed_units);
  tcase_add_test(ex, test_export_generated);
  suite_add_tcase(s, ex);
  return s;
}
