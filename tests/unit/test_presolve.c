/* Distributed presolve and recovery (src/presolve). Each case distributes a
 * model over the grid, presolves, solves the reduced problem (tol 1e-8),
 * recovers, gathers the solution (test code only) and runs the independent
 * checker on the ORIGINAL model at 1e-6. Expected values come from LPs solved
 * by hand (stated at each case), from the published Netlib optima (INDEX.tsv),
 * and from solving the same model with presolve off.
 *
 * Run plainly it uses a 1x1 grid; under mpirun (tests/mpi/presolve_grid.sh)
 * the same cases run on the default grid of the job size (4 ranks: 2x2), or on
 * the grid given as the third argument ("2x2", "4x1", ...). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "check.h"
#include "dense_model.h"
#include "check/check.h"
#include "core/log.h"
#include "core/model.h"
#include "verdict/pipeline.h"
#include "grid/comm.h"
#include "grid/distribute.h"
#include "grid/grid.h"
#include "io/mps.h"
#include "presolve/presolve.h"
#include "verdict/verify.h"
#include "solver/solver.h"

#define SOLVE_TOL 1e-8
#define CHECK_TOL 1e-6
#define OPTIMAL (-1) /* expected outcome: the solve after presolve is optimal */

static slp_grid_t *grid;

/* Model from a dense row-major matrix (zeros skipped). */
typedef struct outcome {
    int status;                 /* presolve's status, or the solve's */
    double objective;
    slp_presolve_stats_t stats;
    double check_max;           /* checker's maximum criterion on the original model */
    int check_worst;            /* the criterion attaining it */
    double ax_err;              /* max |ax - A x| relative, recovered activities */
    double *x, *y, *z;          /* gathered full vectors (caller frees) */
} outcome_t;

/* Full vector from slices: the ranks of grid row 0 (column slices) or grid
 * column 0 (row slices) contribute; a world sum gives every rank the vector. */
static double *gather(const double *slice, int64_t len, int64_t off, int64_t count, int contributes)
{
    double *full = calloc((size_t)len + 1, sizeof(double));
    if (contributes)
        memcpy(full + off, slice, (size_t)count * sizeof(double));
    slp_comm_sum(grid->world, full, len);
    return full;
}

/* Distribute, presolve (if asked), solve, recover, check. */
static void run(const slp_model_t *model, int presolve, outcome_t *out)
{
    memset(out, 0, sizeof *out);
    out->status = OPTIMAL;
    slp_local_problem_t lp;
    CHECK(slp_distribute_model(grid, grid->rank == 0 ? model : NULL, &lp) == SLP_OK,
          "distribute: %s", slp_error_message());
    int64_t row_lo = lp.row_lo, col_lo = lp.col_lo, m_loc = lp.m_loc, n_loc = lp.n_loc;
    slp_local_problem_t given; /* the problem as presolve is given it, for the recovery */
    CHECK(slp_local_problem_copy(&lp, &given) == SLP_OK, "copy");
    slp_presolve_t *pre = NULL;
    if (presolve) {
        int st = -1;
        CHECK(slp_presolve_run(grid, &lp, &pre, &st) == SLP_OK, "presolve: %s",
              slp_error_message());
        out->stats = *slp_presolve_stats(pre);
        if (st >= 0) {
            out->status = st;
            slp_presolve_free(&pre);
            slp_local_problem_free(&lp);
            slp_local_problem_free(&given);
            return;
        }
    }
    slp_settings_t set;
    slp_settings_default(&set);
    set.tol = getenv("SLP_PRESOLVE_TOL") ? atof(getenv("SLP_PRESOLVE_TOL")) : SOLVE_TOL;
    set.time_limit = getenv("SLP_PRESOLVE_TIME") ? atof(getenv("SLP_PRESOLVE_TIME")) : 300.0;
    slp_backend_t *be = NULL;
    slp_result_t res;
    CHECK(slp_backend_cpu_create(1, &be) == SLP_OK, "backend");
    CHECK(slp_solve(grid, &lp, &set, NULL, be, &res) == SLP_OK, "solve: %s", slp_error_message());
    if (pre)
        CHECK(slp_presolve_recover(grid, pre, &given, &res) == SLP_OK, "recover: %s",
              slp_error_message());
    out->status = res.status == SLP_STATUS_OPTIMAL ? OPTIMAL : (int)res.status;
    out->objective = res.objective;
    out->x = gather(res.x, model->n, col_lo, n_loc, grid->r == 0);
    out->z = gather(res.rc, model->n, col_lo, n_loc, grid->r == 0);
    out->y = gather(res.y, model->m, row_lo, m_loc, grid->c == 0);
    double *ax = gather(res.ax, model->m, row_lo, m_loc, grid->c == 0);
    slp_check_result_t chk;
    CHECK(slp_check_model(model, out->x, out->y, out->z, res.objective, &chk) == SLP_OK, "check");
    out->check_max = chk.all_finite ? chk.max : INFINITY;
    for (int k = 0; k < SLP_CHECK_COUNT; k++)
        if (chk.value[k] == chk.max)
            out->check_worst = k;
    /* recovered activities against A x of the original model */
    double *ref = calloc((size_t)model->m + 1, sizeof(double));
    for (int64_t j = 0; j < model->n; j++)
        for (int64_t k = model->col_ptr[j]; k < model->col_ptr[j + 1]; k++)
            ref[model->row_idx[k]] += model->val[k] * out->x[j];
    for (int64_t i = 0; i < model->m; i++)
        out->ax_err = fmax(out->ax_err, fabs(ax[i] - ref[i]) / (1.0 + fabs(ref[i])));
    free(ref);
    free(ax);
    slp_result_free(&res);
    be->destroy(be);
    slp_presolve_free(&pre);
    slp_local_problem_free(&lp);
    slp_local_problem_free(&given);
}

static void free_outcome(outcome_t *o)
{
    free(o->x);
    free(o->y);
    free(o->z);
    o->x = o->y = o->z = NULL;
}

/* Optimal, passes the checker on the original model, objective as expected. */
static void expect_optimal(const char *name, const outcome_t *o, double objective)
{
    CHECK(o->status == OPTIMAL, "%s: status %d", name, o->status);
    CHECK(o->check_max <= CHECK_TOL, "%s: checker max %.3e > %g", name, o->check_max, CHECK_TOL);
    CHECK(o->ax_err <= 1e-9, "%s: recovered activity error %.3e", name, o->ax_err);
    if (!isnan(objective))
        CHECK(fabs(o->objective - objective) <= 1e-6 * fmax(1.0, fabs(objective)),
              "%s: objective %.12g, expected %.12g", name, o->objective, objective);
}

static void expect_count(const char *name, const slp_presolve_stats_t *st, int kind, int64_t rows,
                         int64_t cols, int64_t nnz)
{
    const slp_presolve_count_t *k = &st->kind[kind];
    CHECK(k->rows == rows && k->cols == cols && k->nnz == nnz,
          "%s: %s removed %lld/%lld/%lld rows/cols/nnz, expected %lld/%lld/%lld", name,
          slp_presolve_kind_name(kind), (long long)k->rows, (long long)k->cols, (long long)k->nnz,
          (long long)rows, (long long)cols, (long long)nnz);
}

/* ------------------------------------------------------------ hand-made LPs */

/* Paper pass. min x1 + 2 x2 - x3, r0: x1 + x2 + x3 >= 2, r1: 2 x3 = 0, x >= 0.
 * r1 forces x3 = 0: optimum x = (2, 0, 0), objective 2. Duals: y0 = 1 (x1
 * basic), z2 = 2 - 1 = 1, and x3's reduced cost goes to r1: -1 - 1 - 2 y1 = 0,
 * y1 = -1. Presolve removes r1, x3 and its 2 entries (paper), then r0 is not a
 * singleton (2 entries). */
static void test_paper_pass(void)
{
    double a[] = {1, 1, 1, 0, 0, 2}, c[] = {1, 2, -1}, lv[] = {0, 0, 0};
    double uv[] = {INFINITY, INFINITY, INFINITY}, lc[] = {2, 0}, uc[] = {INFINITY, 0};
    slp_model_t *model = dense_model(2, 3, a, c, lv, uv, lc, uc, 1);
    outcome_t o;
    run(model, 1, &o);
    expect_optimal("paper", &o, 2.0);
    expect_count("paper", &o.stats, SLP_PRESOLVE_PAPER, 1, 1, 2);
    if (o.x) {
        CHECK_CLOSE(o.x[0], 2.0, 1e-6);
        CHECK_CLOSE(o.x[2], 0.0, 1e-6);
        CHECK_CLOSE(o.y[0], 1.0, 1e-6);
        CHECK_CLOSE(o.y[1], -1.0, 1e-6);
        CHECK_CLOSE(o.z[1], 1.0, 1e-6);
        CHECK_CLOSE(o.z[2], 0.0, 1e-6);
    }
    free_outcome(&o);
    slp_model_destroy(&model);
}

/* Singleton rows. min 3 x1 + x2, r0: x1 + x2 >= 4, r1: 2 <= 2 x1 <= 8,
 * r2: x2 <= 2, x free. Optimum x = (2, 2), objective 8; y0 = 3, and x2 sits at
 * the bound that came from r2: y2 = 1 - 3 = -2, y1 = 0. Presolve turns r1, r2
 * into 1 <= x1 <= 4, x2 <= 2 (2 rows, 2 nonzeros). */
static void test_singleton_rows(void)
{
    double a[] = {1, 1, 2, 0, 0, 1}, c[] = {3, 1}, lv[] = {-INFINITY, -INFINITY};
    double uv[] = {INFINITY, INFINITY}, lc[] = {4, 2, -INFINITY}, uc[] = {INFINITY, 8, 2};
    slp_model_t *model = dense_model(3, 2, a, c, lv, uv, lc, uc, 1);
    outcome_t o;
    run(model, 1, &o);
    expect_optimal("singleton", &o, 8.0);
    expect_count("singleton", &o.stats, SLP_PRESOLVE_SINGLETON, 2, 0, 2);
    if (o.x) {
        CHECK_CLOSE(o.x[0], 2.0, 1e-6);
        CHECK_CLOSE(o.x[1], 2.0, 1e-6);
        CHECK_CLOSE(o.y[0], 3.0, 1e-6);
        CHECK_CLOSE(o.y[1], 0.0, 1e-6);
        CHECK_CLOSE(o.y[2], -2.0, 1e-6);
        CHECK_CLOSE(o.z[1], 0.0, 1e-6);
    }
    free_outcome(&o);
    slp_model_destroy(&model);
}

/* The same as a maximisation (objective negated): max -3 x1 - x2, optimum -8,
 * user-sense duals negated: y0 = -3, y2 = 2. */
static void test_singleton_rows_max(void)
{
    double a[] = {1, 1, 2, 0, 0, 1}, c[] = {-3, -1}, lv[] = {-INFINITY, -INFINITY};
    double uv[] = {INFINITY, INFINITY}, lc[] = {4, 2, -INFINITY}, uc[] = {INFINITY, 8, 2};
    slp_model_t *model = dense_model(3, 2, a, c, lv, uv, lc, uc, -1);
    outcome_t o;
    run(model, 1, &o);
    expect_optimal("singleton max", &o, -8.0);
    if (o.x) {
        CHECK_CLOSE(o.y[0], -3.0, 1e-6);
        CHECK_CLOSE(o.y[2], 2.0, 1e-6);
    }
    free_outcome(&o);
    slp_model_destroy(&model);
}

/* Fixed column, empty row, empty columns. Columns x1..x4, rows r0..r2:
 *   min x1 + x2 + 2 x3 - x4
 *   r0: x1 + x2 + x3 >= 5     r1: -1 <= 0 <= 5 (no entries)   r2: 2 <= x1 + x3 <= 10
 *   x1 >= 0, x2 >= 0, x3 = 3 (fixed), x4 in [0, 7] (no entries).
 * x3 = 3 leaves r0: x1 + x2 >= 2, r2: -1 <= x1 <= 7 (a singleton after the
 * substitution). x4 = 7 (empty, c < 0). Then x1 and x2, alone in r0 with equal
 * costs, are parallel: x2 merges into x1 (1 entry), r0 becomes a singleton row and
 * x1 an empty column. Optimum objective: 2 (x1 + x2 = 2) + 6 - 7 = 1; y0 = 1,
 * z3 = 2 - y0 - y2 with y2 = 0, i.e. 1. */
static void test_fixed_and_empty(void)
{
    double a[] = {1, 1, 1, 0, 0, 0, 0, 0, 1, 0, 1, 0}, c[] = {1, 1, 2, -1};
    double lv[] = {0, 0, 3, 0}, uv[] = {INFINITY, INFINITY, 3, 7};
    double lc[] = {5, -1, 2}, uc[] = {INFINITY, 5, 10};
    slp_model_t *model = dense_model(3, 4, a, c, lv, uv, lc, uc, 1);
    outcome_t o;
    run(model, 1, &o);
    expect_optimal("fixed+empty", &o, 1.0);
    expect_count("fixed+empty", &o.stats, SLP_PRESOLVE_FIXED, 0, 1, 2);
    expect_count("fixed+empty", &o.stats, SLP_PRESOLVE_EMPTY_ROW, 1, 0, 0);
    expect_count("fixed+empty", &o.stats, SLP_PRESOLVE_EMPTY_COL, 0, 2, 0);
    expect_count("fixed+empty", &o.stats, SLP_PRESOLVE_PARALLEL, 0, 1, 1);
    if (o.x) {
        CHECK_CLOSE(o.x[2], 3.0, 1e-12);
        CHECK_CLOSE(o.x[3], 7.0, 1e-12);
        CHECK_CLOSE(o.z[2], 1.0, 1e-6);
        CHECK_CLOSE(o.z[3], -1.0, 1e-12);
        CHECK_CLOSE(o.y[1], 0.0, 1e-12);
    }
    free_outcome(&o);
    slp_model_destroy(&model);
}

/* Everything removed: min x1 - x2, r0: x1 >= 1, r1: x2 <= 4, x free. Presolve
 * turns both rows into bounds, both columns become empty and are fixed at
 * x = (1, 4): objective -3, y = (1, -1). The solver sees an empty problem. */
static void test_all_removed(void)
{
    double a[] = {1, 0, 0, 1}, c[] = {1, -1}, lv[] = {-INFINITY, -INFINITY};
    double uv[] = {INFINITY, INFINITY}, lc[] = {1, -INFINITY}, uc[] = {INFINITY, 4};
    slp_model_t *model = dense_model(2, 2, a, c, lv, uv, lc, uc, 1);
    outcome_t o;
    run(model, 1, &o);
    expect_optimal("all removed", &o, -3.0);
    CHECK(o.stats.total.rows == 2 && o.stats.total.cols == 2 && o.stats.total.nnz == 2,
          "all removed: %lld/%lld/%lld", (long long)o.stats.total.rows,
          (long long)o.stats.total.cols, (long long)o.stats.total.nnz);
    if (o.x) {
        CHECK_CLOSE(o.x[0], 1.0, 1e-12);
        CHECK_CLOSE(o.x[1], 4.0, 1e-12);
        CHECK_CLOSE(o.y[0], 1.0, 1e-12);
        CHECK_CLOSE(o.y[1], -1.0, 1e-12);
        CHECK_CLOSE(o.z[0], 0.0, 1e-12);
    }
    free_outcome(&o);
    slp_model_destroy(&model);
}

/* Forcing and redundant rows. x1, x2, x3 in [0, 10]:
 *   min -x1 - x2 + x3,  r0: x1 + x2 <= 0,  r1: x1 + x2 + x3 >= 2,  r2: x1 + x3 <= 30.
 * r0's least activity 0 meets its upper bound: x1 = x2 = 0 (forcing); r2's greatest
 * activity 20 never reaches 30 (redundant). Then r1 is the bound x3 >= 2: x = (0, 0, 2),
 * objective 2. Duals: x3 is strictly inside its bounds, so y1 = 1; x1 at 0 needs
 * z1 = -1 - y0 - y1 >= 0 with y0 <= 0 (r0 at its upper bound): the least move is
 * y0 = -2 (z1 = z2 = 0); y2 = 0. */
static void test_forcing_redundant(void)
{
    double a[] = {1, 1, 0, 1, 1, 1, 1, 0, 1}, c[] = {-1, -1, 1}, lv[] = {0, 0, 0};
    double uv[] = {10, 10, 10}, lc[] = {-INFINITY, 2, -INFINITY}, uc[] = {0, INFINITY, 30};
    slp_model_t *model = dense_model(3, 3, a, c, lv, uv, lc, uc, 1);
    outcome_t o;
    run(model, 1, &o);
    expect_optimal("forcing", &o, 2.0);
    expect_count("forcing", &o.stats, SLP_PRESOLVE_FORCING, 1, 2, 4);
    expect_count("forcing", &o.stats, SLP_PRESOLVE_REDUNDANT, 1, 0, 2);
    if (o.x) {
        CHECK_CLOSE(o.x[0], 0.0, 1e-12);
        CHECK_CLOSE(o.x[2], 2.0, 1e-9);
        CHECK_CLOSE(o.y[0], -2.0, 1e-6);
        CHECK_CLOSE(o.y[1], 1.0, 1e-6);
        CHECK_CLOSE(o.y[2], 0.0, 1e-12);
        CHECK_CLOSE(o.z[0], 0.0, 1e-6);
    }
    free_outcome(&o);
    slp_model_destroy(&model);
}

/* Dual fixing. x1 in [1, 5], x2 in [0, 4]: min x1 - x2, r0: x1 + x2 <= 8, r1: x1 - x2 <= 2.
 * Lowering x1 can violate neither row and x1 costs: x1 = 1 (its two entries go). Then
 * r0, r1 are bounds on x2 and x2 = 4: objective -3, y = 0, z = (1, -1). */
static void test_dual_fixing(void)
{
    double a[] = {1, 1, 1, -1}, c[] = {1, -1}, lv[] = {1, 0}, uv[] = {5, 4};
    double lc[] = {-INFINITY, -INFINITY}, uc[] = {8, 2};
    slp_model_t *model = dense_model(2, 2, a, c, lv, uv, lc, uc, 1);
    outcome_t o;
    run(model, 1, &o);
    expect_optimal("dual fixing", &o, -3.0);
    expect_count("dual fixing", &o.stats, SLP_PRESOLVE_DUAL_FIX, 0, 1, 2);
    if (o.x) {
        CHECK_CLOSE(o.x[0], 1.0, 1e-12);
        CHECK_CLOSE(o.x[1], 4.0, 1e-9);
        CHECK_CLOSE(o.z[0], 1.0, 1e-6);
        CHECK_CLOSE(o.z[1], -1.0, 1e-6);
    }
    free_outcome(&o);
    slp_model_destroy(&model);
}

/* Dominated columns. x in [0, 10], s in [0, inf), w in [0, 5]; c = (3, 1, 1) in (a),
 * (-3, 1, 1) in (b). s is a singleton of the equality r0 with no upper bound, so every
 * dual feasible y0 <= c_s / 1 = 1; r1 has no lower side, so y1 <= 0. Dual fixing takes
 * nothing (r0 blocks x, s both ways; r1 blocks w downwards), nor does the activity pass.
 * (a) r0: x + s = 2, r1: x - w <= 3. z_x = 3 - y0 - y1 >= 3 - 1 - 0 = 2 > 0: x = 0
 *     (1 column, 2 entries). Then s = 2, w = 0: objective 2, y = (1, 0), z = (2, 0, 1).
 * (b) r0: -x + s = -8, r1: -x - w <= -9. z_x = -3 + y0 + y1 <= -3 + 1 + 0 = -2 < 0:
 *     x = 10. Then s = 2, w = 0: objective -28, y = (1, 0), z = (-2, 0, 1).
 * The duals are also compared with the solve without presolve. */
static void test_dominated_columns(void)
{
    const double lv[] = {0, 0, 0}, uv[] = {10, INFINITY, 5};
    const double a1[] = {1, 1, 0, 1, 0, -1}, c1[] = {3, 1, 1}, lc1[] = {2, -INFINITY},
                 uc1[] = {2, 3}, x1[] = {0, 2, 0}, z1[] = {2, 0, 1};
    const double a2[] = {-1, 1, 0, -1, 0, -1}, c2[] = {-3, 1, 1}, lc2[] = {-8, -INFINITY},
                 uc2[] = {-8, -9}, x2[] = {10, 2, 0}, z2[] = {-2, 0, 1};
    const double *a[] = {a1, a2}, *c[] = {c1, c2}, *lc[] = {lc1, lc2}, *uc[] = {uc1, uc2};
    const double *xs[] = {x1, x2}, *zs[] = {z1, z2}, objective[] = {2, -28};
    for (int t = 0; t < 2; t++) {
        slp_model_t *model = dense_model(2, 3, a[t], c[t], lv, uv, lc[t], uc[t], 1);
        outcome_t o, plain;
        run(model, 1, &o);
        run(model, 0, &plain);
        const char *name = t == 0 ? "dominated column (lower)" : "dominated column (upper)";
        expect_optimal(name, &o, objective[t]);
        expect_count(name, &o.stats, SLP_PRESOLVE_DOMINATED, 0, 1, 2);
        expect_count(name, &o.stats, SLP_PRESOLVE_DUAL_FIX, 0, 0, 0);
        if (o.x && plain.y) {
            for (int j = 0; j < 3; j++) {
                CHECK_CLOSE(o.x[j], xs[t][j], 1e-9);
                CHECK_CLOSE(o.z[j], zs[t][j], 1e-6);
                CHECK_CLOSE(o.z[j], plain.z[j], 1e-6);
            }
            for (int i = 0; i < 2; i++) {
                CHECK_CLOSE(o.y[i], i == 0 ? 1.0 : 0.0, 1e-6);
                CHECK_CLOSE(o.y[i], plain.y[i], 1e-6);
            }
        }
        free_outcome(&o);
        free_outcome(&plain);
        slp_model_destroy(&model);
    }
}

/* Free column singletons. x1, x2 in [0, 1], x3 in [0, 10], x3 only in r0.
 * (a) min x1 + x2 + 3 x3, r0: x1 + x2 + x3 = 4, r1: x1 - x2 >= 0. With x1 + x2 in
 *     [0, 2], x3 = 4 - x1 - x2 lies in [2, 4]: implied free, so x3 is substituted and
 *     x1, x2 cost 1 - 3 = -2 each: x = (1, 1, 2), objective 8, y0 = c3 / a = 3. The next
 *     round fixes x1 = 1 by dual fixing (raising it violates nothing; one entry), and
 *     x2, now alone in r1 (-x2 >= -1, y1 = -2 / -1 > 0: held at lc), is a free
 *     singleton too: free_col 2 rows, 2 columns, 3 + 1 entries.
 * (b) min x1 + x2 - 2 x3, r0: x1 + x2 + x3 <= 4 (an inequality). First x2 = 0 by dual
 *     fixing (lowering it violates neither row; 2 entries); then y0 = -2 < 0, so r0
 *     holds at its upper bound and x3 = 4 - x1 goes (2 entries); x1 costs 3:
 *     x = (0, 0, 4), objective -8, y0 = -2, z1 = 1 + 2 = 3. */
static void test_free_column_singleton(void)
{
    double a[] = {1, 1, 1, 1, -1, 0}, lv[] = {0, 0, 0}, uv[] = {1, 1, 10};
    double c1[] = {1, 1, 3}, lc1[] = {4, 0}, uc1[] = {4, INFINITY};
    slp_model_t *model = dense_model(2, 3, a, c1, lv, uv, lc1, uc1, 1);
    outcome_t o;
    run(model, 1, &o);
    expect_optimal("free column (equality)", &o, 8.0);
    expect_count("free column (equality)", &o.stats, SLP_PRESOLVE_FREE_COL, 2, 2, 4);
    expect_count("free column (equality)", &o.stats, SLP_PRESOLVE_DUAL_FIX, 0, 1, 1);
    if (o.x) {
        CHECK_CLOSE(o.x[2], 2.0, 1e-9);
        CHECK_CLOSE(o.y[0], 3.0, 1e-9);
        CHECK_CLOSE(o.z[2], 0.0, 1e-9);
    }
    free_outcome(&o);
    slp_model_destroy(&model);
    double c2[] = {1, 1, -2}, lc2[] = {-INFINITY, 0}, uc2[] = {4, INFINITY};
    model = dense_model(2, 3, a, c2, lv, uv, lc2, uc2, 1);
    run(model, 1, &o);
    expect_optimal("free column (inequality)", &o, -8.0);
    expect_count("free column (inequality)", &o.stats, SLP_PRESOLVE_FREE_COL, 1, 1, 2);
    expect_count("free column (inequality)", &o.stats, SLP_PRESOLVE_DUAL_FIX, 0, 1, 2);
    if (o.x) {
        CHECK_CLOSE(o.x[2], 4.0, 1e-9);
        CHECK_CLOSE(o.y[0], -2.0, 1e-9);
        CHECK_CLOSE(o.z[0], 3.0, 1e-6);
    }
    free_outcome(&o);
    slp_model_destroy(&model);
}

/* Presolve alone: its counts, and the reduced problem's ||b|| (L2) for the tolerances. */
static double presolve_only(const slp_model_t *model, slp_presolve_stats_t *stats)
{
    slp_local_problem_t lp;
    slp_presolve_t *pre = NULL;
    int st = -1;
    CHECK(slp_distribute_model(grid, grid->rank == 0 ? model : NULL, &lp) == SLP_OK, "distribute");
    CHECK(slp_presolve_run(grid, &lp, &pre, &st) == SLP_OK && st < 0, "presolve");
    *stats = *slp_presolve_stats(pre);
    double b = slp_presolve_norms(pre)->b_l2;
    slp_presolve_free(&pre);
    slp_local_problem_free(&lp);
    return b;
}

/* Zero-cost column singletons (slack columns), x1 in [0, 10], x2 >= 0, min x1 + 2 x2.
 * (a) r0: x1 + x2 + s = 4 with s in [0, 1], r1: x1 - x2 <= 1. s goes and r0 becomes
 *     3 <= x1 + x2 <= 4. Optimum x = (2, 1), objective 4, both rows active:
 *     1 = y0 + y1, 2 = y0 - y1 give y0 = 1.5, y1 = -0.5; r0 sits at its new lower
 *     bound, so s = 1 (its upper bound) with z_s = -y0 = -1.5.
 * (b) r0: x1 + x2 - s1 = 3 with s1 in [-1, 0], r1: -5 <= x1 - x2 - s2 <= 1 with s2 in
 *     [-1, 5]: r0 becomes 2 <= x1 + x2 <= 3, r1 -6 <= x1 - x2 <= 6. Optimum x = (2, 0),
 *     objective 2, y0 = 1, y1 = 0, z2 = 1; s1 = -1 (z_s1 = y0 = 1, at its lower bound);
 *     r1 is inactive and any s2 in [1, 5] keeps it within its bounds: the nearest to 0,
 *     s2 = 1, z_s2 = 0. (Dual fixing would take a slack of a one-sided row first.) */
static void test_slack_columns(void)
{
    double a1[] = {1, 1, 1, 1, -1, 0}, c1[] = {1, 2, 0}, lv1[] = {0, 0, 0};
    double uv1[] = {10, INFINITY, 1}, lc1[] = {4, -INFINITY}, uc1[] = {4, 1};
    slp_model_t *model = dense_model(2, 3, a1, c1, lv1, uv1, lc1, uc1, 1);
    /* The reduced problem's ||b|| counts r0 as the equality it was: sqrt(4^2 + 1^2),
     * not sqrt(3^2 + 4^2 + 1^2). */
    slp_presolve_stats_t stats;
    CHECK_CLOSE(presolve_only(model, &stats), sqrt(17.0), 1e-12);
    /* With s in [0, 1000] the widening, 1000, exceeds 100 x (1 + 4): s stays. */
    double uv_wide[] = {10, INFINITY, 1000};
    slp_model_t *wide = dense_model(2, 3, a1, c1, lv1, uv_wide, lc1, uc1, 1);
    presolve_only(wide, &stats);
    expect_count("slack column (wide range)", &stats, SLP_PRESOLVE_SLACK_COL, 0, 0, 0);
    slp_model_destroy(&wide);
    outcome_t o;
    run(model, 1, &o);
    expect_optimal("slack column (equality)", &o, 4.0);
    expect_count("slack column (equality)", &o.stats, SLP_PRESOLVE_SLACK_COL, 0, 1, 1);
    if (o.x) {
        CHECK_CLOSE(o.x[0], 2.0, 1e-6);
        CHECK_CLOSE(o.x[1], 1.0, 1e-6);
        CHECK_CLOSE(o.x[2], 1.0, 1e-6);
        CHECK_CLOSE(o.y[0], 1.5, 1e-6);
        CHECK_CLOSE(o.y[1], -0.5, 1e-6);
        CHECK_CLOSE(o.z[2], -1.5, 1e-6);
    }
    free_outcome(&o);
    slp_model_destroy(&model);
    double a2[] = {1, 1, -1, 0, 1, -1, 0, -1}, c2[] = {1, 2, 0, 0}, lv2[] = {0, 0, -1, -1};
    double uv2[] = {10, INFINITY, 0, 5}, lc2[] = {3, -5}, uc2[] = {3, 1};
    model = dense_model(2, 4, a2, c2, lv2, uv2, lc2, uc2, 1);
    run(model, 1, &o);
    expect_optimal("slack columns (ranged)", &o, 2.0);
    expect_count("slack columns (ranged)", &o.stats, SLP_PRESOLVE_SLACK_COL, 0, 2, 2);
    if (o.x) {
        CHECK_CLOSE(o.x[0], 2.0, 1e-6);
        CHECK_CLOSE(o.x[1], 0.0, 1e-6);
        CHECK_CLOSE(o.x[2], -1.0, 1e-6);
        CHECK_CLOSE(o.x[3], 1.0, 1e-6);
        CHECK_CLOSE(o.y[0], 1.0, 1e-6);
        CHECK_CLOSE(o.y[1], 0.0, 1e-6);
        CHECK_CLOSE(o.z[1], 1.0, 1e-6);
        CHECK_CLOSE(o.z[2], 1.0, 1e-6);
        CHECK_CLOSE(o.z[3], 0.0, 1e-6);
    }
    free_outcome(&o);
    slp_model_destroy(&model);
}

/* Doubleton equation. x >= 0: min x1 + 2 x2 + x3, r0: x1 - x2 = 1, r1: x2 + x3 >= 3,
 * r2: x1 + x3 <= 10. x1 and x2 have two entries each: the higher index, x2 = x1 - 1,
 * goes; x2 >= 0 becomes x1 >= 1 (source r0), x1 costs 1 + 2 = 3, r1 becomes
 * x1 + x3 >= 4 (its x2 entry replaced by fill at x1): 3 entries removed, 1 added.
 * Optimum x = (1, 0, 3), objective 4; x3 > 0 and x1 > 0 give y1 = 1, y0 = 1, y2 = 0,
 * and z2 = 2 + y0 - y1 = 2 (x2 at its bound, the bound x1 had taken over). */
static void test_doubleton(void)
{
    double a[] = {1, -1, 0, 0, 1, 1, 1, 0, 1}, c[] = {1, 2, 1}, lv[] = {0, 0, 0};
    double uv[] = {INFINITY, INFINITY, INFINITY}, lc[] = {1, 3, -INFINITY};
    double uc[] = {1, INFINITY, 10};
    slp_model_t *model = dense_model(3, 3, a, c, lv, uv, lc, uc, 1);
    outcome_t o;
    run(model, 1, &o);
    expect_optimal("doubleton", &o, 4.0);
    expect_count("doubleton", &o.stats, SLP_PRESOLVE_DOUBLETON, 1, 1, 2);
    if (o.x) {
        CHECK_CLOSE(o.x[0], 1.0, 1e-6);
        CHECK_CLOSE(o.x[1], 0.0, 1e-6);
        CHECK_CLOSE(o.x[2], 3.0, 1e-6);
        CHECK_CLOSE(o.y[0], 1.0, 1e-6);
        CHECK_CLOSE(o.y[1], 1.0, 1e-6);
        CHECK_CLOSE(o.y[2], 0.0, 1e-6);
        CHECK_CLOSE(o.z[0], 0.0, 1e-6);
        CHECK_CLOSE(o.z[1], 2.0, 1e-6);
    }
    free_outcome(&o);
    slp_model_destroy(&model);
}

/* Parallel columns. x3, x4 in [0, 10]; rows r0: a1 + x3 + x4 >= 4, r1: a1 - x3 + x4 <= 6,
 * r2: x3 + x4 >= 1, where a1 is the first two columns' part; min ... + 3 x3 + 1.5 x4.
 * (a) a1 = x1 + 2 x2, costs 1, 2, both in [0, 10]: A_2 = 2 A_1 and c_2 = 2 c_1, so x2
 *     merges into u = x1 + 2 x2 in [0, 30] (2 entries go). u costs 1 per unit of r0,
 *     x4 1.5 per unit of r0 and r2, x3 3: x4 = 1, u = 3, objective 4.5, y = (1, 0, 0.5),
 *     z = (0, 0, 1.5, 0).
 * (b) a1 = x1 - x2, costs 1, -1, x2 in [-10, 0]: lambda = -1, merged the same way.
 * (c) a1 = x1 + x2, costs 1, 3, x1 in [0, inf): lowering x2 and raising x1 by as much
 *     saves 2 and only x2's bound stops it, so x2 = 0 (parallel_fix, 2 entries);
 *     z2 = 3 - y0 = 2. Every grid puts the pair in different column blocks on 1x4. */
static void test_parallel_columns(void)
{
    double lc[] = {4, -INFINITY, 1}, uc[] = {INFINITY, 6, INFINITY};
    struct {
        const char *name;
        double a[12], c[4], lv[4], uv[4];
        int kind;
        double x2, z2;
    } cases[] = {
        {"parallel (lambda 2)", {1, 2, 1, 1, 1, 2, -1, 1, 0, 0, 1, 1}, {1, 2, 3, 1.5},
         {0, 0, 0, 0}, {10, 10, 10, 10}, SLP_PRESOLVE_PARALLEL, NAN, 0.0},
        {"parallel (lambda -1)", {1, -1, 1, 1, 1, -1, -1, 1, 0, 0, 1, 1}, {1, -1, 3, 1.5},
         {0, -10, 0, 0}, {10, 0, 10, 10}, SLP_PRESOLVE_PARALLEL, NAN, 0.0},
        {"parallel fix", {1, 1, 1, 1, 1, 1, -1, 1, 0, 0, 1, 1}, {1, 3, 3, 1.5},
         {0, 0, 0, 0}, {INFINITY, 10, 10, 10}, SLP_PRESOLVE_PARALLEL_FIX, 0.0, 2.0},
    };
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        slp_model_t *model = dense_model(3, 4, cases[t].a, cases[t].c, cases[t].lv,
                                         cases[t].uv, lc, uc, 1);
        outcome_t o;
        run(model, 1, &o);
        expect_optimal(cases[t].name, &o, 4.5);
        expect_count(cases[t].name, &o.stats, cases[t].kind, 0, 1, 2);
        if (o.x) {
            double a1 = o.x[0] + cases[t].a[1] * o.x[1];
            CHECK_CLOSE(a1, 3.0, 1e-6);
            CHECK_CLOSE(o.x[3], 1.0, 1e-6);
            if (!isnan(cases[t].x2))
                CHECK_CLOSE(o.x[1], cases[t].x2, 1e-9);
            CHECK_CLOSE(o.y[0], 1.0, 1e-6);
            CHECK_CLOSE(o.y[1], 0.0, 1e-6);
            CHECK_CLOSE(o.y[2], 0.5, 1e-6);
            CHECK_CLOSE(o.z[0], 0.0, 1e-6);
            CHECK_CLOSE(o.z[1], cases[t].z2, 1e-6);
            CHECK_CLOSE(o.z[2], 1.5, 1e-6);
        }
        free_outcome(&o);
        slp_model_destroy(&model);
    }
}

/* Duplicate rows. x in [0, 10]^3, min x1 + 2 x2 + 3 x3, r0: x1 + x2 + x3 >= 2,
 * r1: lambda (x1 + x2 + x3) >= 3 lambda (lambda 2, or -1 written as <= -3), r2: x1 - x2 <= 1.
 * r1 goes and r0 becomes x1 + x2 + x3 >= 3 (3 entries). Optimum x = (2, 1, 0),
 * objective 4; the merged row's dual 1.5 and y2 = -0.5 (x1: 1 = 1.5 - 0.5, x2:
 * 2 = 1.5 + 0.5) belong to r1, whose bound holds: y0 = 0, y1 = 1.5 / lambda, z3 = 1.5.
 * With r0 turned into x1 + x2 + x3 <= 2 the two rows exclude each other: infeasible. */
static void test_duplicate_rows(void)
{
    double lv[] = {0, 0, 0}, uv[] = {10, 10, 10}, c[] = {1, 2, 3};
    for (int neg = 0; neg < 2; neg++) {
        double lam = neg ? -1.0 : 2.0;
        double a[] = {1, 1, 1, lam, lam, lam, 1, -1, 0};
        double lc[] = {2, neg ? -INFINITY : 6, -INFINITY}, uc[] = {INFINITY, neg ? -3 : INFINITY, 1};
        slp_model_t *model = dense_model(3, 3, a, c, lv, uv, lc, uc, 1);
        outcome_t o;
        const char *name = neg ? "duplicate row (lambda -1)" : "duplicate row (lambda 2)";
        run(model, 1, &o);
        expect_optimal(name, &o, 4.0);
        expect_count(name, &o.stats, SLP_PRESOLVE_DUPLICATE_ROW, 1, 0, 3);
        if (o.x) {
            CHECK_CLOSE(o.x[0], 2.0, 1e-6);
            CHECK_CLOSE(o.x[1], 1.0, 1e-6);
            CHECK_CLOSE(o.y[0], 0.0, 1e-6);
            CHECK_CLOSE(o.y[1], 1.5 / lam, 1e-6);
            CHECK_CLOSE(o.y[2], -0.5, 1e-6);
            CHECK_CLOSE(o.z[2], 1.5, 1e-6);
        }
        free_outcome(&o);
        slp_model_destroy(&model);
    }
    double a[] = {1, 1, 1, 2, 2, 2, 1, -1, 0};
    double lc[] = {-INFINITY, 6, -INFINITY}, uc[] = {2, INFINITY, 1};
    slp_model_t *model = dense_model(3, 3, a, c, lv, uv, lc, uc, 1);
    outcome_t o;
    run(model, 1, &o);
    CHECK(o.status == SLP_STATUS_PRIMAL_INFEASIBLE, "disjoint duplicate rows: status %d", o.status);
    slp_model_destroy(&model);
}

/* Infeasible and unbounded models decided by presolve alone. */
/* The status of the whole pipeline (presolve, solve, verdict) on 1e-8. */
/* The model distributed over the grid, and the default settings at tolerance 1e-8. */
static void distribute_at_1e8(const slp_model_t *model, slp_local_problem_t *lp,
                              slp_settings_t *set)
{
    CHECK(slp_distribute_model(grid, grid->rank == 0 ? model : NULL, lp) == SLP_OK,
          "distribute: %s", slp_error_message());
    slp_settings_default(set);
    set->tol = 1e-8;
}

static int pipeline_status(const slp_model_t *model, int presolve)
{
    slp_local_problem_t lp;
    slp_settings_t set;
    distribute_at_1e8(model, &lp, &set);
    set.presolve = presolve;
    slp_backend_t *be = NULL;
    CHECK(slp_backend_cpu_create(1, &be) == SLP_OK, "backend");
    slp_result_t res;
    slp_presolve_stats_t stats;
    CHECK(slp_solve_pipeline(grid, &lp, &set, NULL, NULL, be, &res, &stats) == SLP_OK, "pipeline: %s",
          slp_error_message());
    int status = (int)res.status;
    slp_result_free(&res);
    be->destroy(be);
    slp_local_problem_free(&lp);
    return status;
}

static void test_decided_by_presolve(void)
{
    outcome_t o;
    { /* paper row forces x1 = 0 but x1 >= 1 */
        double a[] = {1, 1, 1, 0}, c[] = {1, 1}, lv[] = {1, 0}, uv[] = {INFINITY, INFINITY};
        double lc[] = {2, 0}, uc[] = {INFINITY, 0};
        slp_model_t *model = dense_model(2, 2, a, c, lv, uv, lc, uc, 1);
        run(model, 1, &o);
        CHECK(o.status == SLP_STATUS_PRIMAL_INFEASIBLE, "paper infeasible: status %d", o.status);
        slp_model_destroy(&model);
    }
    { /* singleton 2 x1 >= 4 against x1 <= 1 */
        double a[] = {2, 0, 1, 1}, c[] = {1, 1}, lv[] = {0, 0}, uv[] = {1, INFINITY};
        double lc[] = {4, 1}, uc[] = {INFINITY, INFINITY};
        slp_model_t *model = dense_model(2, 2, a, c, lv, uv, lc, uc, 1);
        run(model, 1, &o);
        CHECK(o.status == SLP_STATUS_PRIMAL_INFEASIBLE, "singleton infeasible: status %d",
              o.status);
        slp_model_destroy(&model);
    }
    { /* empty row 1 <= 0 <= 2 */
        double a[] = {1, 1, 0, 0}, c[] = {1, 1}, lv[] = {0, 0}, uv[] = {INFINITY, INFINITY};
        double lc[] = {1, 1}, uc[] = {INFINITY, 2};
        slp_model_t *model = dense_model(2, 2, a, c, lv, uv, lc, uc, 1);
        run(model, 1, &o);
        CHECK(o.status == SLP_STATUS_PRIMAL_INFEASIBLE, "empty row: status %d", o.status);
        slp_model_destroy(&model);
    }
    { /* fixed column makes a row infeasible: x2 = 5, x1 + x2 <= 3, x1 >= 0 */
        double a[] = {1, 1}, c[] = {1, 1}, lv[] = {0, 5}, uv[] = {INFINITY, 5};
        double lc[] = {-INFINITY}, uc[] = {3};
        slp_model_t *model = dense_model(1, 2, a, c, lv, uv, lc, uc, 1);
        run(model, 1, &o);
        CHECK(o.status == SLP_STATUS_PRIMAL_INFEASIBLE, "fixed infeasible: status %d", o.status);
        slp_model_destroy(&model);
    }
    { /* activity bounds exclude the row: x in [0, 1]^2, x1 + x2 >= 3 */
        double a[] = {1, 1, 1, -1}, c[] = {1, 1}, lv[] = {0, 0}, uv[] = {1, 1};
        double lc[] = {3, -INFINITY}, uc[] = {INFINITY, 5};
        slp_model_t *model = dense_model(2, 2, a, c, lv, uv, lc, uc, 1);
        run(model, 1, &o);
        CHECK(o.status == SLP_STATUS_PRIMAL_INFEASIBLE, "activity infeasible: status %d", o.status);
        slp_model_destroy(&model);
    }
    { /* lower > upper on a row */
        double a[] = {1, 1}, c[] = {1, 1}, lv[] = {0, 0}, uv[] = {1, 1};
        double lc[] = {2}, uc[] = {1};
        slp_model_t *model = dense_model(1, 2, a, c, lv, uv, lc, uc, 1);
        run(model, 1, &o);
        CHECK(o.status == SLP_STATUS_PRIMAL_INFEASIBLE, "lc > uc: status %d", o.status);
        slp_model_destroy(&model);
    }
    { /* empty column x2 with c = -1 and no upper bound: unbounded */
        double a[] = {1, 0}, c[] = {1, -1}, lv[] = {0, 0}, uv[] = {INFINITY, INFINITY};
        double lc[] = {1}, uc[] = {INFINITY};
        slp_model_t *model = dense_model(1, 2, a, c, lv, uv, lc, uc, 1);
        CHECK(pipeline_status(model, 1) == SLP_STATUS_DUAL_INFEASIBLE, "empty column: unbounded");
        CHECK(pipeline_status(model, 0) == SLP_STATUS_DUAL_INFEASIBLE,
              "empty column, no presolve: unbounded");
        slp_model_destroy(&model);
    }
    { /* the same as a maximisation of +x2: unbounded too */
        double a[] = {1, 0}, c[] = {-1, 1}, lv[] = {0, 0}, uv[] = {INFINITY, INFINITY};
        double lc[] = {1}, uc[] = {INFINITY};
        slp_model_t *model = dense_model(1, 2, a, c, lv, uv, lc, uc, -1);
        CHECK(pipeline_status(model, 1) == SLP_STATUS_DUAL_INFEASIBLE, "empty column max: unbounded");
        slp_model_destroy(&model);
    }
    { /* an improving empty column, but the rest is infeasible (x1 <= -1, x1 >= 0): the
       * verdict is Infeasible, never Unbounded (HiGHS and Clp agree) */
        double a[] = {1, 0}, c[] = {1, -1}, lv[] = {0, 0}, uv[] = {INFINITY, INFINITY};
        double lc[] = {-INFINITY}, uc[] = {-1};
        slp_model_t *model = dense_model(1, 2, a, c, lv, uv, lc, uc, 1);
        CHECK(pipeline_status(model, 1) == SLP_STATUS_PRIMAL_INFEASIBLE,
              "empty improving column + infeasible rest: infeasible");
        CHECK(pipeline_status(model, 0) == SLP_STATUS_PRIMAL_INFEASIBLE,
              "empty improving column + infeasible rest, no presolve: infeasible");
        slp_model_destroy(&model);
    }
}

/* A small design-match-like LP: maximum-weight bipartite matching on K x K
 * with "forbidden" pairs written as rows x_e = 0 (lc = uc = 0, one nonzero),
 * as in the paper's Design Match. The paper pass must remove every forbidden
 * row, its column and the column's 3 nonzeros (forbidden row, left node row,
 * right node row). The optimum must equal the solve without presolve. */
static void test_design_match(void)
{
    enum { K = 8 };
    int64_t n = K * K, forbidden = 0;
    for (int64_t e = 0; e < n; e++)
        forbidden += ((e / K) * 7 + (e % K) * 3) % 5 < 2;
    int64_t m = 2 * K + forbidden, nnz = 2 * n + forbidden;
    slp_model_t *model = NULL;
    CHECK(slp_model_create(m, n, nnz, &model) == SLP_OK, "model");
    int64_t pos = 0, f = 0;
    for (int64_t e = 0; e < n; e++) {
        int64_t i = e / K, j = e % K;
        model->col_ptr[e] = pos;
        model->row_idx[pos] = i;
        model->val[pos++] = 1.0;
        model->row_idx[pos] = K + j;
        model->val[pos++] = 1.0;
        if ((i * 7 + j * 3) % 5 < 2) {
            model->row_idx[pos] = 2 * K + f++;
            model->val[pos++] = 1.0;
        }
        model->c[e] = (double)((e * 37) % 11 + 1); /* weights 1..11 */
        model->lv[e] = 0.0;
        model->uv[e] = 1.0;
    }
    model->col_ptr[n] = pos;
    for (int64_t r = 0; r < m; r++) {
        model->lc[r] = r < 2 * K ? -INFINITY : 0.0;
        model->uc[r] = r < 2 * K ? 1.0 : 0.0;
    }
    model->sense = -1;
    outcome_t plain, pre;
    run(model, 0, &plain);
    run(model, 1, &pre);
    expect_optimal("design match (no presolve)", &plain, NAN);
    expect_optimal("design match", &pre, plain.objective);
    expect_count("design match", &pre.stats, SLP_PRESOLVE_PAPER, forbidden, forbidden,
                 3 * forbidden);
    if (grid->rank == 0)
        printf("design match %dx%d: %lld forbidden pairs, paper pass removed %lld of %lld "
               "nonzeros (%.1f%%), objective %.10g\n",
               K, K, (long long)forbidden, (long long)pre.stats.kind[SLP_PRESOLVE_PAPER].nnz,
               (long long)nnz, 100.0 * (double)pre.stats.kind[SLP_PRESOLVE_PAPER].nnz / (double)nnz,
               pre.objective);
    free_outcome(&plain);
    free_outcome(&pre);
    slp_model_destroy(&model);
}

/* The paper pass on a block large enough that its compaction gives pages back while it
 * runs (docs/memory.md "Presolve": every 262,144 entries between the kept ones and the
 * next to read): 6 long <= rows over N columns, and an lc = uc = 0 singleton row on
 * every even column, which removes the even columns with their entries. Each kept
 * entry of this rank's block must come out where the CSR of the odd columns puts it,
 * with its value, although most of it is written into pages given back before. */
static void test_compaction_release(void)
{
    enum { N = 120000, LONG = 6, PRIME = 131071 };
    int64_t m = LONG + N / 2, nnz = (int64_t)LONG * N + N / 2;
    slp_model_t *model = NULL;
    CHECK(slp_model_create(m, N, nnz, &model) == SLP_OK, "model");
    int64_t pos = 0;
    for (int64_t j = 0; j < N; j++) {
        model->col_ptr[j] = pos;
        for (int64_t i = 0; i < LONG; i++) { /* distinct columns: no parallel pair */
            model->row_idx[pos] = i;
            model->val[pos++] = 1.0 + (double)(((i + 1) * j) % PRIME) / PRIME;
        }
        if (j % 2 == 0) {
            model->row_idx[pos] = LONG + j / 2;
            model->val[pos++] = 1.0;
        }
        model->c[j] = -1.0;
        model->lv[j] = 0.0;
        model->uv[j] = 1.0;
    }
    model->col_ptr[N] = pos;
    for (int64_t i = 0; i < m; i++) {
        model->lc[i] = i < LONG ? -INFINITY : 0.0;
        model->uc[i] = i < LONG ? 10.0 : 0.0;
    }
    slp_local_problem_t lp;
    CHECK(slp_distribute_model(grid, grid->rank == 0 ? model : NULL, &lp) == SLP_OK,
          "distribute: %s", slp_error_message());
    slp_presolve_t *pre = NULL;
    int st = -1;
    CHECK(slp_presolve_run(grid, &lp, &pre, &st) == SLP_OK && st < 0, "presolve: %s",
          slp_error_message());
    expect_count("compaction", slp_presolve_stats(pre), SLP_PRESOLVE_PAPER, N / 2, N / 2,
                 (int64_t)(LONG + 1) * (N / 2));
    int64_t wrong = 0, kept = 0;
    for (int64_t i = 0; i < lp.m_loc; i++) {
        int64_t gi = lp.row_lo + i, want = lp.col_lo; /* the next odd column expected */
        want += want % 2 == 0 ? 1 : 0;
        for (int64_t k = lp.A.row_ptr[i]; k < lp.A.row_ptr[i + 1]; k++, want += 2) {
            int64_t gj = lp.col_lo + lp.A.col_idx[k];
            double v = 1.0 + (double)(((gi + 1) * gj) % PRIME) / PRIME;
            wrong += gi >= LONG || gj != want || lp.A.val[k] != v;
            kept++;
        }
        if (gi < LONG && want < lp.col_lo + lp.n_loc)
            wrong++; /* odd columns missing at the row's end */
    }
    double sums[2] = {(double)wrong, (double)kept};
    slp_comm_sum(grid->world, sums, 2);
    CHECK(sums[0] == 0.0 && sums[1] == (double)LONG * (N / 2),
          "compaction: %.0f kept entries wrong, %.0f kept (expected %d)", sums[0], sums[1],
          LONG * (N / 2));
    slp_presolve_free(&pre);
    slp_local_problem_free(&lp);
    slp_model_destroy(&model);
}

/* ------------------------------------------------------------ corpus */

/* Netlib instances with fixed variables, singleton and empty rows; optima from
 * shared/lp/INDEX.tsv. */
static void test_corpus(const char *shared)
{
    static const struct {
        const char *file;
        double optimum;
    } cases[] = {
        {"netlib/afiro.mps.gz", -4.6475314286E+02},
        {"netlib/sc50a.mps.gz", -6.4575077059E+01},
        {"netlib/adlittle.mps.gz", 2.2549496316E+05},
        {"netlib/blend.mps.gz", -3.0812149846E+01},
        {"netlib/share2b.mps.gz", -4.1573224074E+02},
        {"netlib/boeing1.mps.gz", -3.3521356751E+02},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/lp/%s", shared, cases[k].file);
        FILE *f = fopen(path, "rb");
        if (!f) {
            if (grid->rank == 0)
                printf("skip %s (not found)\n", path);
            continue;
        }
        fclose(f);
        slp_model_t *model = NULL;
        CHECK(slp_mps_read(path, &model) == SLP_OK, "read %s: %s", path, slp_error_message());
        if (!model)
            continue;
        outcome_t o;
        run(model, 1, &o);
        expect_optimal(cases[k].file, &o, cases[k].optimum);
        if (grid->rank == 0)
            printf("%-24s removed rows %lld cols %lld nnz %lld of %lld (paper %lld, fixed %lld, "
                   "singleton %lld/%lld, empty rows %lld, empty cols %lld); obj %.10g check %.2e\n",
                   cases[k].file, (long long)o.stats.total.rows, (long long)o.stats.total.cols,
                   (long long)o.stats.total.nnz, (long long)o.stats.nnz_before,
                   (long long)o.stats.kind[SLP_PRESOLVE_PAPER].nnz,
                   (long long)o.stats.kind[SLP_PRESOLVE_FIXED].cols,
                   (long long)o.stats.kind[SLP_PRESOLVE_SINGLETON].rows,
                   (long long)o.stats.kind[SLP_PRESOLVE_SINGLETON].cols,
                   (long long)o.stats.kind[SLP_PRESOLVE_EMPTY_ROW].rows,
                   (long long)o.stats.kind[SLP_PRESOLVE_EMPTY_COL].cols, o.objective,
                   o.check_max);
        free_outcome(&o);
        slp_model_destroy(&model);
    }
}

/* Report-only sweep over extra instances (paths under shared/lp, separated by
 * spaces, in SLP_PRESOLVE_EXTRA). An instance fails only when the reduced
 * problem was solved to optimality and the recovered solution fails the
 * checker on the original model (that would be a presolve bug); other statuses
 * (time limit, ...) are printed. SLP_PRESOLVE_TIME sets the time limit,
 * SLP_PRESOLVE_TOL the solve tolerance, SLP_PRESOLVE_COMPARE=1 also solves
 * without presolve. */
static void test_extra(const char *shared)
{
    const char *list = getenv("SLP_PRESOLVE_EXTRA");
    if (!list)
        return;
    char buf[8192];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char path[4096];
        snprintf(path, sizeof path, "%s/lp/%s", shared, tok);
        slp_model_t *model = NULL;
        if (slp_mps_read(path, &model) != SLP_OK) {
            CHECK(0, "read %s: %s", path, slp_error_message());
            slp_error_clear();
            continue;
        }
        outcome_t o;
        run(model, 1, &o);
        if (o.status == OPTIMAL)
            CHECK(o.check_max <= CHECK_TOL && o.ax_err <= 1e-7, "%s: check %.3e (%s) ax %.3e", tok,
                  o.check_max, slp_check_criterion_key(o.check_worst), o.ax_err);
        if (grid->rank == 0)
            printf("%-28s status %2d removed rows %6lld cols %6lld nnz %7lld of %8lld "
                   "(paper %lld, fixed %lld, singleton rows %lld, empty rows %lld, empty cols "
                   "%lld) obj %.10g check %.2e\n",
                   tok, o.status, (long long)o.stats.total.rows, (long long)o.stats.total.cols,
                   (long long)o.stats.total.nnz, (long long)o.stats.nnz_before,
                   (long long)o.stats.kind[SLP_PRESOLVE_PAPER].nnz,
                   (long long)o.stats.kind[SLP_PRESOLVE_FIXED].cols,
                   (long long)o.stats.kind[SLP_PRESOLVE_SINGLETON].rows,
                   (long long)o.stats.kind[SLP_PRESOLVE_EMPTY_ROW].rows,
                   (long long)o.stats.kind[SLP_PRESOLVE_EMPTY_COL].cols, o.objective, o.check_max);
        if (getenv("SLP_PRESOLVE_COMPARE")) { /* the same solve without presolve */
            outcome_t plain;
            run(model, 0, &plain);
            if (grid->rank == 0)
                printf("%-28s without presolve: status %d obj %.10g check %.2e (%s); with: %s\n",
                       tok, plain.status, plain.objective, plain.check_max,
                       slp_check_criterion_key(plain.check_worst),
                       slp_check_criterion_key(o.check_worst));
            free_outcome(&plain);
        }
        fflush(stdout);
        free_outcome(&o);
        slp_model_destroy(&model);
    }
}

/* The verification at the checks (src/verdict/verify.c): a point that fails is
 * rejected until the solve has run as many iterations again as at the first failure
 * (at least the floor a retry is given), then accepted unverified (the verdict's
 * retries take over); a point that verifies is accepted at once. Hand-solved:
 * min x1 + x2, x1 + x2 >= 2, 0 <= x <= 10 has the optimum x = (1, 1), y = 1, z = 0;
 * x = (0.5, 0.5) violates the row by 1. */
static void test_verify_at_checks(void)
{
    double a[] = {1, 1}, c[] = {1, 1}, lv[] = {0, 0}, uv[] = {10, 10}, lc[] = {2},
           uc[] = {INFINITY};
    slp_model_t *model = dense_model(1, 2, a, c, lv, uv, lc, uc, 1);
    slp_local_problem_t lp;
    slp_settings_t set;
    distribute_at_1e8(model, &lp, &set);
    slp_verify_in_loop_t v = {grid, NULL, &lp, &set, 0, 0};
    slp_result_t pt = {0};
    pt.x = calloc((size_t)lp.n_loc + 1, sizeof(double));
    pt.rc = calloc((size_t)lp.n_loc + 1, sizeof(double));
    pt.y = calloc((size_t)lp.m_loc + 1, sizeof(double));
    pt.ax = calloc((size_t)lp.m_loc + 1, sizeof(double));
    for (int64_t i = 0; i < lp.m_loc; i++)
        pt.y[i] = 1.0;
    const int64_t iters[] = {1000, 1999, 2000};
    const int want[] = {0, 0, 1};
    for (int k = 0; k < 3; k++) {
        for (int64_t j = 0; j < lp.n_loc; j++)
            pt.x[j] = 0.5;
        pt.iterations = iters[k];
        int accept = -1;
        CHECK(slp_verify_accept(&pt, &v, &accept) == SLP_OK, "accept: %s", slp_error_message());
        CHECK(accept == want[k], "failing point at %lld iterations: accept %d, want %d",
              (long long)iters[k], accept, want[k]);
    }
    CHECK(v.first_failure == 1000, "first failure recorded at %lld", (long long)v.first_failure);
    /* a retry's floor: as many iterations as the run before it, here 5000 */
    slp_verify_in_loop_t floored = {grid, NULL, &lp, &set, 5000, 0};
    const int64_t later[] = {1000, 2000, 5999, 6000};
    const int want_floored[] = {0, 0, 0, 1};
    for (int k = 0; k < 4; k++) {
        for (int64_t j = 0; j < lp.n_loc; j++)
            pt.x[j] = 0.5;
        pt.iterations = later[k];
        int accept = -1;
        CHECK(slp_verify_accept(&pt, &floored, &accept) == SLP_OK && accept == want_floored[k],
              "failing point with floor 5000 at %lld iterations: accept %d, want %d",
              (long long)later[k], accept, want_floored[k]);
    }
    slp_verify_in_loop_t fresh = {grid, NULL, &lp, &set, 0, 0};
    for (int64_t j = 0; j < lp.n_loc; j++)
        pt.x[j] = 1.0;
    int accept = -1;
    CHECK(slp_verify_accept(&pt, &fresh, &accept) == SLP_OK && accept == 1 &&
              fresh.first_failure == 0,
          "the optimum not accepted at once (accept %d)", accept);
    slp_result_free(&pt);
    slp_local_problem_free(&lp);
    slp_model_destroy(&model);
}

int main(int argc, char **argv)
{
    if (slp_comm_init(&argc, &argv, 0) != SLP_OK) {
        fprintf(stderr, "comm init: %s\n", slp_error_message());
        return 2;
    }
    const char *shared = argc > 1 ? argv[1] : "../shared";
    int P = slp_comm_size(slp_comm_world()), R = 1, C = 1;
    if (argc > 3)
        slp_grid_parse(argv[3], &R, &C);
    else
        slp_grid_default_shape(P, &R, &C);
    if (slp_grid_create(R, C, &grid) != SLP_OK) {
        fprintf(stderr, "grid: %s\n", slp_error_message());
        slp_comm_finalize();
        return 2;
    }
    slp_log_set_printing(grid->rank == 0);
    slp_log_set_level(SLP_LOG_QUIET);
    test_paper_pass();
    test_singleton_rows();
    test_singleton_rows_max();
    test_fixed_and_empty();
    test_all_removed();
    test_forcing_redundant();
    test_dual_fixing();
    test_dominated_columns();
    test_free_column_singleton();
    test_slack_columns();
    test_doubleton();
    test_parallel_columns();
    test_duplicate_rows();
    test_decided_by_presolve();
    test_verify_at_checks();
    test_design_match();
    test_compaction_release();
    if (getenv("SLP_PRESOLVE_EXTRA"))
        test_extra(shared);
    else
        test_corpus(shared);
    /* every rank must agree that it passed */
    double failed = (double)check_failed;
    slp_comm_sum(grid->world, &failed, 1);
    int status = grid->rank == 0 ? check_summary() : 0;
    if (failed > 0)
        status = 1;
    slp_grid_destroy(&grid);
    slp_comm_finalize();
    return status;
}
