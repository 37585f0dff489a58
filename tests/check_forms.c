/* The form pool (model/bind/forms.h): each distinct form once, rollback
 * of what a dropped candidate added, and a bound problem that shares its
 * forms and stores none for the candidates it drops. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/bind/forms.h"
#include "model/bind/problem.h"
#include "tests/suites.h"
#include "tests/testutil.h"

START_TEST(test_each_form_once) {
  tf_forms f;
  tf_forms_init(&f, 3);
  f.share_from = 0; /* shared from the first form */
  const int64_t a[] = {1, 2, 3}, b[] = {1, 2, 4}, c[] = {0, 0, 0};
  uint32_t ia = tf_forms_add(&f, a), ib = tf_forms_add(&f, b), ic = tf_forms_add(&f, c);
  ck_assert_uint_eq(ia, 0);
  ck_assert_uint_eq(ib, 1);
  ck_assert_uint_eq(ic, 2);
  ck_assert_uint_eq(tf_forms_add(&f, b), ib);
  ck_assert_uint_eq(tf_forms_add_near(&f, a, ia), ia); /* the hint holds it */
  ck_assert_uint_eq(tf_forms_add_near(&f, a, ib), ia); /* a wrong hint: looked up */
  ck_assert_uint_eq(tf_forms_add_near(&f, c, UINT32_MAX), ic);
  ck_assert_uint_eq(f.n, 3);
  ck_assert_mem_eq(tf_forms_at(&f, ib), b, sizeof b);
  tf_forms_release(&f);
}
END_TEST

/* A reference pool, a plain list searched from the start, against the
 * pool under random adds, marks and rollbacks: the same index for every
 * form, the same count, every stored form intact.  Forms come from a small
 * range of values so they repeat, and there are enough of them that the
 * table grows several times. */
struct ref {
  int64_t v[4096][4];
  size_t n;
};

static uint32_t ref_add(struct ref *r, const int64_t *form) {
  for (size_t i = 0; i < r->n; i++)
    if (!memcmp(r->v[i], form, sizeof r->v[i]))
      return (uint32_t)i;
  memcpy(r->v[r->n], form, sizeof r->v[0]);
  return (uint32_t)r->n++;
}

static uint64_t next(uint64_t *s) {
  *s = *s * 6364136223846793005u + 1442695040888963407u;
  return *s >> 33;
}

/* share_from 0: every form shared, the list's index exactly; 300: the
 * forms stored as they come until then (a duplicate costs room, never a
 * wrong form), and shared after. */
static void against_a_list(size_t share_from, uint64_t seed) {
  uint64_t s = seed;
  static struct ref r;
  r.n = 0;
  tf_forms f;
  tf_forms_init(&f, 4);
  f.share_from = share_from;
  size_t mark = 0, rmark = 0, fmark = 0;
  for (int step = 0; step < 20000 && r.n < 4000 && f.n < 4000; step++) {
    uint64_t what = next(&s) % 100;
    if (what < 3) {
      mark = tf_forms_mark(&f), rmark = r.n, fmark = f.n;
    } else if (what < 5) {
      tf_forms_rollback(&f, mark), r.n = rmark;
      ck_assert_uint_eq(f.n, fmark);
    } else {
      int64_t form[4];
      for (int i = 0; i < 4; i++)
        form[i] = (int64_t)(next(&s) % 7) * 1024 - 2048; /* multiples of a power of two, as sizes are */
      uint32_t got = tf_forms_add(&f, form), want = ref_add(&r, form);
      ck_assert_msg(got < f.n && !memcmp(tf_forms_at(&f, got), form, sizeof form),
                    "seed %llu step %d: index %u holds another form", (unsigned long long)seed, step, got);
      if (!share_from)
        ck_assert_msg(got == want, "seed %llu step %d: index %u, the list's %u", (unsigned long long)seed, step, got,
                      want);
    }
  }
  if (!share_from) {
    ck_assert_uint_eq(f.n, r.n);
    ck_assert_uint_gt(f.tcap, 4096); /* grown several times */
    for (size_t i = 0; i < r.n; i++)
      ck_assert_mem_eq(tf_forms_at(&f, (uint32_t)i), r.v[i], sizeof r.v[i]);
  } else {
    ck_assert_uint_le(f.n, r.n + share_from); /* past share_from, no form twice */
    ck_assert_uint_gt(f.tcap, 0);
  }
  tf_forms_release(&f);
}

START_TEST(test_against_a_list) {
  const uint64_t seed = tf_test_seed("forms", 20261202);
  against_a_list(0, seed);
  against_a_list(300, seed);
}
END_TEST

/* 10,000 candidates, 5,000 kept (the require drops b > 50), five forms a
 * combination: x depends on a alone, y on both, the row is satisfied, the
 * objectives take five values and one.  Stored in place they would be
 * 25,000; shared, 5,106 distinct, plus what the first TF_FORMS_SHARE_FROM
 * stored as they came (the previous combination's repeats aside: about two
 * a combination) — about 7,200.  Without the rollback, the dropped
 * candidates would add their y forms, about 5,000 more. */
START_TEST(test_problem_shares_forms) {
  static const char ws[] =
      "{\"name\": \"t\", \"choose\": {\"a\": {\"from\": 1, \"to\": 100}, \"b\": {\"from\": 1, \"to\": 100}},"
      " \"count\": {\"s\": {\"min\": 1, \"max\": 3}},"
      " \"buffers\": [{\"name\": \"x\", \"memory\": \"smem\", \"size\": \"s * a * 1024\"},"
      "   {\"name\": \"y\", \"memory\": \"smem\", \"size\": \"b * 7 * 1000 + a\"}],"
      " \"require\": [\"b <= 50\"],"
      " \"objective\": [\"max (a + b) % 5\", \"max s\"]}";
  tf_machine m = tf_test_machine(10000000, 512, 255);
  tf_workset *w;
  tf_problem *p = tf_test_problem(&m, ws, &w);
  ck_assert_uint_eq(p->ncombos, 5000);
  ck_assert_uint_gt(p->forms.n, 5106);
  ck_assert_msg(p->forms.n < 8000, "%zu forms", p->forms.n);
  for (size_t c = 0; c < p->ncombos; c++) {
    const int64_t *x = tf_problem_buf(p, c, 0), *y = tf_problem_buf(p, c, 1), *choose = p->combo + c * p->nchoose;
    ck_assert_int_eq(x[0], 0);
    ck_assert_int_eq(x[1], choose[0] * 1024);
    ck_assert_int_eq(y[0], choose[1] * 7000 + choose[0]);
    ck_assert_int_eq(y[1], 0);
    ck_assert_int_eq(tf_problem_row(p, c, 0)[0], 0);
    ck_assert_int_eq(tf_problem_obj(p, c, 0)[0], (choose[0] + choose[1]) % 5);
    ck_assert_int_eq(tf_problem_obj(p, c, 1)[1], 1);
  }
  tf_problem_free(p);
  tf_workset_free(w);
}
END_TEST

Suite *forms_suite(void) {
  Suite *s = suite_create("forms");
  TCase *tc = tcase_create("Forms");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_each_form_once);
  tcase_add_test(tc, test_against_a_list);
  tcase_add_test(tc, test_problem_shares_forms);
  suite_add_tcase(s, tc);
  return s;
}
