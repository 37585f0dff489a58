/* The memory module (model/bind/memory.h): units, the charge rule, capacity at
 * a combination (occupancy included), the per-SM footprints occupancy
 * compares, and the sums and bounds the encoder and the engine build on.
 * Each figure is worked out by hand in the comment beside it. */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "model/bind/memory.h"
#include "model/bind/problem.h"
#include "tests/suites.h"
#include "tests/testutil.h"

/* smem: a ring of stages x 1000 B rounded to 128, a constant 300 B
 * buffer rounded to 256; tmem: n columns; rf: 40 registers. */
static const char ws[] = "{\"name\": \"mem\", \"params\": {\"threads\": 128}, \"roles\": {\"threads\": \"threads\"},"
                         " \"choose\": {\"n\": [32, 48]},"
                         " \"count\": {\"stages\": {\"min\": 1, \"max\": 10}},"
                         " \"buffers\": [{\"name\": \"ring\", \"memory\": \"smem\", \"size\": \"stages * 1000\"},"
                         "   {\"name\": \"bias\", \"memory\": \"smem\", \"size\": 300, \"align\": 256},"
                         "   {\"name\": \"acc\", \"memory\": \"tmem\", \"size\": \"n\"},"
                         "   {\"name\": \"regs\", \"memory\": \"rf\", \"size\": 40}],"
                         " \"objective\": [\"max stages\"]}";

struct fixture {
  tf_machine m;
  tf_workset *w;
  tf_problem *p;
};

static void setup(struct fixture *f, const char *require) {
  f->m = tf_test_machine(9000, 512, 255);
  f->w = tf_test_workset(ws);
  tf_request req;
  tf_request_init(&req);
  if (require)
    tf_request_add_require(&req, require, "--require");
  tf_error err;
  tf_error_init(&err);
  f->p = tf_problem_new(&f->m, f->w, &req, &err);
  tf_request_release(&req);
  ck_assert_msg(f->p != NULL, "%s", err.msg);
}

static void teardown(struct fixture *f) {
  tf_problem_free(f->p);
  tf_workset_free(f->w);
}

START_TEST(test_names_and_units) {
  ck_assert_str_eq(tf_memory_name(TF_MEM_SMEM), "smem");
  ck_assert_str_eq(tf_memory_unit(TF_MEM_TMEM), "columns");
  ck_assert_str_eq(tf_memory_unit(TF_MEM_RF), "registers/thread");
  ck_assert_int_eq(tf_memory_find("rf"), TF_MEM_RF);
  ck_assert_int_eq(tf_memory_find("gmem"), -1);
}
END_TEST

/* Every kind has its rules (a row of memory.c's table): a section of the
 * machine file, a name for people, capacities and a footprint; the memory
 * names of messages come from the same table; a machine without tensor
 * memory lacks tmem and nothing else. */
START_TEST(test_kind_table) {
  tf_machine m = tf_test_machine(9000, 512, 255), no_tmem = tf_test_machine(9000, 0, 255);
  no_tmem.tmem.present = 0;
  char list[96];
  ck_assert_str_eq(tf_memory_list(list, sizeof list, " or "), "smem, tmem or rf");
  ck_assert_str_eq(TF_MEMORY_LIST(", "), "smem, tmem, rf");
  for (int mem = 0; mem < TF_NMEM; mem++) {
    ck_assert_ptr_nonnull(tf_memory_section(mem));
    ck_assert_ptr_nonnull(tf_memory_what(mem));
    ck_assert_int_gt(tf_memory_machine_capacity(&m, mem), 0);
    ck_assert_int_gt(tf_memory_sm_capacity(&m, mem), 0);
    ck_assert_int_gt(tf_memory_sm_footprint(&m, mem, 1, 128), 0);
    ck_assert_int_eq(tf_memory_present(&m, mem), 1);
    ck_assert_int_eq(tf_memory_present(&no_tmem, mem), mem != TF_MEM_TMEM);
    ck_assert_int_eq(tf_memory_section_absent(&no_tmem, tf_memory_section(mem)), mem == TF_MEM_TMEM);
  }
  ck_assert_int_eq(tf_memory_machine_capacity(&no_tmem, TF_MEM_TMEM), 0);
  ck_assert_int_eq(tf_memory_optional(TF_MEM_TMEM), 1);
  ck_assert_int_eq(tf_memory_optional(TF_MEM_SMEM), 0);
  ck_assert_str_eq(tf_memory_what(TF_MEM_TMEM), "tensor memory");
}
END_TEST

START_TEST(test_charge) {
  struct fixture f;
  setup(&f, NULL);
  int64_t v;
  ck_assert_int_eq(tf_memory_align(f.p, 1), 256);
  ck_assert_int_eq(tf_memory_charge(f.p, 1, 300, &v), 0);
  ck_assert_int_eq(v, 512);
  ck_assert_int_eq(tf_memory_charge(f.p, 1, 0, &v), 0);
  ck_assert_int_eq(v, 0);
  ck_assert_int_eq(tf_memory_charge(f.p, 0, 1001, &v), 0); /* alignment 1 */
  ck_assert_int_eq(v, 1001);
  ck_assert_int_eq(tf_memory_charge(f.p, 1, INT64_MAX - 5, &v), -1);
  teardown(&f);
}
END_TEST

START_TEST(test_capacity_and_buffers) {
  struct fixture f;
  setup(&f, NULL);
  ck_assert_uint_eq(f.p->ncombos, 2);
  ck_assert_int_eq(tf_memory_capacity(f.p, TF_MEM_SMEM, 0), 9000);
  ck_assert_int_eq(tf_memory_capacity(f.p, TF_MEM_TMEM, 1), 512);
  ck_assert_int_eq(tf_memory_capacity(f.p, TF_MEM_RF, 0), 255);
  ck_assert_int_eq(tf_memory_capacity_varies(f.p, TF_MEM_SMEM), 0);
  size_t in[4];
  ck_assert_uint_eq(tf_memory_buffers(f.p, TF_MEM_SMEM, 0, in), 2);
  ck_assert_uint_eq(in[0], 0);
  ck_assert_uint_eq(in[1], 1);
  ck_assert_uint_eq(tf_memory_buffers(f.p, TF_MEM_TMEM, 1, in), 1);
  ck_assert_uint_eq(in[0], 2);
  ck_assert_int_eq(tf_memory_of(f.p, 3, 0), TF_MEM_RF);
  teardown(&f);
}
END_TEST

/* With an occupancy, SMEM's capacity is per combination: 2 CTAs on an SM
 * of 10024 B: floor(10024 / 2 / 128) * 128 - 1024 = 3968. */
START_TEST(test_capacity_under_occupancy) {
  struct fixture f;
  setup(&f, "occupancy >= 1");
  ck_assert_int_eq(tf_memory_capacity_varies(f.p, TF_MEM_SMEM), 1);
  ck_assert_int_eq(tf_memory_capacity_varies(f.p, TF_MEM_TMEM), 0);
  ck_assert_int_eq(tf_memory_smem_for_occupancy(&f.m, 1), 8960); /* floor(10024 / 128) * 128 - 1024 */
  ck_assert_int_eq(tf_memory_smem_for_occupancy(&f.m, 2), 3968);
  ck_assert_int_eq(tf_memory_smem_for_occupancy(&f.m, 0), 9000); /* no division by zero */
  for (size_t c = 0; c < f.p->ncombos; c++) {
    int64_t o = f.p->combo[c * f.p->nchoose + (size_t)f.p->occupancy];
    ck_assert_int_eq(tf_memory_capacity(f.p, TF_MEM_SMEM, c), tf_memory_smem_for_occupancy(&f.m, o));
  }
  teardown(&f);
}
END_TEST

/* TMEM: powers of two, at least 32 columns; RF: 4 warps of
 * align(40 * 32, 256) = 1280 registers. */
START_TEST(test_sm_footprint) {
  tf_machine m = tf_test_machine(9000, 512, 255);
  ck_assert_int_eq(tf_memory_sm_footprint(&m, TF_MEM_TMEM, 1, 0), 32);
  ck_assert_int_eq(tf_memory_sm_footprint(&m, TF_MEM_TMEM, 33, 0), 64);
  ck_assert_int_eq(tf_memory_sm_footprint(&m, TF_MEM_TMEM, 256, 0), 256);
  ck_assert_int_eq(tf_memory_sm_footprint(&m, TF_MEM_RF, 40, 128), 4 * 1280);
  ck_assert_int_eq(tf_memory_sm_footprint(&m, TF_MEM_RF, 41, 128), 4 * 1536);
  ck_assert_int_eq(tf_memory_sm_footprint(&m, TF_MEM_SMEM, 1000, 0), 2048); /* 1000 + 1024 reserved, to 128 */
  ck_assert_int_eq(tf_memory_sm_footprint(&m, TF_MEM_RF, INT64_MAX / 2, 128), INT64_MAX);
  ck_assert_int_eq(tf_memory_sm_capacity(&m, TF_MEM_RF), 65536);
  ck_assert_int_eq(tf_memory_sm_capacity(&m, TF_MEM_TMEM), 512);
}
END_TEST

/* At 3 stages: smem 3000 + 512, tmem n, rf 40. */
START_TEST(test_use_and_bounds) {
  struct fixture f;
  setup(&f, NULL);
  int64_t used[TF_NMEM], counts[] = {3}, lo[] = {2}, hi[] = {7}, min, max;
  ck_assert_int_eq(tf_memory_use(f.p, 1, counts, used), 1);
  ck_assert_int_eq(used[TF_MEM_SMEM], 3512);
  ck_assert_int_eq(used[TF_MEM_TMEM], 48);
  ck_assert_int_eq(used[TF_MEM_RF], 40);
  ck_assert_int_eq(tf_memory_use_range(f.p, 0, TF_MEM_SMEM, lo, hi, &min, &max), 0);
  ck_assert_int_eq(min, 2512);
  ck_assert_int_eq(max, 7512);
  int64_t least[TF_NMEM];
  ck_assert_int_eq(tf_memory_least_use(f.p, 1, lo, hi, least), 0);
  ck_assert_int_eq(least[TF_MEM_SMEM], 2512);
  ck_assert_int_eq(least[TF_MEM_TMEM], 48);
  ck_assert_int_eq(least[TF_MEM_RF], 40);
  int64_t resident, per;
  ck_assert_int_eq(tf_memory_line(f.p, 0, TF_MEM_SMEM, 0, counts, 0, &resident, &per), 0);
  ck_assert_int_eq(resident, 512);
  ck_assert_int_eq(per, 1000);
  teardown(&f);
}
END_TEST

/* Occupancy 0 is no occupancy: infeasible with a reason, not a signal. */
START_TEST(test_occupancy_zero) {
  char out[4096], err[4096];
  int rc = tf_test_run("solve -m b200 -w fa4-fwd -p d=128 -p dv=128 --fix B_r=128 --fix B_c=128 --domain occupancy=0 "
                       "--objective 'max stages'",
                       out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 1, "exit %d; stderr: %s", rc, err);
  ck_assert_msg(strstr(out, "occupancy 0") || strstr(err, "occupancy 0"), "out: %s\nerr: %s", out, err);
}
END_TEST

/* Aliases (docs/placement.md, "Aliases"): A is the target; B and C alias
 * A, D aliases B, E aliases A and may be in registers.  The unrounded sizes
 * are compared and the excess rounded by the buffer's own align: B adds
 * 1500 - 1000 = 500, charged 1024; C adds 0; D is compared with B's own
 * 1500, adds 600, charged 768; E adds 200 in smem and all of its 8
 * registers in rf.  A charges 1024: 3016 B, or 2816 B with E in rf. */
static const char alias_ws[] =
    "{\"name\": \"al\", \"buffers\": ["
    " {\"name\": \"A\", \"memory\": \"smem\", \"size\": 1000, \"align\": 128},"
    " {\"name\": \"B\", \"memory\": \"smem\", \"size\": 1500, \"align\": 1024, \"alias\": \"A\"},"
    " {\"name\": \"C\", \"memory\": \"smem\", \"size\": 800, \"alias\": \"A\"},"
    " {\"name\": \"D\", \"memory\": \"smem\", \"size\": 2100, \"align\": 256, \"alias\": \"B\"},"
    " {\"name\": \"E\", \"place\": [\"smem\", \"rf\"], \"size\": {\"smem\": 1200, \"rf\": 8}, \"alias\": \"A\"}],"
    " \"objective\": [\"min used(smem)\"]}";

/* Binds json on a 100000 B / 512 column / 255 register machine into f
 * (f->p NULL, and err set, when it does not bind). */
static tf_problem *bind_json(struct fixture *f, const char *json, const tf_request *req, tf_error *err) {
  f->m = tf_test_machine(100000, 512, 255);
  f->w = tf_test_workset(json);
  tf_error_init(err);
  return f->p = tf_problem_new(&f->m, f->w, req, err);
}

START_TEST(test_alias_sizes) {
  struct fixture f;
  tf_request req;
  tf_request_init(&req);
  tf_error err;
  tf_problem *p = bind_json(&f, alias_ws, &req, &err);
  ck_assert_msg(p != NULL, "%s", err.msg);
  tf_point pt;
  tf_point_init(&pt, p);
  int64_t in_smem[] = {TF_MEM_SMEM}, in_rf[] = {TF_MEM_RF}, none[1] = {0};
  const int64_t size[] = {1000, 500, 0, 600, 200}, alloc[] = {1024, 1024, 0, 768, 200};
  ck_assert_int_eq(tf_problem_eval_point(p, in_smem, none, &pt, &err), 0);
  for (int b = 0; b < 5; b++) {
    ck_assert_int_eq(pt.size[b], size[b]);
    ck_assert_int_eq(pt.alloc[b], alloc[b]);
  }
  ck_assert_int_eq(pt.used[TF_MEM_SMEM], 3016);
  ck_assert_int_eq(tf_problem_eval_point(p, in_rf, none, &pt, &err), 0);
  ck_assert_int_eq(pt.size[4], 8); /* another memory than A's: E stands alone */
  ck_assert_int_eq(pt.used[TF_MEM_RF], 8);
  ck_assert_int_eq(pt.used[TF_MEM_SMEM], 2816);
  tf_point_release(&pt);
  teardown(&f);
  tf_request_release(&req);
}
END_TEST

/* An alias whose size, or whose target's, depends on a count is refused
 * where the two share a memory: the excess would not be affine. */
START_TEST(test_alias_count_refused) {
  static const char ws_count[] = "{\"name\": \"alc\", \"count\": {\"s\": {\"min\": 1, \"max\": 4}}, \"buffers\": ["
                                 " {\"name\": \"A\", \"memory\": \"smem\", \"size\": 1000},"
                                 " {\"name\": \"B\", \"memory\": \"smem\", \"size\": \"1500 + s\", \"alias\": \"A\"}],"
                                 " \"objective\": [\"max s\"]}";
  struct fixture f;
  tf_request req;
  tf_request_init(&req);
  tf_error err;
  ck_assert_ptr_null(bind_json(&f, ws_count, &req, &err));
  ck_assert_int_eq(err.code, TF_EINPUT);
  ck_assert_msg(strstr(err.msg, "'B' aliases 'A', so neither size may depend on a count"), "%s", err.msg);
  teardown(&f);
  tf_request_release(&req);
}
END_TEST

/* placement_order: each placed buffer's index in its candidate list (after
 * pins), read as a mixed-radix number, the first placed buffer first.  X
 * has 2 candidates, Y 3, Z 2: X=rf, Y=tmem, Z=smem is 1*6 + 2*2 + 0 = 10.
 * Pinning Y to tmem or smem leaves [smem, tmem] in list order: 1*4 + 1*2. */
START_TEST(test_placement_order) {
  static const char ws_order[] =
      "{\"name\": \"po\", \"buffers\": ["
      " {\"name\": \"X\", \"place\": [\"smem\", \"rf\"], \"size\": {\"smem\": 64, \"rf\": 1}},"
      " {\"name\": \"Y\", \"place\": [\"rf\", \"smem\", \"tmem\"], \"size\": {\"rf\": 1, \"smem\": 64, \"tmem\": 32}},"
      " {\"name\": \"Z\", \"place\": [\"smem\", \"rf\"], \"size\": {\"smem\": 64, \"rf\": 1}}],"
      " \"objective\": [\"max placement_order\"]}";
  tf_request req;
  tf_request_init(&req);
  tf_error err;
  int64_t at[] = {TF_MEM_RF, TF_MEM_TMEM, TF_MEM_SMEM}, none[1] = {0}, first[] = {TF_MEM_SMEM, TF_MEM_RF, TF_MEM_SMEM};
  for (int pinned = 0; pinned < 2; pinned++) {
    if (pinned) {
      int mems[] = {TF_MEM_TMEM, TF_MEM_SMEM};
      tf_request_add_place(&req, "Y", mems, 2, "--place Y=tmem,smem");
    }
    struct fixture f;
    tf_problem *p = bind_json(&f, ws_order, &req, &err);
    ck_assert_msg(p != NULL, "%s", err.msg);
    ck_assert_uint_eq(p->nobjective, p->nobjective_shown + 1); /* the unshown min placement_order */
    tf_point pt;
    tf_point_init(&pt, p);
    ck_assert_int_eq(tf_problem_eval_point(p, at, none, &pt, &err), 0);
    ck_assert_int_eq(pt.objective[0], pinned ? 6 : 10);
    ck_assert_int_eq(pt.objective[1], pt.objective[0]);
    if (!pinned) {
      ck_assert_int_eq(tf_problem_eval_point(p, first, none, &pt, &err), 0);
      ck_assert_int_eq(pt.objective[0], 0); /* every buffer in its first candidate */
    }
    tf_point_release(&pt);
    teardown(&f);
  }
  tf_request_release(&req);
}
END_TEST

/* Occupancy's TMEM rule on a B200: fa4-fwd at d = 64 holds 384 columns
 * (S 256 + O_acc 128), allocated as 512, so two CTAs do not fit. */
START_TEST(test_occupancy_tmem) {
  char out[8192], err[4096];
  int rc =
      tf_test_run("solve -m b200 -w fa4-fwd -p d=64 --fix B_r=128 --fix B_c=128 --fix q_stage=2 --domain occupancy=2",
                  out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 1, "exit %d; stderr: %s", rc, err);
  ck_assert_msg(strstr(err, "occupancy 2 needs 1024 TMEM columns per SM, above 512 (512 allocated per CTA)"), "%s",
                err);
}
END_TEST

/* Lifetimes (model/bind/memory.h): a header of 100 B live throughout; the
 * main loop's ring, stages x 1000 B, and its 300 B bias; the epilogue's
 * 2500 B tile rounded to 256 (2560).  At 3 stages the main loop holds
 * 3300 and the epilogue 2560, so smem is 100 + 3300 = 3400; at 2 stages
 * the epilogue is the larger, 100 + 2560 = 2660. */
static const char life_ws[] =
    "{\"name\": \"life\", \"count\": {\"stages\": {\"min\": 1, \"max\": 10}},"
    " \"buffers\": [{\"name\": \"header\", \"memory\": \"smem\", \"size\": 100},"
    "   {\"name\": \"ring\", \"memory\": \"smem\", \"size\": \"stages * 1000\", \"lifetime\": \"mainloop\"},"
    "   {\"name\": \"tile\", \"memory\": \"smem\", \"size\": 2500, \"align\": 256, \"lifetime\": \"epilogue\"},"
    "   {\"name\": \"bias\", \"memory\": \"smem\", \"size\": 300, \"lifetime\": \"mainloop\"},"
    "   {\"name\": \"regs\", \"memory\": \"rf\", \"size\": 40, \"lifetime\": \"epilogue\"}],"
    " \"objective\": [\"max stages\"]}";

START_TEST(test_lifetime_rule) {
  struct fixture f;
  tf_request req;
  tf_request_init(&req);
  tf_error err;
  tf_problem *p = bind_json(&f, life_ws, &req, &err);
  ck_assert_msg(p != NULL, "%s", err.msg);
  ck_assert_int_eq(tf_memory_nrows(p), 3);
  ck_assert_str_eq(tf_memory_row_name(p, 1), "mainloop");
  ck_assert(tf_memory_in_row(p, 0, 1) && tf_memory_in_row(p, 0, 2) && tf_memory_in_row(p, 1, 1));
  ck_assert(!tf_memory_in_row(p, 1, 2) && !tf_memory_in_row(p, 2, 1) && !tf_memory_in_row(p, 1, 0));
  /* smem needs the two phases' rows, not the always-live one; rf only the epilogue's */
  ck_assert(!tf_memory_row_needed(p, TF_MEM_SMEM, 0) && tf_memory_row_needed(p, TF_MEM_SMEM, 1));
  ck_assert(tf_memory_row_needed(p, TF_MEM_RF, 2) && !tf_memory_row_needed(p, TF_MEM_RF, 1));
  int64_t used[TF_NMEM], three[] = {3}, two[] = {2}, lo[] = {2}, hi[] = {5}, min, max;
  ck_assert_int_eq(tf_memory_use(p, 0, three, used), 1);
  ck_assert_int_eq(used[TF_MEM_SMEM], 3400);
  ck_assert_int_eq(used[TF_MEM_RF], 40);
  ck_assert_int_eq(tf_memory_use(p, 0, two, used), 1);
  ck_assert_int_eq(used[TF_MEM_SMEM], 2660);
  /* over stages 2..5: the main loop 2300..5300 against the epilogue's 2560 */
  ck_assert_int_eq(tf_memory_use_range(p, 0, TF_MEM_SMEM, lo, hi, &min, &max), 0);
  ck_assert_int_eq(min, 100 + 2560);
  ck_assert_int_eq(max, 100 + 5300);
  ck_assert_int_eq(tf_memory_least_use(p, 0, lo, hi, used), 0);
  ck_assert_int_eq(used[TF_MEM_SMEM], 2660);
  /* one line per row: the main loop's 400 + 1000 stages, the epilogue's 2660 flat */
  int64_t resident, per;
  ck_assert_int_eq(tf_memory_line(p, 0, TF_MEM_SMEM, 1, three, 0, &resident, &per), 0);
  ck_assert(resident == 400 && per == 1000);
  ck_assert_int_eq(tf_memory_line(p, 0, TF_MEM_SMEM, 2, three, 0, &resident, &per), 0);
  ck_assert(resident == 2660 && per == 0);
  int64_t slots[TF_MEMORY_SLOTS] = {0};
  slots[TF_MEMORY_SLOT(TF_MEM_TMEM, 0)] = INT64_MAX - 1;
  slots[TF_MEMORY_SLOT(TF_MEM_TMEM, 2)] = 5;
  ck_assert_int_eq(tf_memory_total(p, slots, 0, used), -1); /* overflow */
  ck_assert_int_eq(tf_memory_total(p, slots, 1, used), 0);
  ck_assert_int_eq(used[TF_MEM_TMEM], INT64_MAX);
  tf_problem_free(p);
  tf_workset_free(f.w);
  tf_request_release(&req);
}
END_TEST

Suite *memory_suite(void) {
  Suite *s = suite_create("memory");
  TCase *tc = tcase_create("Core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_names_and_units);
  tcase_add_test(tc, test_kind_table);
  tcase_add_test(tc, test_charge);
  tcase_add_test(tc, test_capacity_and_buffers);
  tcase_add_test(tc, test_capacity_under_occupancy);
  tcase_add_test(tc, test_sm_footprint);
  tcase_add_test(tc, test_use_and_bounds);
  tcase_add_test(tc, test_occupancy_zero);
  tcase_add_test(tc, test_alias_sizes);
  tcase_add_test(tc, test_alias_count_refused);
  tcase_add_test(tc, test_placement_order);
  tcase_add_test(tc, test_occupancy_tmem);
  tcase_add_test(tc, test_lifetime_rule);
  suite_add_tcase(s, tc);
  return s;
}
