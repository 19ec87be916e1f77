/* Internals of presolve, one floor per file (docs/presolve.md, "Code"):
 *   presolve_toolkit.c                     the toolkit every reduction uses (no pass);
 *   presolve_lines.c, presolve_rows.c, presolve_columns.c, presolve_dominated.c,
 *   presolve_slack.c, presolve_doubleton.c, presolve_parallel.c  one reduction family
 *                                          each: its passes and its undo;
 *   presolve_table.c                       the table of reductions {name, pass, stage,
 *                                          undo} that drives both;
 *   presolve.c (the rounds), presolve_recover.c (the undo)  the table's two users.
 * This header holds the record, the working state of one run and those declarations. */
#ifndef SLP_PRESOLVE_INTERNAL_H
#define SLP_PRESOLVE_INTERNAL_H

#include <float.h>
#include <math.h>

#include "presolve/presolve.h"

#define SLP_PS_INF_BOUND SLP_INFINITE_BOUND
#define SLP_PS_MIN_PIVOT 1e-9    /* a singleton entry must exceed this in magnitude */
#define SLP_PS_FEAS_TOL 1e-9     /* relative tolerance for crossing bounds and empty rows */
/* A cost that substitutions have brought within this many times the sum of the
 * magnitudes of the terms that produced it is rounding: it is set to 0 (ps_cost_update,
 * docs/presolve.md "Tolerances"). About 1000 machine epsilons. */
#define SLP_PS_COST_ROUNDING 2.2e-13
#define SLP_PS_MAX_ROUNDS 16
#define SLP_PS_BATCH 16
#define SLP_PS_PIVOT_RATIO 1e-2 /* a substitution pivot is at least this times the row's largest entry */

/* What undoing a stage does (docs/presolve.md "Recovery"). */
enum {
    STAGE_NONE = -1,    /* a reduction that records no stage of its own */
    STAGE_FIXCOL = 0,   /* removed columns: z_j = c_j - A^T y over their stage entries */
    STAGE_SINGLETON,    /* singleton rows: a row that set a bound takes over z_k */
    STAGE_EMPTYROW,     /* empty rows, removed with y = 0 */
    STAGE_FORCING,      /* forcing rows (and redundant ones): y from the forced columns' z */
    STAGE_SUBST,        /* free column singletons substituted out of their rows */
    STAGE_DOUBLETON,    /* doubleton equations: one column substituted by the other */
    STAGE_PARALLEL,     /* parallel columns merged: x_j' = x_j + lambda x_k */
    STAGE_DUPROW,       /* duplicate rows: row l's bounds moved onto row i */
    STAGE_SLACK         /* zero-cost column singletons: the row's bounds widened */
};
/* Flags of a removed entry. */
enum {
    ENTRY_SET_LO = 1,   /* singleton row: this row set the column's lower bound */
    ENTRY_SET_HI = 2,   /* ... its upper bound */
    ENTRY_FORCE_LO = 4, /* forcing row held at its lower bound lc (y >= 0) */
    ENTRY_FORCE_HI = 8, /* forcing row held at its upper bound uc (y <= 0) */
    ENTRY_PIVOT = 16,     /* substitution: the entry of the substituted column */
    ENTRY_SURVIVOR = 32,  /* doubleton: the entry of the column that stays */
    ENTRY_COPY = 64       /* not removed: a kept entry of a slack's row, as it was then */
};

/* The matrix entries deleted from this rank's block, kept for recovery, with (ENTRY_COPY)
 * kept entries recorded as they were at their stage. Entries are appended in stage order
 * and held in runs: consecutive entries of one row, stage and flags share a 16-byte run,
 * and each entry holds its local column and value (12 bytes; local indices fit 32 bits,
 * slp_local_problem_alloc). A pass that removes whole lines therefore costs 12 bytes
 * per entry; one that removes single entries, 28. */
typedef struct entry_run {
    int32_t row;   /* local row in row block r */
    int32_t stage; /* the stage that removed the run's entries */
    int32_t len;   /* entries in the run */
    int32_t flags; /* ENTRY_* */
} entry_run_t;

/* A stage's part of the record: runs [run_lo, run_hi), whose entries start at ent_lo. */
typedef struct ps_span {
    int64_t run_lo, run_hi, ent_lo;
} ps_span_t;

/* One recorded entry, as a cursor over a span gives it. */
typedef struct ps_entry {
    int32_t row, col;
    int flags;
    double val;
} ps_entry_t;

/* One line of a parallel pair judged by presolve_parallel.c (columns j < k with
 * A_k = lambda A_j, or rows i < l with a_l = lambda a_i; "j" is the survivor): the
 * verdict sent to the line's ranks, and, for a merged pair, the record both sides keep
 * for the recovery. */
enum { PAR_NONE = 0, PAR_KEEP, PAR_REMOVE, PAR_FIX };
typedef struct parallel_rec {
    int64_t line, peer;         /* global indices: this line and the other of the pair */
    int32_t owner, peer_owner;  /* their blocks (grid column for columns, grid row for rows) */
    int32_t role, stage;        /* PAR_*; the merge's stage */
    double lambda;
    double lj, uj, lk, uk;      /* bounds of j and k (rows: lc, uc) when judged */
    double value;               /* PAR_FIX: the bound the column is fixed at */
} parallel_rec_t;

/* A zero-cost column singleton removed as its row's slack (presolve_slack.c), kept by
 * the rank holding its entry: the row's bounds before they were widened and the
 * column's bounds. */
typedef struct slack_rec {
    int32_t row, col, stage; /* local row and column */
    double a, lc, uc, l, u;
} slack_rec_t;

/* A removed column or row in the packed record (presolve_toolkit.c). */
typedef struct packed_col {
    int32_t col, stage;
    double val, obj;
    signed char ray;
} packed_col_t;
typedef struct packed_row {
    int32_t row, stage;
    double rhs, dual;
} packed_row_t;

struct slp_presolve {
    slp_presolve_stats_t stats;
    int sense;          /* +1 / -1 as in the model */
    double obj_const;   /* original, file sense */
    int64_t m_loc, n_loc, row_lo, col_lo;
    /* Original row bounds (replicated over row_comm), infinite bounds mapped to +-inf,
     * while presolve runs; the recovery reads the original problem from its caller. */
    double *lc, *uc;     /* [m_loc] */
    /* The per-line arrays below exist while presolve runs and during recovery. In
     * between, while the solve runs, only the removed lines are kept, packed
     * (ps_record_pack, ps_record_unpack): a kept line then costs nothing. */
    int packed;
    int64_t n_packed_cols, n_packed_rows, cap_packed_cols;
    packed_col_t *packed_cols; /* also filled while presolve runs (ps_remove_column) */
    packed_row_t *packed_rows;
    int32_t *col_stage;  /* [n_loc] stage that removed the column, -1 if kept */
    /* [n_loc] value of a removed column, and its objective when removed (substitutions
     * change it): only in recovery; presolve appends them to packed_cols */
    double *col_val, *col_obj;
    int32_t *row_stage;  /* [m_loc] stage that removed the row, -1 if kept */
    /* [m_loc] rows of substitutions (STAGE_SUBST, STAGE_DOUBLETON): the right-hand
     * side b at that stage; for STAGE_SUBST the row's dual y = c_j / a_ij (min form) */
    double *row_rhs, *row_dual;
    /* [n_loc] empty columns whose objective improves without limit: +1 / -1 is the
     * improving direction; the column is fixed at a finite value and the verdict is
     * left to the pipeline (unbounded only if the rest is feasible). */
    signed char *col_ray;
    int64_t unbounded_cols; /* global count of such columns */
    parallel_rec_t *par;  /* merged parallel pairs with a line on this rank */
    int64_t n_par, cap_par;
    slack_rec_t *slack;   /* slack columns whose entry this rank held */
    int64_t n_slack, cap_slack;
    entry_run_t *runs;    /* removed entries of this rank's block, in runs */
    int64_t n_runs, cap_runs;
    int32_t *ent_col;     /* [n_ent] each entry's local column */
    double *ent_val;      /* [n_ent] and its value */
    int64_t n_ent, cap_ent;
    int dropped;          /* slp_presolve_drop_record ran: no undo can follow */
    unsigned char *stage_kind; /* [nstages], identical on every rank */
    int nstages;
    int64_t cap_stages;
    /* The first allocation failure of a record's growth on this rank: presolve goes on
     * to the end of the pass (so that every rank reaches the same collectives) and the
     * ranks agree on it there (docs/reliability.md). */
    slp_err deferred;
    slp_norms_t norms;    /* the reduced problem's, for the tolerances (slp_presolve_norms) */
};

/* What an undo works on (presolve_recover.c): min-form x, z (column slice) and y (row
 * slice), and scratch of n_loc + 1 (cb) and 2 m_loc + 1 (rb) doubles. */
typedef struct ps_undo {
    slp_grid_t *grid;
    const slp_presolve_t *p;
    double *x, *z, *y;
    double *cb, *rb;
} ps_undo_t;

/* Working state of one presolve run. */
typedef struct ps_ctx {
    slp_grid_t *grid;
    slp_local_problem_t *lp;
    slp_presolve_t *p;
    int64_t *rcnt;          /* [m_loc] global row counts */
    int64_t *ccnt;          /* [n_loc] global column counts */
    double *rbuf;           /* [2 m_loc] */
    double *cbuf;           /* [2 n_loc] */
    double *sbuf;           /* [2 n_loc] while bounds are proposed (ps_bounds_reset) */
    double *rowmag;         /* [m_loc] sum |a_ij v_j| moved into the row bounds */
    float *costmag;         /* [n_loc] |c_j| plus the sum of |terms| substitutions moved
                             * into c_j (the scale of its rounding, ps_cost_update; a
                             * float: a scale needs no more, ps_rounding_scale) */
    double *widen;          /* [2 m_loc] what slack columns added to lc (-inf or finite)
                             * and, from m_loc on, to uc (finite or +inf) */
    unsigned char *row_kill, *row_flags; /* [m_loc] */
    unsigned char *col_kill, *col_mark;  /* [n_loc] */
    int status;             /* -1 or an slp_status decided by presolve */
} ps_ctx_t;

/* The point nearest 0 of the intersection of [lo, hi] and [l, u]; when they do not
 * meet, the point of [l, u] nearest [lo, hi] (the recoveries of parallel columns and slack columns). */
static inline double ps_nearest_zero(double lo, double hi, double l, double u)
{
    double tlo = fmax(l, lo), thi = fmin(u, hi);
    double t = tlo <= thi ? fmin(fmax(0.0, tlo), thi) : isfinite(tlo) ? tlo : thi;
    return fmin(fmax(t, l), u);
}

/* Whether column j is kept, has entries (x->ccnt current) and is not fixed. */
static inline int ps_movable_column(const ps_ctx_t *x, int64_t j)
{
    return x->p->col_stage[j] < 0 && x->ccnt[j] > 0 && x->lp->lv[j] < x->lp->uv[j];
}

/* A rounding scale held as a float (presolve's costmag): rounded to nearest, and held at
 * FLT_MAX above it, so that an overflow never makes every value look like rounding. */
static inline float ps_rounding_scale(double v) { return v < FLT_MAX ? (float)v : FLT_MAX; }

/* Least and greatest term a x of a column with bounds [l, u] in a row activity. */
static inline double ps_least_term(double a, double l, double u) { return a > 0.0 ? a * l : a * u; }
static inline double ps_greatest_term(double a, double l, double u) { return a > 0.0 ? a * u : a * l; }

/* The record's packed form while the solve runs (presolve_toolkit.c): pack frees the
 * per-line arrays (and the original row bounds), unpack rebuilds them. A column is
 * removed through ps_remove_column: its stage, value (0 when its undo sets it) and
 * objective at removal go straight into the packed list. */
void ps_remove_column(slp_presolve_t *p, int32_t j, int stage, double val, double obj);
slp_err ps_record_pack(slp_presolve_t *p);
slp_err ps_record_unpack(slp_presolve_t *p);

/* The toolkit (presolve_toolkit.c). */
slp_err ps_batch_sums(slp_grid_t *grid, double *col, int ncol, double *row, int nrow, double *blk,
                      int nblk);
slp_err ps_alloc_all(ps_ctx_t *x, void *out_ptr, size_t count, size_t size);
slp_err ps_row_counts(ps_ctx_t *x);
slp_err ps_col_counts(ps_ctx_t *x);
void ps_compact_block(ps_ctx_t *x, int stage, int64_t *removed);
void ps_commit_stage(slp_presolve_t *p, int kind);
void ps_push_entry(slp_presolve_t *p, int64_t row, int32_t col, double val, int stage, int flags);
/* A cursor over a span's entries in record order:
 *     ps_cursor_t c = ps_cursor(p, span);
 *     for (ps_entry_t en; ps_next(&c, &en);) ...                                      */
typedef struct ps_cursor {
    const slp_presolve_t *p;
    int64_t run, run_hi, ent, run_end;
} ps_cursor_t;
static inline ps_cursor_t ps_cursor(const slp_presolve_t *p, ps_span_t span)
{
    return (ps_cursor_t){p, span.run_lo, span.run_hi, span.ent_lo,
                         span.ent_lo + (span.run_lo < span.run_hi ? p->runs[span.run_lo].len : 0)};
}
static inline int ps_next(ps_cursor_t *c, ps_entry_t *en)
{
    while (c->ent == c->run_end) {
        if (++c->run >= c->run_hi)
            return 0;
        c->run_end += c->p->runs[c->run].len;
    }
    const entry_run_t *r = &c->p->runs[c->run];
    *en = (ps_entry_t){r->row, c->p->ent_col[c->ent], r->flags, c->p->ent_val[c->ent]};
    c->ent++;
    return 1;
}
/* Make room for `need` elements of a record's growing array, or note the failure in
 * p->deferred; returns whether the room is there. */
int ps_grow(slp_presolve_t *p, void *array_ptr, int64_t *cap, int64_t need, size_t size,
            int64_t first, const char *what);
void ps_add_count(slp_presolve_t *p, int kind, double rows, double cols, double nnz);
/* c_j -= dc[j] for the kept columns, with dcmag[j] the sum of |terms| of dc[j] (both
 * summed over col_comm already): a cost that cancels to within rounding of its terms'
 * magnitudes becomes exactly 0, so that no sign test downstream (empty columns, dual
 * fixing, dominated columns) reads rounding as a direction. */
void ps_cost_update(ps_ctx_t *x, const double *dc, const double *dcmag);
slp_err ps_pass_fixcol(ps_ctx_t *x, int kind, const unsigned char *mask, int64_t *changed);
int64_t ps_entry_of(const slp_local_problem_t *lp, int64_t i, double g);
slp_err ps_undo_removed_costs(slp_grid_t *grid, const slp_presolve_t *p, int s, ps_span_t span,
                              double *z, const double *y, double *cb);
/* Column bounds proposed by rows (singleton rows, doubleton equations): reset,
 * propose each, max cbuf over col_comm, name each source row, apply; then
 * ps_bound_flags gives a source row's ENTRY_SET_LO / ENTRY_SET_HI, until done. */
slp_err ps_bounds_reset(ps_ctx_t *x);
void ps_bounds_done(ps_ctx_t *x);
void ps_bound_propose(ps_ctx_t *x, int32_t j, double lo, double hi);
void ps_bound_source(ps_ctx_t *x, int32_t j, double lo, double hi, double row);
slp_err ps_bounds_apply(ps_ctx_t *x, double *crossed, double *tightened);
int ps_bound_flags(const ps_ctx_t *x, int32_t j, double row);

/* Row passes (presolve_rows.c): bounds on row activities decide infeasible,
 * redundant and forcing rows. */
enum { ACT_LO, ACT_HI, ACT_NLO, ACT_NHI, ACT_MAG, ACT_COUNT };
/* act[ACT_* m + i]: the finite parts of row i's least and greatest activity over the
 * column bounds, the numbers of infinite terms in each, and the largest finite term
 * magnitudes summed (rounding scale); summed over row_comm. act holds ACT_COUNT m. */
slp_err ps_row_activity(ps_ctx_t *x, double *act);
slp_err ps_pass_activity(ps_ctx_t *x, int64_t *changed);
slp_err ps_undo_forcing(const ps_undo_t *u, int s, ps_span_t span);

/* Column passes (presolve_columns.c, presolve_dominated.c): dual fixing, dominated
 * columns and free column singletons. */
slp_err ps_pass_dual_fix(ps_ctx_t *x, int64_t *changed);
slp_err ps_pass_dominated(ps_ctx_t *x, int64_t *changed);
slp_err ps_pass_free_singleton(ps_ctx_t *x, int64_t *changed);
slp_err ps_undo_subst(const ps_undo_t *u, int s, ps_span_t span);

/* Zero-cost column singletons (presolve_slack.c). */
slp_err ps_pass_slack(ps_ctx_t *x, int64_t *changed);
slp_err ps_undo_slack(const ps_undo_t *u, int s, ps_span_t span);

/* Doubleton equations (presolve_doubleton.c). */
slp_err ps_pass_doubleton(ps_ctx_t *x, int64_t *changed);
slp_err ps_undo_doubleton(const ps_undo_t *u, int s, ps_span_t span);

/* Parallel lines (presolve_parallel.c): columns (rows = 0) merged or one fixed by
 * domination; duplicate rows (rows = 1) merged. */
slp_err ps_pass_parallel_columns(ps_ctx_t *x, int64_t *changed);
slp_err ps_pass_parallel_rows(ps_ctx_t *x, int64_t *changed);
slp_err ps_undo_parallel(const ps_undo_t *u, int s, ps_span_t span);
slp_err ps_undo_duplicate_rows(const ps_undo_t *u, int s, ps_span_t span);

/* Single lines (presolve_lines.c): the paper's lc = uc = 0 singleton rows, fixed
 * columns, singleton rows, empty rows and columns. */
slp_err ps_pass_paper(ps_ctx_t *x, int64_t *changed);
slp_err ps_pass_fixed(ps_ctx_t *x, int64_t *changed);
slp_err ps_pass_singleton(ps_ctx_t *x, int64_t *changed);
slp_err ps_pass_empty_rows(ps_ctx_t *x, int64_t *changed);
slp_err ps_pass_empty_cols(ps_ctx_t *x, int64_t *changed);
slp_err ps_undo_fixcol(const ps_undo_t *u, int s, ps_span_t span);
slp_err ps_undo_singleton(const ps_undo_t *u, int s, ps_span_t span);

/* The reductions in the order a round runs them (presolve_table.c). A row's pass (NULL:
 * none) runs once per round; its stage (STAGE_NONE: it records none of its own, e.g. it
 * fixes columns, which STAGE_FIXCOL undoes) is undone by its undo (NULL: nothing to undo,
 * e.g. an empty row's dual is 0). Every STAGE_ kind has exactly one row with an undo or
 * none needed. Adding a reduction: its file, a STAGE_ value if it records a new kind of
 * stage, and one row here. */
typedef slp_err (*ps_pass_fn)(ps_ctx_t *x, int64_t *changed);
typedef slp_err (*ps_undo_fn)(const ps_undo_t *u, int s, ps_span_t span);
typedef struct ps_reduction {
    const char *name;
    ps_pass_fn pass;
    int stage;
    ps_undo_fn undo;
} ps_reduction_t;
extern const ps_reduction_t ps_reductions[];
extern const int ps_reduction_count;

#endif
