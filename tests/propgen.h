/* The property test's problem description: a small, seeded, self-contained
 * model of one generated problem (machine, workset, request) that the test
 * writes out as machine JSON, workset JSON and a command line, and that
 * tests/oracle_ref.c evaluates directly.  Nothing here includes model/,
 * encode/ or solver/: the description is the test's own statement of the
 * problem, so the reference answer shares no code with the engine. */
#ifndef TF_TESTS_PROPGEN_H
#define TF_TESTS_PROPGEN_H

#include <stddef.h>
#include <stdint.h>

#define PG_MAX_NODES 640
#define PG_MAX_CHOOSE 4 /* c0..c3; occupancy is slot PG_OCC */
#define PG_OCC PG_MAX_CHOOSE
#define PG_MAX_VALUES 40 /* values of one choose domain (occupancy: 1..ctas) */
#define PG_MAX_COUNTS 3  /* s0..s2 */
#define PG_MAX_BUFFERS 6
#define PG_MAX_REQUIRES 5
#define PG_MAX_OBJECTIVES 3
#define PG_MAX_FIXES 8
#define PG_MAX_ARGS 48
#define PG_MAX_LIFETIMES 3 /* phases p0..p2 */
#define PG_MAX_LETS 2      /* l0, l1 */

/* Expression nodes.  Every expression the generator builds is affine in
 * the counts (a product has at most one count-dependent side; cdiv, fdiv,
 * min and max see only choose variables). */
enum pg_op {
  PG_CONST,
  PG_CHOOSE,
  PG_COUNT,
  PG_ADD,
  PG_SUB,
  PG_MUL,
  PG_CDIV,
  PG_FDIV,
  PG_MIN,
  PG_MAX,
  PG_USED,
  PG_SLACK,  /* used(MEM), slack(MEM): v is the memory; only in requires and objectives */
  PG_PLACED, /* placed(bV, MEM): v the buffer, a the memory (0 or 1) */
  PG_LET,    /* let lV */
  PG_PORDER  /* placement_order */
};
enum pg_rel { PG_LE, PG_LT, PG_GE, PG_GT, PG_EQ };
enum pg_mem { PG_SMEM, PG_TMEM, PG_RF, PG_NMEM };

typedef struct pg_node {
  int op;
  int64_t v; /* PG_CONST: the value; PG_CHOOSE / PG_COUNT: the variable; PG_USED / PG_SLACK: the memory */
  int a, b;  /* operands (node indices) */
} pg_node;

typedef struct pg_machine {
  int64_t smem_capacity, smem_per_sm, smem_reserved, smem_granule;
  int tmem_present;
  int64_t tmem_columns, tmem_min_alloc;
  int64_t rf_per_sm, rf_per_thread, rf_warp_granule;
  int64_t threads_per_sm, ctas_per_sm, threads_per_cta;
} pg_machine;

/* What a problem exercises, for the per-batch coverage assertion. */
enum pg_feature {
  PF_COUNTS1,
  PF_COUNTS2,
  PF_COUNTS3,
  PF_LO_ABOVE_1,
  PF_LOOSEN,
  PF_MIXED,
  PF_ALIGNED_SMEM,
  PF_ALIGNED_TMEM,
  PF_ALIGNED_RF,
  PF_NEGATIVE,
  PF_MIN,
  PF_MAX,
  PF_WEIGHT_1E9,
  PF_CAP_2_40,
  PF_COUNT_FIRST,
  PF_TILE_FIRST,
  PF_FIX,
  PF_DOMAIN,
  PF_OCC_0,
  PF_OCC_1,
  PF_TOP,
  PF_CHECK,
  PF_GLPK,
  PF_CLI_OBJECTIVE,
  PF_LIFETIMES,
  PF_LAYOUT_ORDER,
  PF_PLACE,
  PF_ALIAS,
  PF_PIN,
  PF_CLI_PLACE,
  PF_PLACED_LET,
  PF_TOP_CONFIGS,
  PF_PLACE_OCC,
  PF_PLACE_GLPK,
  PF_PLACED_SIZE,
  PF_NFEATURES
};

typedef struct pg_problem {
  unsigned long long seed;
  pg_machine m;
  pg_node node[PG_MAX_NODES];
  int nnodes;

  int nchoose; /* workset choose variables c0.. */
  int64_t dom[PG_MAX_CHOOSE][PG_MAX_VALUES];
  int ndom[PG_MAX_CHOOSE];
  int uses_occupancy; /* occupancy is a variable (slot PG_OCC) */
  int64_t threads;    /* the workset's "threads" param; 0: none */

  int ncounts; /* s0.. */
  int64_t lo[PG_MAX_COUNTS], hi[PG_MAX_COUNTS];

  int nbuffers;
  /* life: the buffer's phase ("p0".."p2"), -1 live throughout; a memory
   * is charged its always-live buffers plus its largest phase.  A placed
   * buffer (nplace > 0) may be in place[0..nplace), in that preference
   * order, with size psize[i] there (mem and size are then place[0] and
   * psize[0]); pin is its workset pin (a param pin_bN: -1 free, 1 rf, 0
   * not rf; PG_NO_PIN none) and cli_place the memories a --place names
   * (a mask; 0 none), which replace the pin.  alias: an earlier buffer
   * whose space it shares where both are in one memory, or -1. */
  struct {
    int mem, size;
    int64_t align;
    int life;
    int nplace, place[PG_NMEM], psize[PG_NMEM];
    int pin, cli_place, alias;
  } buf[PG_MAX_BUFFERS];
  int nlets;
  int let[PG_MAX_LETS];      /* l0.. : their expressions */
  int order[PG_MAX_BUFFERS]; /* layout_order: buffer indices, norder of them */
  int norder;

  int nrequire; /* lhs REL rhs */
  struct {
    int lhs, rhs, rel, on_cli;
  } req[PG_MAX_REQUIRES];

  /* The workset's objectives, and the command line's (which replace them
   * when there are any). */
  int nobj[2];
  struct {
    int max, expr;
  } obj[2][PG_MAX_OBJECTIVES];

  /* The request: fixes (choose slot 0..PG_OCC or count), domains, mode. */
  int nfix;
  struct {
    int is_count, var;
    int64_t v;
  } fix[PG_MAX_FIXES];
  int has_domain[PG_MAX_CHOOSE + 1];
  int64_t domain[PG_MAX_CHOOSE + 1][PG_MAX_VALUES];
  int ndomain[PG_MAX_CHOOSE + 1];
  int top;         /* --top K; 0: a plain solve */
  int top_points;  /* with --top-points (every point ranked), else distinct configurations */
  int check;       /* `tilefit check`, every variable fixed */
  int glpk;        /* --solver glpk */
  int no_presolve; /* and --no-presolve */

  unsigned long long features; /* 1 << enum pg_feature */
} pg_problem;

/* Fills *p from a seed; the same seed gives the same problem. */
void pg_generate(pg_problem *p, unsigned long long seed);

/* Appends an expression as workset syntax. */
void pg_expr_text(const pg_problem *p, int node, char *buf, size_t size);

/* The machine as a machines/ file (name "m": write it to m.json). */
void pg_machine_json(const pg_problem *p, char *buf, size_t size);

/* The workset as a model/worksets/ file. */
void pg_workset_json(const pg_problem *p, char *buf, size_t size);

/* The command line after "tilefit", for machine and workset files at the
 * given paths, always with --jsonl (one JSON object per answer).  Strings point into `store`. */
int pg_args(const pg_problem *p, const char *mfile, const char *wfile, char **argv, char *store, size_t size);

/* The effective objective list: the command line's, else the workset's. */
int pg_objectives(const pg_problem *p);

/* What a memory holds per CTA: SMEM bytes, TMEM columns (0 without
 * TMEM), registers per thread. */
int64_t pg_capacity(const pg_problem *p, int mem);

#define PG_NO_PIN (-2)

/* The memories buffer b may be in after its pins, in preference order
 * (its one memory when not placed); returns how many. */
int pg_candidates(const pg_problem *p, int b, int *mems);

/* Buffer b's size expression in memory `mem` (a candidate). */
int pg_size_in(const pg_problem *p, int b, int mem);

/* Does some placed buffer have more than one candidate (then tilefit
 * appends the unshown objective `min placement_order`)? */
int pg_has_placement_tie_break(const pg_problem *p);

extern const char *const pg_mem_names[PG_NMEM]; /* "smem", "tmem", "rf" */

/* Names of variables: "c0", "occupancy", "s1". */
const char *pg_choose_name(int slot);
const char *pg_count_name(int k);

#endif
