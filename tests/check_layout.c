/* The layout (model/bind/layout.h) and its writers (solver/emit/layout_write.h,
 * solver/emit/struct_write.h): offsets that tile each memory from 0 to its
 * used figure, sizes rounded as the capacity rows charge them, an aliased
 * buffer inside its host; `tilefit layout` on the sm90 GEMM and on every
 * shipped workset's default answer (the total equals solve's used, the C
 * header compiles as C11 and C++17 and its asserts hold), a header with
 * one size edited that no longer compiles, and property-generated problems
 * (tests/propgen.h) laid out. */
#include <check.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/bind/layout.h"
#include "model/core/json.h"
#include "model/input/catalog.h"
#include "solver/tilefit.h"
#include "tests/propgen.h"
#include "tests/suites.h"
#include "tests/testutil.h"

static char out[1 << 18], out2[1 << 18], err[1 << 14];

#define GEMM \
  "-m h100-sxm -w cutlass-sm90-gemm --fix tile_m=128 --fix tile_n=256 --fix tile_k=64 -p epilogue_bytes=33792"

/* Where buffer b comes in the workset's layout order. */
static size_t order_rank(const tf_workset *w, size_t b) {
  for (size_t i = 0; i < w->nbuffers; i++)
    if (w->layout_order[i] == b)
      return i;
  ck_abort_msg("buffer %zu is not in the layout order", b);
  return 0;
}

/* Checks a layout against the point it lays out, restating the charge
 * rule here: each allocation is the least multiple of the alignment that
 * holds the (folded) size; the always-live buffers that own their space
 * follow one another from 0 with no gap, each lifetime's from where they
 * end; the memory ends at the largest lifetime's end, which is used. */
static void layout_holds(const tf_problem *p, const tf_point *pt, const tf_layout *l, const char *what) {
  int64_t cursor[TF_NMEM][1 + TF_MAX_LIFETIMES] = {{0}}, end[TF_NMEM] = {0}, base[TF_NMEM] = {0};
  for (size_t i = 0; i < l->nslots; i++)
    if (l->slots[i].lifetime < 0)
      base[l->slots[i].memory] += l->slots[i].allocated;
  for (int m = 0; m < TF_NMEM; m++) /* always-live from 0, every lifetime from their end */
    for (int q = 1; q <= TF_MAX_LIFETIMES; q++)
      cursor[m][q] = end[m] = base[m];
  for (size_t i = 0; i < l->nslots; i++) {
    const tf_layout_slot *s = &l->slots[i];
    int64_t own = pt->size[s->buffer], want = (own + s->align - 1) / s->align * s->align, *c;
    ck_assert_msg(s->allocated == want, "%s: %s allocated %lld, want %lld", what, p->workset->buffers[s->buffer].name,
                  (long long)s->allocated, (long long)want);
    ck_assert_int_eq(s->lifetime, p->workset->buffers[s->buffer].lifetime);
    c = &cursor[s->memory][s->lifetime + 1];
    if (s->host < 0)
      ck_assert_msg(s->offset == *c, "%s: %s at %lld, want %lld", what, p->workset->buffers[s->buffer].name,
                    (long long)s->offset, (long long)*c);
    else
      ck_assert_int_eq(s->extra_offset, *c);
    *c += s->allocated;
    end[s->memory] = *c > end[s->memory] ? *c : end[s->memory];
  }
  for (size_t i = 1; i < l->nslots; i++) { /* in layout_order (else workset order) within a memory and lifetime */
    const tf_layout_slot *a = &l->slots[i - 1], *b = &l->slots[i];
    if (a->memory == b->memory && a->lifetime == b->lifetime)
      ck_assert_msg(order_rank(p->workset, a->buffer) < order_rank(p->workset, b->buffer), "%s: %s before %s", what,
                    p->workset->buffers[a->buffer].name, p->workset->buffers[b->buffer].name);
  }
  for (int m = 0; m < TF_NMEM; m++) {
    ck_assert_msg(end[m] == pt->used[m] && l->end[m] == pt->used[m], "%s: %s ends at %lld, used %lld", what,
                  tf_memory_name(m), (long long)end[m], (long long)pt->used[m]);
  }
}

/* An aliased buffer larger than its host: it starts at the host's offset
 * and the 200 B it adds are laid out where the capacity rows charge them. */
START_TEST(test_alias_inside_host) {
  tf_machine m = tf_test_machine(4096, 0, 255);
  tf_workset *w =
      tf_test_workset("{\"name\": \"al\", \"choose\": {\"n\": [1]},"
                      " \"buffers\": [{\"name\": \"H\", \"memory\": \"smem\", \"size\": 100, \"align\": 128},"
                      "   {\"name\": \"X\", \"memory\": \"smem\", \"size\": 30},"
                      "   {\"name\": \"G\", \"memory\": \"smem\", \"alias\": \"H\", \"size\": 300, \"align\": 8}],"
                      " \"objective\": [\"max n\"]}");
  tf_problem *p = tf_test_bind(&m, w);
  tf_error e;
  tf_error_init(&e);
  tf_answer a;
  tf_answer_init(&a, p);
  tf_solve_opts o;
  tf_solve_opts_init(&o);
  ck_assert_int_eq(tf_solve_or_check(p, &o, &a, &e), 0);
  tf_layout l;
  ck_assert_int_eq(tf_layout_of(p, &a.point, &l, &e), 0);
  layout_holds(p, &a.point, &l, "alias");
  /* H 0..128 (100 rounded to 128), X 128..158, G from 0 (size 300), its 200 beyond H at 158 */
  ck_assert_int_eq(l.slots[2].offset, 0);
  ck_assert_int_eq(l.slots[2].size, 300);
  ck_assert_int_eq(l.slots[2].allocated, 200);
  ck_assert_int_eq(l.slots[2].extra_offset, 158);
  ck_assert_int_eq(l.end[TF_MEM_SMEM], 358);
  ck_assert_int_eq(l.slots[1].aligned, 1);
  tf_layout_release(&l);
  tf_answer_release(&a);
  tf_problem_free(p);
  tf_workset_free(w);
}
END_TEST

START_TEST(test_gemm_text) {
  ck_assert_int_eq(tf_test_run("layout " GEMM, out, sizeof out, err, sizeof err), 0);
  TF_TEST_CONTAINS(
      out, "  stages       4\n", "  mainloop                    0     196672     196672      1     196672\n",
      "  epilogue               196672      33792      33792    128     230464  offset not a multiple of 128\n",
      "  capacity_rounding      230464          0          0      1     230464\n",
      "  total 230464 of 232448 B, slack 1984\n",
      "  acc                         0        128        128      1        128\n",
      "  total 151 of 255 registers/thread, slack 104\n");
  ck_assert_int_eq(tf_test_run("solve " GEMM, out2, sizeof out2, err, sizeof err), 0);
  ck_assert_msg(strstr(out2, "  smem           230464     232448       1984  B\n") != NULL, "%s", out2);
}
END_TEST

/* Compiles dir/name as C11 (lang 'c') or C++17 ('+'); 0 when accepted. */
static int compile_as(const char *dir, const char *name, char lang) {
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "%s -Wall -Wextra -Werror -fsyntax-only %s/%s 2>/dev/null",
           lang == 'c' ? "gcc -std=c11 -x c" : "g++ -std=c++17 -x c++", dir, name);
  return system(cmd) == 0 ? 0 : -1;
}

static int compile_header(const char *dir, const char *name) {
  return compile_as(dir, name, 'c') || compile_as(dir, name, '+') ? -1 : 0;
}

/* `layout ARGS --emit c` written to dir/name compiles in both languages;
 * edited by the sed script `edit` (which must change it) it compiles in
 * neither. */
static void header_then_edit(const char *dir, const char *args, const char *name, const char *edit) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "layout %s --emit c -o %s/%s", args, dir, name);
  ck_assert_int_eq(tf_test_run(cmd, out, sizeof out, err, sizeof err), 0);
  ck_assert_int_eq(compile_header(dir, name), 0);
  snprintf(cmd, sizeof cmd, "sed '%s' %s/%s > %s/edited.h && ! cmp -s %s/%s %s/edited.h", edit, dir, name, dir, dir,
           name, dir);
  ck_assert_msg(system(cmd) == 0, "%s", cmd);
  ck_assert_int_eq(compile_as(dir, "edited.h", 'c'), -1);
  ck_assert_int_eq(compile_as(dir, "edited.h", '+'), -1);
}

/* The header as emitted compiles; with the epilogue one byte larger its
 * asserts fail in both languages. */
START_TEST(test_header_edit_fails) {
  char dir[256];
  tf_test_temp_dir(dir, sizeof dir, "tilefit-layout");
  header_then_edit(dir, GEMM, "gemm.h", "s/unsigned char epilogue\\[33792\\]/unsigned char epilogue[33793]/");
  tf_test_remove_dir(dir);
}
END_TEST

/* ---------------------------------------------------------- lifetimes */

#define LIFE "-m a100 -w tests/data/worksets/lifetimes.json --fix tile=128 --fix tile_k=32"

static const cJSON *member(const cJSON *o, const char *k) { return cJSON_GetObjectItemCaseSensitive(o, k); }

/* The buffer named `name` of a layout --json memory. */
static const cJSON *layout_buffer(const cJSON *mem, const char *name) {
  const cJSON *b;
  cJSON_ArrayForEach(b, member(mem, "buffers")) if (!strcmp(member(b, "name")->valuestring, name)) return b;
  ck_abort_msg("no buffer %s", name);
  return NULL;
}

/* smem's used as `args` (solve or check --json) prints it. */
static double smem_used(const char *args) {
  ck_assert_msg(tf_test_run(args, out2, sizeof out2, err, sizeof err) == 0, "%s: %s", args, err);
  cJSON *j = cJSON_Parse(out2);
  ck_assert_ptr_nonnull(j);
  double v = member(member(member(j, "memories"), "smem"), "used")->valuedouble;
  cJSON_Delete(j);
  return v;
}

/* The example workset's union: the barriers (live throughout, first by
 * layout_order) from 0; B then A (layout_order) in the main loop and C
 * in the epilogue, both from the barriers' end; the total is the
 * barriers plus the larger lifetime, as the engine, GLPK's ILP and check
 * all say. */
START_TEST(test_lifetimes_union) {
  ck_assert_int_eq(tf_test_run("layout " LIFE " --json", out, sizeof out, err, sizeof err), 0);
  cJSON *j = cJSON_Parse(out);
  ck_assert_ptr_nonnull(j);
  const cJSON *smem = member(member(j, "layout"), "smem");
  const cJSON *bar = layout_buffer(smem, "barriers"), *A = layout_buffer(smem, "A"), *B = layout_buffer(smem, "B");
  const cJSON *C = layout_buffer(smem, "C");
  double base = member(bar, "allocated")->valuedouble, ab = member(A, "allocated")->valuedouble;
  double main = ab + member(B, "allocated")->valuedouble, epi = member(C, "allocated")->valuedouble;
  ck_assert(cJSON_IsNull(member(bar, "lifetime")) && member(bar, "offset")->valuedouble == 0);
  ck_assert_str_eq(member(A, "lifetime")->valuestring, "mainloop");
  ck_assert_str_eq(member(C, "lifetime")->valuestring, "epilogue");
  ck_assert(member(B, "offset")->valuedouble == base);
  ck_assert(member(A, "offset")->valuedouble == base + member(B, "allocated")->valuedouble);
  ck_assert(member(C, "offset")->valuedouble == base);
  ck_assert(main > epi && epi > 0); /* the union is the main loop's, and C would not fit beside it */
  ck_assert(member(member(smem, "union"), "offset")->valuedouble == base);
  ck_assert(member(member(smem, "union"), "size")->valuedouble == main);
  double total = member(smem, "total")->valuedouble;
  ck_assert(total == base + main && total + epi > member(smem, "capacity")->valuedouble);
  ck_assert(smem_used("solve " LIFE " --json") == total);
  ck_assert(smem_used("solve " LIFE " --solver glpk --json") == total);
  char args[256];
  snprintf(args, sizeof args, "check " LIFE " --fix stages=%d --json", (int)(ab / (128 * 32 * 2)));
  ck_assert(smem_used(args) == total);
  cJSON_Delete(j);
  ck_assert_int_eq(tf_test_run("layout " LIFE, out, sizeof out, err, sizeof err), 0);
  TF_TEST_CONTAINS(out, "(union)", "lifetime mainloop", "mainloop 163840, epilogue 65536");
}
END_TEST

/* The union as C: it compiles, and a lifetime's buffer one byte larger
 * breaks its asserts in both languages. */
START_TEST(test_lifetimes_header) {
  char dir[256], cmd[1024];
  tf_test_temp_dir(dir, sizeof dir, "tilefit-layout");
  header_then_edit(dir, LIFE, "life.h", "s/unsigned char C\\[65536\\]/unsigned char C[65537]/");
  snprintf(cmd, sizeof cmd, "grep -q 'phases_.epilogue.C' %s/life.h", dir);
  ck_assert_int_eq(system(cmd), 0);
  /* two phase names that make one identifier still make a header that compiles */
  snprintf(cmd, sizeof cmd,
           "sed 's/\"mainloop\"/\"main-loop\"/g; s/\"epilogue\"/\"main_loop\"/g' "
           "tests/data/worksets/lifetimes.json > %s/same.json",
           dir);
  ck_assert_int_eq(system(cmd), 0);
  snprintf(cmd, sizeof cmd, "layout -m a100 -w %s/same.json --emit c -o %s/same.h", dir, dir);
  ck_assert_msg(tf_test_run(cmd, out, sizeof out, err, sizeof err) == 0, "%s", err);
  ck_assert_int_eq(compile_header(dir, "same.h"), 0);
  snprintf(cmd, sizeof cmd, "grep -q '} main_loop;' %s/same.h && grep -q '} main_loop_1;' %s/same.h", dir, dir);
  ck_assert_int_eq(system(cmd), 0);
  snprintf(cmd, sizeof cmd, "layout " LIFE " --emit cute-dsl -o %s/life.py", dir);
  ck_assert_int_eq(tf_test_run(cmd, out, sizeof out, err, sizeof err), 0);
  snprintf(cmd, sizeof cmd,
           "python3 -c \"import ast,sys; ast.parse(open('%s/life.py').read())\" && "
           "grep -q 'class SharedStorage_epilogue' %s/life.py && grep -q 'phases_: cute.struct.MemRange' %s/life.py",
           dir, dir, dir);
  ck_assert_int_eq(system(cmd), 0);
  tf_test_remove_dir(dir);
}
END_TEST

/* cutlass-sm80-gemm's epilogue shares the mainloop's space (CUTLASS 2.x's
 * union SharedStorage): an epilogue smaller than the A and B rings changes
 * neither the stage count nor used, a larger one is what SMEM is charged,
 * and one past the capacity does not fit. */
START_TEST(test_sm80_union) {
#define SM80 "solve -m a100 -w cutlass-sm80-gemm --fix tile_m=128 --fix tile_n=128 --fix tile_k=32 --json"
  double rings = smem_used(SM80);
  ck_assert(rings == 10 * (128 * 32 * 2 * 2));
  ck_assert(smem_used(SM80 " -p epilogue_bytes=40000") == rings);
  ck_assert(smem_used(SM80 " -p epilogue_bytes=166000") == 166000);
  ck_assert(smem_used(SM80 " -p epilogue_bytes=166000 --solver glpk") == 166000);
  ck_assert_int_eq(tf_test_run(SM80 " -p epilogue_bytes=166913", out2, sizeof out2, err, sizeof err), 1);
#undef SM80
}
END_TEST

/* The machine a workset's first architecture runs on. */
static const char *machine_for(const char *workset) {
  static const struct {
    const char *arch, *machine;
  } table[] = {
      {"sm_80+", "a100"}, {"sm_90", "h100-sxm"}, {"sm_10x", "b200"}, {"sm_103", "b300"}, {"sm_12x", "rtx5090"},
  };
  char path[512];
  tf_error e;
  tf_error_init(&e);
  ck_assert_int_eq(tf_catalog_find(TF_CATALOG_WORKSETS, workset, "-w", path, sizeof path, &e), 0);
  cJSON *j = tf_json_load(path, &e);
  ck_assert_ptr_nonnull(j);
  const cJSON *arch = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "arch"), 0);
  const char *m = NULL;
  for (size_t i = 0; i < sizeof table / sizeof *table; i++)
    if (cJSON_IsString(arch) && !strcmp(arch->valuestring, table[i].arch))
      m = table[i].machine;
  cJSON_Delete(j);
  ck_assert_msg(m != NULL, "%s: no machine for its architecture", workset);
  return m;
}

/* layout --json's total per memory against solve --json's used. */
static void totals_match(const char *workset, const char *layout_json, const char *solve_json) {
  cJSON *l = cJSON_Parse(layout_json), *s = cJSON_Parse(solve_json);
  ck_assert_msg(l && s, "%s: not JSON", workset);
  const cJSON *mems = cJSON_GetObjectItemCaseSensitive(s, "memories"), *mem;
  const cJSON *lay = cJSON_GetObjectItemCaseSensitive(l, "layout");
  ck_assert_int_eq(cJSON_GetArraySize(mems), cJSON_GetArraySize(lay));
  cJSON_ArrayForEach(mem, mems) {
    const cJSON *used = cJSON_GetObjectItemCaseSensitive(mem, "used");
    const cJSON *total = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(lay, mem->string), "total");
    ck_assert_msg(cJSON_IsNumber(total) && total->valuedouble == used->valuedouble, "%s: %s total vs used %g", workset,
                  mem->string, used->valuedouble);
  }
  cJSON_Delete(l);
  cJSON_Delete(s);
}

START_TEST(test_every_workset) {
  size_t n;
  char **names = tf_catalog_list(TF_CATALOG_WORKSETS, &n);
  ck_assert_uint_gt(n, 20);
  char dir[256], args[1024];
  tf_test_temp_dir(dir, sizeof dir, "tilefit-layout");
  for (size_t i = 0; i < n; i++) {
    const char *m = machine_for(names[i]);
    snprintf(args, sizeof args, "layout -m %s -w %s --json", m, names[i]);
    ck_assert_msg(tf_test_run(args, out, sizeof out, err, sizeof err) == 0, "%s: %s", args, err);
    snprintf(args, sizeof args, "solve -m %s -w %s --json", m, names[i]);
    ck_assert_int_eq(tf_test_run(args, out2, sizeof out2, err, sizeof err), 0);
    totals_match(names[i], out, out2);
    snprintf(args, sizeof args, "layout -m %s -w %s --emit c -o %s/%s.h", m, names[i], dir, names[i]);
    ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 0);
    char file[128];
    snprintf(file, sizeof file, "%s.h", names[i]);
    ck_assert_msg(compile_header(dir, file) == 0, "%s on %s: the header does not compile", names[i], m);
  }
  tf_catalog_list_free(names, n);
  tf_test_remove_dir(dir);
}
END_TEST

/* Names that are keywords of C, C++ or Python, and real names equal to
 * the members a layout makes up: the header compiles in both languages,
 * the CuTe DSL struct parses, and the renamed members are the documented
 * ones (docs/emit.md, "Names"). */
START_TEST(test_keyword_names) {
  char dir[256], cmd[1024];
  tf_test_temp_dir(dir, sizeof dir, "tilefit-layout");
  ck_assert_msg(tf_test_run("layout -m h100-sxm -w tests/data/worksets/keywords.json --any-arch --emit c", out,
                            sizeof out, err, sizeof err) == 0,
                "%s", err);
  snprintf(cmd, sizeof cmd, "%s/k.h", dir);
  tf_test_write_text(cmd, out);
  ck_assert_int_eq(compile_header(dir, "k.h"), 0);
  static const char *const members[] = {"unsigned char int_1[200];",
                                        "unsigned char int_[512];",
                                        "unsigned char int_1_pad_[56];",
                                        "unsigned char class__extra_[200];",
                                        "unsigned char A_pad1_[",
                                        "unsigned char A_pad_[5];",
                                        "} class_;",
                                        "} def_;",
                                        "} phases1_;",
                                        "unsigned char static_assert_[3];",
                                        "tf_keywords_rf_NULL__size = 8"};
  for (size_t i = 0; i < sizeof members / sizeof *members; i++)
    ck_assert_msg(strstr(out, members[i]), "no '%s' in\n%s", members[i], out);
  snprintf(cmd, sizeof cmd,
           "layout -m h100-sxm -w tests/data/worksets/keywords.json --any-arch --emit cute-dsl -o %s/k.py", dir);
  ck_assert_msg(tf_test_run(cmd, out, sizeof out, err, sizeof err) == 0, "%s", err);
  snprintf(cmd, sizeof cmd, "/usr/bin/python3 -c 'import ast, sys; ast.parse(open(sys.argv[1]).read())' %s/k.py", dir);
  ck_assert_msg(system(cmd) == 0, "%s: the CuTe DSL struct does not parse", cmd);
  tf_test_remove_dir(dir);
}
END_TEST

/* One generated problem laid out at its optimum: 1 laid out, 0 none. */
static int lay_out_generated(unsigned long long seed, const char *dir) {
  static pg_problem g; /* large */
  static char json[16384];
  char mfile[300], wfile[300], what[64];
  pg_generate(&g, seed);
  snprintf(mfile, sizeof mfile, "%s/m.json", dir);
  snprintf(wfile, sizeof wfile, "%s/w.json", dir);
  pg_machine_json(&g, json, sizeof json);
  tf_test_write_text(mfile, json);
  pg_workset_json(&g, json, sizeof json);
  tf_test_write_text(wfile, json);
  tf_request req;
  tf_request_init(&req);
  req.machine = strdup(mfile);
  req.workset = strdup(wfile);
  tf_error e;
  tf_error_init(&e);
  tf_loaded ld;
  int laid = 0;
  if (tf_load(&req, "-m", "-w", &ld, &e) == 0) {
    tf_problem *p = tf_problem_new(ld.machine, ld.workset, &req, &e);
    tf_answer a;
    tf_solve_opts o;
    tf_solve_opts_init(&o);
    o.time_limit_s = 30;
    if (p) {
      tf_answer_init(&a, p);
      if (tf_solve_or_check(p, &o, &a, &e) == 0 && a.status == TF_ANSWER_OPTIMAL) {
        tf_layout l;
        ck_assert_msg(tf_layout_of(p, &a.point, &l, &e) == 0, "seed %llu: %s", seed, e.msg);
        snprintf(what, sizeof what, "seed %llu", seed);
        layout_holds(p, &a.point, &l, what);
        size_t n = 0; /* the order the generator stated: its names first, then the rest as declared */
        for (int i = 0; i < g.norder; i++)
          ck_assert_uint_eq(p->workset->layout_order[n++], (size_t)g.order[i]);
        for (int b = 0; b < g.nbuffers; b++) {
          int listed = 0;
          for (int i = 0; i < g.norder; i++)
            listed |= g.order[i] == b;
          if (!listed)
            ck_assert_uint_eq(p->workset->layout_order[n++], (size_t)b);
        }
        tf_layout_release(&l);
        laid = 1;
      }
      tf_answer_release(&a);
      tf_problem_free(p);
    }
    tf_loaded_release(&ld);
  }
  tf_request_release(&req);
  return laid;
}

/* The header of a generated problem with placement, aliases or
 * lifetimes (its optimum's layout) compiles in both languages. */
static int header_of_generated(unsigned long long seed, const char *dir) {
  static pg_problem g;
  pg_generate(&g, seed);
  int interesting = (g.features & (1ull << PF_PLACE | 1ull << PF_ALIAS | 1ull << PF_LIFETIMES)) != 0;
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "layout -m %s/m.json -w %s/w.json --emit c -o %s/g.h", dir, dir, dir);
  if (!interesting || tf_test_run(cmd, out, sizeof out, err, sizeof err) != 0)
    return 0; /* infeasible, or a problem the layout refuses (a value past a limit) */
  ck_assert_msg(compile_header(dir, "g.h") == 0, "seed %llu: the header does not compile", seed);
  return 1;
}

START_TEST(test_property_problems) {
  unsigned long long first = tf_test_seed("layout: 300 property problems from seed", 1);
  char dir[256];
  tf_test_temp_dir(dir, sizeof dir, "tilefit-layout");
  int laid = 0, compiled = 0;
  for (unsigned long long s = first; s < first + 300; s++) {
    int ok = lay_out_generated(s, dir);
    laid += ok;
    if (ok && compiled < 8) /* its files are still in dir */
      compiled += header_of_generated(s, dir);
  }
  ck_assert_int_gt(laid, 100);
  ck_assert_int_eq(compiled, 8);
  tf_test_remove_dir(dir);
}
END_TEST

Suite *layout_suite(void) {
  Suite *s = suite_create("layout");
  TCase *t = tcase_create("layout");
  tcase_set_timeout(t, 300);
  tcase_add_test(t, test_alias_inside_host);
  tcase_add_test(t, test_gemm_text);
  tcase_add_test(t, test_header_edit_fails);
  tcase_add_test(t, test_lifetimes_union);
  tcase_add_test(t, test_lifetimes_header);
  tcase_add_test(t, test_sm80_union);
  tcase_add_test(t, test_every_workset);
  tcase_add_test(t, test_keyword_names);
  tcase_add_test(t, test_property_problems);
  suite_add_tcase(s, t);
  return s;
}
